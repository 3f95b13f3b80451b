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
  const grams = keys.map(trigrams);
  const df = new Map<string, number>();
  for (const g of grams) for (const t of g.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [t, n] of df) idf.set(t, Math.log(1 + keys.length / n));
  const maxIdf = Math.log(1 + keys.length);
  // Postings as parallel typed arrays: a title list of 60,000 keys stays a few megabytes.
  const lists = new Map<string, { docs: number[]; weights: number[] }>();
  grams.forEach((g, doc) => {
    const weighted = [...g].map(([t, tf]) => [t, tf * idf.get(t)!] as const);
    const norm = Math.sqrt(weighted.reduce((s, [, w]) => s + w * w, 0));
    for (const [t, w] of weighted) {
      let list = lists.get(t);
      if (!list) lists.set(t, (list = { docs: [], weights: [] }));
      list.docs.push(doc);
      list.weights.push(w / norm);
    }
  });
  const scores = new Float64Array(keys.length);
  const postings = new Map([...lists].map(([t, l]) => [t, { docs: Int32Array.from(l.docs), weights: Float32Array.from(l.weights) }]));
  return {
    nearest(key, limit) {
      if (key === '') return [];
      const weighted = [...trigrams(key)].map(([t, tf]) => [t, tf * (idf.get(t) ?? maxIdf)] as const);
      const norm = Math.sqrt(weighted.reduce((s, [, w]) => s + w * w, 0));
      // Dense accumulators reused across queries; only the touched entries are read and reset.
      const touched: number[] = [];
      for (const [t, w] of weighted) {
        const p = postings.get(t);
        if (!p) continue;
        const q = w / norm;
        for (let i = 0; i < p.docs.length; i++) {
          const doc = p.docs[i];
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] += q * p.weights[i];
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
