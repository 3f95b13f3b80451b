import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createProgressWriter, progressLine } from '../src/cli/progress';
import { corpusSize, loadCorpus, loadWebPages } from '../src/corpus/loader';
import { createDb, type Db } from '../src/db/knex';
import { webPagesRepository } from '../src/db/web-pages.repository';
import { workspaceRepository } from '../src/db/workspace.repository';
import { waitFor } from '../tools/dev/processes';
import { builtinProfileData } from '../src/providers/builtin-profile-data';
import { builtinWebSearch } from '../src/providers/builtin-web-search';
import { benchKeyHeaders, cpuMeter, log, percentile, productionArgs, productionEnv, ROOT, startBenchStack, statementTimes, runBench } from './lib';

/**
 * The built-in data endpoints (`npm run bench -- data`): POST /data/people/search on the 1M-person
 * corpus (target ≥ 300 req/s, p99 < 100 ms at 20 clients) and POST /data/search/web over ≥ 200k
 * pages (target p95 < 50 ms), each beside its anchor measured in the same run: the same SQL (the
 * built-in source's repository call) run directly against Postgres with the same concurrency, and
 * the API/anchor ratio. Every API call is billed (a cost event insert), as in production. The
 * people round's filters repeat (SEARCHES × PLACES), so after the warm-up their totals come from
 * people_search_totals; a third round bumps the people revision before every call, so each total
 * is counted afresh, and is reported against the same target.
 */

const CORPUS = Number(process.env.BENCH_CORPUS_SIZE ?? 1_000_000);
const PAGES = Number(process.env.BENCH_WEB_PAGES ?? 200_000);
const CLIENTS = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const SEARCHES = [
  'backend engineer',
  'data scientist',
  'product manager',
  'nurse',
  'accountant',
  'designer',
  'sales',
  'devops kubernetes',
  'teacher',
  'recruiter',
];
const PLACES = ['San Francisco', 'London', 'Berlin', 'New York', 'Bangalore', 'Toronto', 'Sydney', 'Paris', 'Chicago', 'Singapore', 'Seattle', 'Madrid'];
const WEB_QUERIES = [
  'series b funding',
  'careers engineering',
  'opens new office',
  'machine learning',
  'revenue growth',
  'about',
  'typescript',
  'hospital',
  'bank',
  'acquires',
];

const peopleBody = (i: number) => ({ search: SEARCHES[i % SEARCHES.length], location: PLACES[Math.floor(i / SEARCHES.length) % PLACES.length], limit: 10 });
const webBody = (i: number) => ({ query: WEB_QUERIES[i % WEB_QUERIES.length], count: 10 });

interface Figures {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

/** `clients` loops of `call` for `seconds` (the i-th call gets i), with latency percentiles. */
async function closedLoop(call: (i: number) => Promise<boolean>, clients: number, seconds: number): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < deadline) {
        const t = performance.now();
        const ok = await call(n++);
        latencies.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), errors };
}

/** Keep-alive JSON POSTs over node:http (lighter than fetch on a shared 2-core machine). */
function poster(base: string, headers: Record<string, string>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const post = (p: string, body: unknown) =>
    new Promise<boolean>((resolve, reject) => {
      const req = http.request(`${base}${p}`, { method: 'POST', headers, agent }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode === 200));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  return { post, close: () => agent.destroy() };
}

const show = (label: string, f: Figures) =>
  `${label.padEnd(34)} ${f.rps.toFixed(0).padStart(6)} req/s   p50 ${f.p50.toFixed(1).padStart(6)} ms   p95 ${f.p95.toFixed(1).padStart(6)} ms   p99 ${f.p99.toFixed(1).padStart(6)} ms   errors ${f.errors}`;

async function ensureData(db: Db) {
  const have = await corpusSize(db);
  if (have < CORPUS) {
    log(`loading ${CORPUS.toLocaleString('en')} people (once; kept in .data/bench)…`);
    const bar = createProgressWriter(process.stdout);
    await loadCorpus(db, { size: CORPUS, seed: 42, pages: 0, onProgress: (p) => bar.update(progressLine('people', p.loaded, p.total, `${p.perSecond}/s`)) });
    bar.done(progressLine('people', CORPUS, CORPUS));
  }
  if ((await webPagesRepository(db).count()) < PAGES) {
    log(`loading ${PAGES.toLocaleString('en')} web pages (once)…`);
    const bar = createProgressWriter(process.stdout);
    await loadWebPages(db, { size: PAGES, seed: 42, onProgress: (p) => bar.update(progressLine('pages', p.loaded, p.total, `${p.perSecond}/s`)) });
    bar.done(progressLine('pages', PAGES, PAGES));
  }
  // Settle hint bits and statistics before measuring (a fresh bulk load would be vacuumed mid-run).
  await db.raw('vacuum (analyze) people');
  await db.raw('vacuum (analyze) web_pages');
}

async function main(): Promise<void> {
  const { infra, apiPort } = await startBenchStack({ dataDir: path.join(ROOT, '.data', 'bench'), persistent: true });
  // The anchor's pool: one connection per client, as the API's pool allows.
  const db = createDb(infra.databaseUrl, CLIENTS);
  try {
    await ensureData(db);
    const people = await corpusSize(db);
    const pages = await webPagesRepository(db).count();
    const env = productionEnv({ infra, apiPort }, { DATABASE_POOL_MAX: String(CLIENTS) });
    const apiProcess = infra.group.spawn('api', process.execPath, productionArgs('api/server'), { env, cwd: ROOT, quiet: true });
    const base = `http://127.0.0.1:${apiPort}/v1`;
    await waitFor('the api', async () => (await fetch(`${base}/health`).catch(() => null))?.ok ?? false, 120_000, 500);
    const workspace = await workspaceRepository(db).create({ name: 'Bench data', plan: 'enterprise', credits: 0, rate_limit_per_minute: 10_000_000 });
    const api = poster(base, await benchKeyHeaders(db, workspace.id));
    // Where each round's two cores went: CPU ms per call of the load generator, the API and Postgres.
    const statements = await statementTimes(db);
    const metered = async (round: () => Promise<Figures>): Promise<[Figures, string]> => {
      await statements.reset();
      const meter = cpuMeter({ api: apiProcess.pid, postgres: infra.postgres?.pid });
      const figures = await round();
      const perCall = meter.perUnit(figures.rps * SECONDS);
      // And the statements that took Postgres's time in it (pg_stat_statements).
      return [figures, [perCall, ...(await statements.top(6)).map((line) => `      ${line}`)].join('\n')];
    };
    const builtinPeople = builtinProfileData(db);
    const builtinWeb = builtinWebSearch(db);
    const anchorPeople = async (i: number) => {
      await builtinPeople.searchPeople({ ...peopleBody(i), offset: 0 });
      return true;
    };
    const anchorWeb = async (i: number) => {
      await builtinWeb.search(webBody(i).query, 10);
      return true;
    };

    // Warm-up: caches, JIT and the connection pools of both sides.
    await closedLoop((i) => api.post('/data/people/search', peopleBody(i)), CLIENTS, 3);
    await closedLoop(anchorPeople, CLIENTS, 2);
    await closedLoop((i) => api.post('/data/search/web', webBody(i)), CLIENTS, 3);
    await closedLoop(anchorWeb, CLIENTS, 2);

    // The machine is shared: the figures mean little without the load they were taken under.
    log(
      `load average before measuring: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
    log(`\n== POST /data/people/search, built-in, ${people.toLocaleString('en')} people, ${CLIENTS} clients, ${SECONDS} s (search + location, limit 10) ==`);
    const [peopleApi, peopleApiCpu] = await metered(() => closedLoop((i) => api.post('/data/people/search', peopleBody(i)), CLIENTS, SECONDS));
    const [peopleSql, peopleSqlCpu] = await metered(() => closedLoop(anchorPeople, CLIENTS, SECONDS));
    log(show('API', peopleApi));
    log(show('anchor: the same SQL, direct', peopleSql));
    log(`CPU ms per call — API round: ${peopleApiCpu}; anchor round: ${peopleSqlCpu}`);
    // The same calls with the people revision bumped before each one (a write to people before
    // every search), so no total is ever served from people_search_totals: the cost of counting.
    const [peopleCold, peopleColdCpu] = await metered(() =>
      closedLoop(
        async (i) => {
          await db('people_revision').increment('revision', 1);
          return api.post('/data/people/search', peopleBody(i));
        },
        CLIENTS,
        SECONDS,
      ),
    );
    log(show('API, every total counted afresh', peopleCold));
    log(`CPU ms per call — counted-afresh round: ${peopleColdCpu}`);
    log(`ratio API/anchor: throughput ${(peopleApi.rps / peopleSql.rps).toFixed(2)}, p99 ${(peopleApi.p99 / peopleSql.p99).toFixed(2)}`);
    const peopleMet = (f: Figures) => (f.rps >= 300 && f.p99 < 100 && f.errors === 0 ? 'met' : 'NOT met');
    log(
      `target ≥ 300 req/s and p99 < 100 ms: ${peopleMet(peopleApi)} (totals of filters asked before kept per people revision); ${peopleMet(peopleCold)} when every total is counted afresh`,
    );

    log(`\n== POST /data/search/web, built-in, ${pages.toLocaleString('en')} pages, ${CLIENTS} clients, ${SECONDS} s (count 10) ==`);
    const [webApi, webApiCpu] = await metered(() => closedLoop((i) => api.post('/data/search/web', webBody(i)), CLIENTS, SECONDS));
    const [webSql, webSqlCpu] = await metered(() => closedLoop(anchorWeb, CLIENTS, SECONDS));
    log(show('API', webApi));
    log(show('anchor: the same SQL, direct', webSql));
    log(`CPU ms per call — API round: ${webApiCpu}; anchor round: ${webSqlCpu}`);
    log(`ratio API/anchor: throughput ${(webApi.rps / webSql.rps).toFixed(2)}, p95 ${(webApi.p95 / webSql.p95).toFixed(2)}`);
    log(`target p95 < 50 ms over ≥ 200k pages: ${webApi.p95 < 50 && pages >= 200_000 && webApi.errors === 0 ? 'met' : 'NOT met'}`);
    log(
      `load average after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
    api.close();
  } finally {
    await db.destroy();
    await infra.stop();
  }
}

runBench(main);
