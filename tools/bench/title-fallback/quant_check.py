"""Matrix sizes and whether an int8 copy of the vocabulary matrix changes the nearest title."""
import json, time
import numpy as np
from common import HERE
E = np.load(f'{HERE}/vocab_emb.npy')
Q = np.load(f'{HERE}/tune_emb.npy')
scale = np.abs(E).max(axis=1, keepdims=True) / 127.0  # per-row symmetric int8
E8 = np.round(E / scale).astype(np.int8)
print(f'float32 {E.nbytes/1e6:.1f} MB ({E.nbytes/2**20:.1f} MiB); int8 {E8.nbytes/1e6:.1f} MB + scales {scale.astype(np.float32).nbytes/1e6:.2f} MB;'
      f' float16 {E.astype(np.float16).nbytes/1e6:.1f} MB')
top32 = np.argmax(Q @ E.T, axis=1)
S8 = (Q @ E8.T.astype(np.float32)) * scale.T
top8 = np.argmax(S8, axis=1)
top16 = np.argmax(Q @ E.astype(np.float16).astype(np.float32).T, axis=1)
print(f'nearest title unchanged: int8 {np.mean(top8 == top32)*100:.1f}%  float16 {np.mean(top16 == top32)*100:.1f}% of {len(Q)} tune titles')
print(f'max |cos(int8) - cos(f32)| {np.abs(S8 - Q @ E.T).max():.4f}')
q = Q[0]
t = time.perf_counter()
for _ in range(200):
    np.argmax(E8 @ (q * 127 / np.abs(q).max()).astype(np.int8).astype(np.int32))
print(f'int8 matvec (numpy int32 accum) {(time.perf_counter()-t)/200*1000:.2f} ms')
json.dump(dict(f32_mb=E.nbytes / 1e6, int8_mb=E8.nbytes / 1e6, same_top1_int8=float(np.mean(top8 == top32)),
               same_top1_f16=float(np.mean(top16 == top32))), open(f'{HERE}/quant.json', 'w'))
