/**
 * Nearest phrases by character-trigram TF-IDF cosine: the similarity fallback for role words and
 * job titles that match no known phrase exactly ("data scienist", "server side dev", "patisserie
 * chef"). Hand-written rather than a fuzzy-search library: the cosine is bounded (0–1) and so
 * doubles as the reader's confidence, and an inverted index answers in about a millisecond over
 * tens of thousands of titles; Fuse.js scans every phrase per query and MiniSearch's BM25 scores
 * are unbounded.
 */

export interface Nearest {
  key: string;
  /** Position of the key in the list the index was built from. */
  index: number;
  /** Cosine of the character-trigram TF-IDF vectors, 0–1. */
  similarity: number;
}

export interface TrigramIndex {
  /** The `limit` keys nearest to a key (lower-case words joined by spaces), most similar first. */
  nearest(key: string, limit: number): Nearest[];
}

function trigrams(text: string): Map<string, number> {
  const padded = ` ${text} `;
  const out = new Map<string, number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const g = padded.slice(i, i + 3);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

export function trigramIndex(keys: readonly string[]): TrigramIndex {
  // Postings in one compressed layout (per trigram a range of docs and weights), built in two
  // passes so no per-key map or per-trigram list is kept: 50,000 titles take a few megabytes.
  const df = new Map<string, number>();
  let total = 0;
  for (const key of keys) {
    for (const t of trigrams(key).keys()) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const ids = new Map<string, number>();
  const idf = new Float64Array(df.size);
  const offsets = new Int32Array(df.size + 1);
  for (const [t, n] of df) {
    const id = ids.size;
    ids.set(t, id);
    idf[id] = Math.log(1 + keys.length / n);
    offsets[id + 1] = offsets[id] + n;
    total += n;
  }
  const docs = new Int32Array(total);
  const weights = new Float32Array(total);
  const cursor = offsets.slice(0, df.size);
  keys.forEach((key, doc) => {
    const grams = [...trigrams(key)].map(([t, tf]) => [ids.get(t)!, tf * idf[ids.get(t)!]] as const);
    const norm = Math.sqrt(grams.reduce((sum, [, w]) => sum + w * w, 0));
    for (const [id, w] of grams) {
      docs[cursor[id]] = doc;
      weights[cursor[id]] = w / norm;
      cursor[id]++;
    }
  });
  const maxIdf = Math.log(1 + keys.length);
  const scores = new Float64Array(keys.length);
  return {
    nearest(key, limit) {
      if (key === '') return [];
      const weighted = [...trigrams(key)].map(([t, tf]) => [ids.get(t), tf * (ids.has(t) ? idf[ids.get(t)!] : maxIdf)] as const);
      const norm = Math.sqrt(weighted.reduce((s, [, w]) => s + w * w, 0));
      // Dense accumulators reused across queries; only the touched entries are read and reset.
      const touched: number[] = [];
      for (const [id, w] of weighted) {
        if (id === undefined) continue;
        const q = w / norm;
        for (let i = offsets[id]; i < offsets[id + 1]; i++) {
          const doc = docs[i];
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] += q * weights[i];
        }
      }
      const best: Nearest[] = [];
      let floor = -1;
      for (const doc of touched) {
        const s = scores[doc];
        scores[doc] = 0;
        if (best.length === limit && s < floor) continue;
        best.push({ key: keys[doc], index: doc, similarity: Math.min(1, s) });
        if (best.length > limit) {
          best.sort((a, b) => b.similarity - a.similarity || a.key.localeCompare(b.key));
          best.length = limit;
        }
        if (best.length === limit) floor = Math.min(...best.map((b) => b.similarity));
      }
      return best.sort((a, b) => b.similarity - a.similarity || a.key.localeCompare(b.key));
    },
  };
}
