"""Shared loading: vocabulary keys -> code -> family, evaluation items, and the trigram index
(a faithful Python port of src/reference/trigram-index.ts)."""
import csv, json, math, os, re, unicodedata
from collections import Counter, defaultdict
import numpy as np
import scipy.sparse as sp

MAIN = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
TITLES = f'{MAIN}/src/reference/data/occupations/titles.tsv'
FAMILIES = f'{MAIN}/src/reference/data/occupations/families.tsv'
TUNE = f'{MAIN}/bench/quality/titles-tune.json'
HERE = os.environ.get('TITLE_FALLBACK_DIR', os.path.expanduser('~/.cache/candidate-sourcing/title-fallback'))

_split = re.compile(r'[^a-z0-9+#]+')


def words(text):
    """src/ranking/title-match.ts words(): NFKD, drop U+0300-036F, lower, split on [^a-z0-9+#]+."""
    t = unicodedata.normalize('NFKD', text)
    t = re.sub('[\u0300-\u036f]', '', t).lower()
    return [w for w in _split.split(t) if w]


def key_of(text):
    return ' '.join(words(text))


def load_vocab():
    """Distinct keys in first-seen order; each key's code = the code it is listed under most often,
    ties by first row."""
    counts = defaultdict(Counter)
    first = {}
    order = []
    with open(TITLES, newline='') as f:
        for i, r in enumerate(csv.DictReader(f, delimiter='\t')):
            k = key_of(r['title'])
            if not k:
                continue
            if k not in counts:
                order.append(k)
            counts[k][r['code']] += 1
            first.setdefault((k, r['code']), i)
    code = {}
    for k in order:
        c = counts[k]
        best = max(c.values())
        code[k] = min((cc for cc in c if c[cc] == best), key=lambda cc: first[(k, cc)])
    fam = {}
    with open(FAMILIES, newline='') as f:
        for r in csv.DictReader(f, delimiter='\t'):
            fam[r['code']] = r['family'] or None
    return order, [code[k] for k in order], fam


def load_items():
    return json.load(open(TUNE))


def trigrams(text):
    p = f' {text} '
    return Counter(p[i:i + 3] for i in range(len(p) - 2))


class TrigramIndex:
    """TF-IDF over character trigrams of ` key `, idf = ln(1 + N/df), doc weights L2-normalised and
    stored float32 (as the TS Float32Array), query terms unseen in the vocabulary weighted by
    maxIdf = ln(1 + N) in the query norm only; cosine capped at 1; ties by key."""

    def __init__(self, keys):
        self.keys = keys
        n = len(keys)
        grams = [trigrams(k) for k in keys]
        df = Counter()
        for g in grams:
            df.update(g.keys())
        self.ids = {t: i for i, t in enumerate(df)}
        self.idf = np.array([math.log(1 + n / df[t]) for t in df])
        self.max_idf = math.log(1 + n)
        rows, cols, vals = [], [], []
        for d, g in enumerate(grams):
            ws = [(self.ids[t], tf * self.idf[self.ids[t]]) for t, tf in g.items()]
            norm = math.sqrt(sum(w * w for _, w in ws))
            for i, w in ws:
                rows.append(d); cols.append(i); vals.append(np.float32(w / norm))
        self.M = sp.csr_matrix((np.array(vals, dtype=np.float32).astype(np.float64), (rows, cols)),
                               shape=(n, len(self.ids)))
        self.MT = self.M.T.tocsr()
        # rank of each key in sorted order, for the key tie-break
        self.key_rank = np.empty(n, dtype=np.int64)
        self.key_rank[np.argsort(np.array(keys, dtype=object))] = np.arange(n)

    def query_vec(self, key):
        g = trigrams(key)
        ws = [(self.ids.get(t), tf * (self.idf[self.ids[t]] if t in self.ids else self.max_idf)) for t, tf in g.items()]
        norm = math.sqrt(sum(w * w for _, w in ws))
        v = np.zeros(len(self.ids))
        for i, w in ws:
            if i is not None:
                v[i] += w / norm
        return v

    def scores(self, key):
        """Dense cosine against every key (0 where no trigram is shared)."""
        if not key:
            return np.zeros(len(self.keys))
        q = self.query_vec(key)
        nz = np.nonzero(q)[0]
        return np.minimum(1.0, self.M[:, nz] @ q[nz])

    def best(self, s):
        m = s.max()
        cand = np.nonzero(s == m)[0]
        return int(cand[np.argmin(self.key_rank[cand])]) if len(cand) > 1 else int(cand[0])
