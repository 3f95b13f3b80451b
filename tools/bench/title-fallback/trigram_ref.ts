// Reference top-1 from the service's own trigram-index.ts, to check the Python port.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { trigramIndex } from '../../../src/reference/trigram-index';
const dir = process.env.TITLE_FALLBACK_DIR ?? `${os.homedir()}/.cache/candidate-sourcing/title-fallback`;
const keys: string[] = JSON.parse(readFileSync(`${dir}/vocab_keys_tri.json`, 'utf8'));
const queries: string[] = JSON.parse(readFileSync(`${dir}/tune_keys.json`, 'utf8'));
let t = Date.now();
const idx = trigramIndex(keys);
const build = Date.now() - t;
t = Date.now();
const out = queries.map((q) => {
  const n = idx.nearest(q, 1)[0];
  return n ? [n.key, n.similarity] : [null, 0];
});
const per = (Date.now() - t) / queries.length;
writeFileSync(`${dir}/trigram_ref.json`, JSON.stringify(out));
console.log(`build ${build} ms, ${per.toFixed(3)} ms/query, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
