import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createDb } from '../src/db/knex';
import { workspaceRepository } from '../src/db/workspace.repository';
import { waitFor } from '../tools/dev/processes';
import { gazetteer, type GazetteerPlace } from '../src/reference/gazetteer';
import { anchorReport, benchKeyHeaders, log, percentile, productionArgs, productionEnv, ROOT, runBench, startBenchStack } from './lib';
import { mulberry32 } from '../src/corpus/rng';

/**
 * The place picker's lookup (`npm run bench -- places`): GET /v1/reference/places?q=<prefix> on a
 * production API process of a private stack, for PREFIXES prefixes of real place names (1–8
 * characters of the name of a gazetteer city, region or country drawn at random with a fixed seed,
 * as a person types them), one client at a time (a person typing) and then 4 clients at once.
 * Printed: p50/p95/p99 per request, the first request of the process (which loads the gazetteer),
 * the API's resident memory before and after, and as the anchor the same lookups in this process
 * (gazetteer().search, no HTTP). Target: p95 < 20 ms.
 */

const PREFIXES = Number(process.env.BENCH_PREFIXES ?? 3000);
const P95_TARGET_MS = 20;
const CLIENTS = 4;

/** Every place of the gazetteer (cities, regions, countries), once each. */
function allPlaces(): GazetteerPlace[] {
  const seen = new Map<string, GazetteerPlace>();
  for (const places of gazetteer().names().values()) for (const p of places) seen.set(p.id, p);
  for (const p of gazetteer().cities()) seen.set(p.id, p);
  return [...seen.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** `n` prefixes: a random place's own name cut to 1–8 characters (never ending in a space). */
function prefixes(n: number): string[] {
  const places = allPlaces();
  const random = mulberry32(2026);
  const out: string[] = [];
  while (out.length < n) {
    const name = places[Math.floor(random() * places.length)].name;
    const length = 1 + Math.floor(random() * 8);
    const prefix = [...name].slice(0, length).join('').trimEnd();
    if (prefix) out.push(prefix);
  }
  return out;
}

/** Resident memory of a process now (VmRSS), in MB. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const describe = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1)! };
};
const fmt = (d: ReturnType<typeof describe>) =>
  `p50 ${d.p50.toFixed(2)} ms, p95 ${d.p95.toFixed(2)} ms, p99 ${d.p99.toFixed(2)} ms, max ${d.max.toFixed(1)} ms`;

async function main(): Promise<number> {
  const report = anchorReport('places');
  const qs = prefixes(PREFIXES);
  const lengths = new Map<number, number>();
  for (const q of qs) lengths.set([...q].length, (lengths.get([...q].length) ?? 0) + 1);
  log(
    `${qs.length} prefixes of ${allPlaces().length.toLocaleString('en')} gazetteer places, by length: ${[...lengths]
      .sort((a, b) => a[0] - b[0])
      .map(([l, n]) => `${l}: ${n}`)
      .join(', ')}; e.g. ${qs
      .slice(0, 8)
      .map((q) => JSON.stringify(q))
      .join(', ')}`,
  );

  // The anchor: the lookup itself, in this process.
  gazetteer().search('warm', 20);
  const inProcess: number[] = [];
  let found = 0;
  for (const q of qs) {
    const t = performance.now();
    found += gazetteer().search(q, 20).length;
    inProcess.push(performance.now() - t);
  }
  const anchor = describe(inProcess);
  log(`\n== gazetteer().search(prefix, 20) in this process (no HTTP): ${fmt(anchor)}; ${(found / qs.length).toFixed(1)} places per prefix ==`);

  const { infra, apiPort } = await startBenchStack({ dataDir: path.join(ROOT, '.data', 'bench-places'), persistent: false });
  const db = createDb(infra.databaseUrl, 2);
  try {
    const env = productionEnv({ infra, apiPort });
    const api = infra.group.spawn('api', process.execPath, productionArgs('api/server'), { env, cwd: ROOT, quiet: !process.env.BENCH_VERBOSE });
    const base = `http://127.0.0.1:${apiPort}/v1`;
    await waitFor('the api', async () => (await fetch(`${base}/health`).catch(() => null))?.ok === true, 120_000, 200);
    const workspace = await workspaceRepository(db).create({ name: 'Bench places', plan: 'enterprise', credits: 1000, rate_limit_per_minute: 10_000_000 });
    const headers = await benchKeyHeaders(db, workspace.id);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    const get = (q: string) =>
      new Promise<{ status: number; ms: number; body: string }>((resolve, reject) => {
        const t = performance.now();
        const req = http.get(`${base}/reference/places?q=${encodeURIComponent(q)}`, { headers, agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t, body }));
        });
        req.on('error', reject);
      });

    // A key read first, so the first lookup's time is the gazetteer's load, not the key's.
    await fetch(`${base}/reference/industries?q=soft`, { headers });
    const rssBefore = rssMb(api.pid!);
    const first = await get('Leeds');
    const rssAfterFirst = rssMb(api.pid!);
    log(
      `\n== first lookup of the fresh API process ("Leeds"): ${first.ms.toFixed(0)} ms (${first.status}; loads the gazetteer); API RSS ${rssBefore.toFixed(0)} → ${rssAfterFirst.toFixed(0)} MB ==`,
    );

    // Warm-up: JIT, the pool, the connection.
    for (const q of qs.slice(0, 300)) await get(q);

    const run = async (clients: number) => {
      const ms: number[] = [];
      let errors = 0;
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < qs.length) {
            const r = await get(qs[next++]);
            ms.push(r.ms);
            if (r.status !== 200) errors++;
          }
        }),
      );
      return { d: describe(ms), errors, rps: qs.length / ((performance.now() - started) / 1000) };
    };
    const one = await run(1);
    log(`\n== GET /v1/reference/places?q=<prefix>, ${qs.length} prefixes, 1 client: ${fmt(one.d)}; ${one.rps.toFixed(0)} req/s, ${one.errors} errors ==`);
    const many = await run(CLIENTS);
    log(`== the same, ${CLIENTS} clients at once: ${fmt(many.d)}; ${many.rps.toFixed(0)} req/s, ${many.errors} errors ==`);
    const sample = JSON.parse((await get('São Pa')).body) as { data: { name: string; kind: string }[] };
    log(
      `  e.g. "São Pa" → ${sample.data
        .slice(0, 3)
        .map((p) => `${p.name} (${p.kind})`)
        .join('; ')}`,
    );
    agent.destroy();

    report.note(
      `first lookup of a fresh API process: ${first.ms.toFixed(0)} ms (the gazetteer loads); API RSS ${rssBefore.toFixed(0)} → ${rssAfterFirst.toFixed(0)} MB, ${rssMb(api.pid!).toFixed(0)} MB after the runs`,
    );
    report.note(`the lookup alone in this process (gazetteer().search): ${fmt(anchor)}`);
    report.note(`1 client: ${fmt(one.d)}, ${one.rps.toFixed(0)} req/s; ${CLIENTS} clients: ${fmt(many.d)}, ${many.rps.toFixed(0)} req/s`);
    report.target(
      `GET /v1/reference/places p95, 1 client, ${qs.length} prefixes of 1–8 characters`,
      `${one.d.p95.toFixed(2)} ms (goal < ${P95_TARGET_MS} ms)`,
      one.d.p95 < P95_TARGET_MS,
    );
    report.target(`the same with ${CLIENTS} clients at once`, `${many.d.p95.toFixed(2)} ms (goal < ${P95_TARGET_MS} ms)`, many.d.p95 < P95_TARGET_MS);
    report.target('every lookup answered 200', `${one.errors + many.errors} errors`, one.errors + many.errors === 0);
  } finally {
    await db.destroy();
    await infra.stop();
  }
  report.print();
  return 0;
}

runBench(main, 'places');
