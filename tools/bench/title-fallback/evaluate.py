"""Score trigram (A), MiniLM (B) and combinations (C*) as nearest-title fallbacks on titles-tune.json.
Needs vocab_emb.npy / vocab_keys.json / tune_emb.npy from embed_vocab.py.
Writes results.json and results_tables.md."""
import json, sys, time
from collections import defaultdict
import numpy as np
from common import HERE, load_vocab, load_items, key_of, TrigramIndex

keys, codes, fam = load_vocab()
assert json.load(open(f'{HERE}/vocab_keys.json')) == keys
import os
SUF = os.environ.get('EMB_SUFFIX', '')
E = np.load(f'{HERE}/vocab_emb{SUF}.npy')
Q = np.load(f'{HERE}/tune_emb{SUF}.npy')
items = load_items()
qkeys = [key_of(x['title']) for x in items]
keyset = set(keys)

t = time.time()
tri = TrigramIndex(keys)
print(f'trigram index built in {time.time()-t:.1f}s', flush=True)

# Dense score matrices for the 1,776 queries (trigram: sparse product).
T = np.zeros((len(items), len(keys)), dtype=np.float32)
for i, q in enumerate(qkeys):
    T[i] = tri.scores(q)
S = Q @ E.T  # MiniLM cosine
print('scores ready', flush=True)

# Check the Python trigram port against the service's TS implementation (ts/trigram_ref.ts).
try:
    ref = json.load(open(f'{HERE}/trigram_ref.json'))
    agree = sum(1 for i in range(len(items)) if ref[i][0] == keys[tri.best(T[i].astype(np.float64))])
    simdiff = max(abs(ref[i][1] - float(T[i].max())) for i in range(len(items)))
    print(f'trigram port vs TS: top-1 key agrees on {agree}/{len(items)}, max |cos diff| {simdiff:.2e}')
except FileNotFoundError:
    agree = None

famidx = np.array([fam.get(c) or '' for c in codes], dtype=object)


def pick_tri(i):
    return tri.best(T[i].astype(np.float64))


def pick_emb(i):
    return int(np.argmax(S[i]))


methods = {
    'A trigram': lambda i: pick_tri(i),
    'B MiniLM': lambda i: pick_emb(i),
}
for th in (0.5, 0.6, 0.7, 0.8, 0.9):
    methods[f'C1 MiniLM if tri<{th}'] = (lambda th: lambda i: pick_tri(i) if T[i].max() >= th else pick_emb(i))(th)
for a in (0.3, 0.5, 0.7):
    methods[f'C2 {a}*tri+{1-a:.1f}*emb'] = (lambda a: lambda i: int(np.argmax(a * T[i] + (1 - a) * S[i])))(a)
for k in (10, 50):
    # MiniLM re-ranks the trigram top-k
    def rr(i, k=k):
        top = np.argpartition(-T[i], k)[:k]
        return int(top[np.argmax(S[i][top])])
    methods[f'C3 MiniLM rerank tri top{k}'] = rr
# kNN vote: top-k MiniLM neighbours vote for a family (weighted by cosine), blank counts as a family
def knn_family(i, k=10, M=None):
    M = S if M is None else M
    top = np.argpartition(-M[i], k)[:k]
    votes = defaultdict(float)
    for j in top:
        votes[famidx[j]] += M[i][j]
    return max(votes, key=votes.get)


def score(pick=None, famfn=None):
    per = defaultdict(lambda: defaultdict(list))
    for i, x in enumerate(items):
        pref = x['id'][:2]
        if pick:
            j = pick(i)
            c = codes[j]
            pf = fam.get(c) or None
        else:
            c = None
            pf = famfn(i) or None
        ne_grp = [pref + '-ne'] if qkeys[i] not in keyset else []
        for grp in [pref, 'all', 'no-exact' if qkeys[i] not in keyset else 'exact'] + ne_grp:
            d = per[grp]
            if c is not None:
                d['first'].append(c == x['onet_codes'][0])
                d['any'].append(c in x['onet_codes'])
            if x['family'] is not None:
                d['infam'].append(pf == x['family'])
            else:
                d['out'].append(pf is None)
            d['fam'].append(pf == x['family'])
    return {g: {m: (100 * np.mean(v), len(v)) for m, v in d.items()} for g, d in per.items()}


results = {}
for name, fn in methods.items():
    results[name] = score(pick=fn)
    r = results[name]['all']
    print(f"{name:28s} first {r['first'][0]:5.1f}  any {r['any'][0]:5.1f}  infam {r['infam'][0]:5.1f}  out {r['out'][0]:5.1f}  fam {r['fam'][0]:5.1f}", flush=True)
for k in (5, 10, 20):
    name = f'D MiniLM top{k} family vote'
    results[name] = score(famfn=lambda i, k=k: knn_family(i, k))
    r = results[name]['all']
    print(f"{name:28s} first   -    any   -    infam {r['infam'][0]:5.1f}  out {r['out'][0]:5.1f}  fam {r['fam'][0]:5.1f}", flush=True)

for k in (5, 10):
    name = f'D trigram top{k} family vote'
    results[name] = score(famfn=lambda i, k=k: knn_family(i, k, T))
    r = results[name]['all']
    print(f"{name:28s} first   -    any   -    infam {r['infam'][0]:5.1f}  out {r['out'][0]:5.1f}  fam {r['fam'][0]:5.1f}", flush=True)

json.dump(results, open(f'{HERE}/results{SUF}.json', 'w'), indent=1)

# Paired exact sign test (McNemar) A vs B / C on the items the fallback would actually see (no exact key).
from math import comb
def mcnemar(xs, ys):
    b = sum(1 for x, y in zip(xs, ys) if x and not y); c = sum(1 for x, y in zip(xs, ys) if y and not x)
    n = b + c; k = min(b, c)
    p = min(1.0, 2 * sum(comb(n, i) for i in range(k + 1)) / 2 ** n) if n else 1.0
    return b, c, p
ne = [i for i in range(len(items)) if qkeys[i] not in keyset]
def outcome(fn, metric):
    out = []
    for i in ne:
        x = items[i]; c = codes[fn(i)]; pf = fam.get(c) or None
        out.append({'first': c == x['onet_codes'][0], 'any': c in x['onet_codes'], 'fam': pf == x['family']}[metric])
    return out
sig = []
for other in ('B MiniLM', 'C1 MiniLM if tri<0.8', 'C3 MiniLM rerank tri top50'):
    for metric in ('first', 'any', 'fam'):
        b, c, p = mcnemar(outcome(methods['A trigram'], metric), outcome(methods[other], metric))
        sig.append(f'| A vs {other} | {metric} | {b} | {c} | {p:.2g} |')
sigmd = '| pair (no-exact items, n=%d) | metric | A right only | other right only | two-sided p |\n|---|---|---:|---:|---:|\n' % len(ne) + '\n'.join(sig)
print(sigmd)
open(f'{HERE}/significance{SUF}.md', 'w').write(sigmd + '\n')

groups = ['all', 'no-exact', 'exact', 'tt', 'tn', 'tf', 'tg', 'tj', 'tk']
lines = []
n = results['A trigram']
lines.append('Group sizes (items / in-family / outside): ' + ', '.join(
    f"{g} {n[g]['fam'][1]}/{n[g]['infam'][1]}/{n[g]['out'][1]}" for g in groups if g in n))
lines.append('')
for metric, label in [('first', 'first code exact (%)'), ('any', 'any accepted code (%)'), ('infam', 'in-family: family right (%)'),
                      ('out', 'outside: kept out (%)'), ('fam', 'overall family right (%)')]:
    lines.append(f'### {label}\n')
    lines.append('| method | ' + ' | '.join(groups) + ' |')
    lines.append('|---|' + '---:|' * len(groups))
    for name, r in results.items():
        if metric not in r['all']:
            continue
        lines.append(f'| {name} | ' + ' | '.join(f"{r[g][metric][0]:.1f}" if g in r else '-' for g in groups) + ' |')
    lines.append('')
ng = [p + '-ne' for p in ('tt', 'tn', 'tf', 'tg', 'tj', 'tk')]
lines.append('### Items with no exact key in the vocabulary (where the fallback actually runs), by prefix\n')
lines.append('sizes (items/in-family/outside): ' + ', '.join(f"{g} {n[g]['fam'][1]}/{n[g]['infam'][1]}/{n[g]['out'][1]}" for g in ng) + '\n')
lines.append('| method | metric | ' + ' | '.join(ng) + ' |')
lines.append('|---|---|' + '---:|' * len(ng))
for name in ('A trigram', 'B MiniLM', 'C1 MiniLM if tri<0.8', 'C3 MiniLM rerank tri top50', 'D MiniLM top5 family vote'):
    for metric in ('first', 'any', 'infam', 'out', 'fam'):
        if metric in results[name]['all']:
            lines.append(f'| {name} | {metric} | ' + ' | '.join(f"{results[name][g][metric][0]:.1f}" for g in ng) + ' |')
lines.append('')
open(f'{HERE}/results_tables{SUF}.md', 'w').write('\n'.join(lines))
print('\n'.join(lines))

# Examples where A and B disagree on family (for the report)
ex = []
for i, x in enumerate(items):
    a, b = pick_tri(i), pick_emb(i)
    fa, fb = fam.get(codes[a]) or None, fam.get(codes[b]) or None
    if (fa == x['family']) != (fb == x['family']):
        ex.append((x['id'], x['title'], x['family'], keys[a], f'{T[i].max():.2f}', fa, keys[b], f'{S[i].max():.2f}', fb))
with open(f'{HERE}/disagreements{SUF}.tsv', 'w') as f:
    f.write('id\ttitle\tgold_family\ttri_key\ttri_cos\ttri_family\temb_key\temb_cos\temb_family\n')
    for e in ex:
        f.write('\t'.join(str(v) for v in e) + '\n')
print(f'{len(ex)} family disagreements written to disagreements.tsv')
