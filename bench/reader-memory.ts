/**
 * The brief reader's resident memory, measured in a fresh process (run by briefs.bench.ts as
 * `node --expose-gc --import tsx bench/reader-memory.ts <texts.json>`; prints one JSON line):
 * process.memoryUsage() after a full garbage collection at each step:
 *   start     nothing of the service loaded (Node and the TypeScript loader)
 *   imported  the reader's modules imported (their code and the JSON they import)
 *   loaded    the gazetteer and the O*NET vocabulary built (gazetteer(), occupations())
 *   read      every text of the file read once (the reader's lazy tables and caches built)
 */
import fs from 'node:fs';

interface Reading {
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
}

function reading(): Reading {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return { rssMb: m.rss / 2 ** 20, heapUsedMb: m.heapUsed / 2 ** 20, externalMb: (m.external + m.arrayBuffers) / 2 ** 20 };
}

async function main(): Promise<void> {
  const texts = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as string[];
  const start = reading();
  const { extractCriteria } = await import('../src/briefs/reader');
  const { gazetteer } = await import('../src/reference/gazetteer');
  const { occupations } = await import('../src/reference/occupations');
  const imported = reading();
  let t = performance.now();
  gazetteer().search('Leeds', 20);
  occupations().search('pharmacist', 10);
  const loadMs = performance.now() - t;
  const loaded = reading();
  t = performance.now();
  extractCriteria('Senior backend engineer in Leeds, 5+ years of Go');
  const firstReadMs = performance.now() - t;
  for (const text of texts) extractCriteria(text);
  const read = reading();
  process.stdout.write(`${JSON.stringify({ start, imported, loaded, read, loadMs, firstReadMs })}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
