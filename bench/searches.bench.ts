import { inlineBriefReader } from '../src/briefs/brief-reader';
import http from 'node:http';
import { loadConfig, type Config } from '../src/config';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { corpusSize, loadCorpus } from '../src/corpus/loader';
import { createDb, type Db } from '../src/db/knex';
import { projectRepository } from '../src/db/project.repository';
import { RECORD_CSV_SQL } from '../src/db/search.repository';
import { hashApiKey } from '../src/domain/api-keys';
import { rateLimitRepository } from '../src/db/rate-limit.repository';
import { workspaceRepository } from '../src/db/workspace.repository';
import { createProgressWriter, progressLine } from '../src/cli/progress';
import { freePort, waitFor } from '../tools/dev/processes';
import { devEntryArgs, devProcessEnv } from '../tools/dev/dev-env';
import { to as copyTo } from 'pg-copy-streams';
import type { Workspace } from '../src/db/workspace.repository';
import { databaseProfileSource } from '../src/providers/database-profile-source';
import { launchSearch } from '../src/searches/launch.service';
import { claimSlot, completePass, processPage } from '../src/searches/pass.service';
import { launchBody } from '../src/searches/searches.schemas';
import {
  ROOT,
  anchorReport,
  cpuMeter,
  load,
  log,
  median,
  peakRssMb,
  productionArgs,
  productionEnv,
  startBareKoa,
  startBenchStack,
  statementTimes,
  benchKeyHeaders,
  cpuMs,
  cpuTally,
  tracingSettings,
  TRACING_NOT_MEASURED,
  runBench,
} from './lib';

/**
 * Search figures on this machine (`npm run bench -- searches`), each beside an anchor measured in
 * the same run (absolute figures swing two to three times between runs on a shared host):
 *  - corpus load (COPY) in people/s, when .data/bench lacks the corpus;
 *  - a database-only pass, read budget 200, on a 1M-person corpus: launch → complete through
 *    Temporal vs the same launch and activity code in a loop without Temporal; for an old metro
 *    (criteria `metro`), for a city plus radius (`places: [{name, radius_km: 40}]`: Leeds, Lyon,
 *    Calgary, Adelaide, Porto, and Seattle, an old metro's city, as a place), and for an occupation
 *    outside the families in those cities (`occupations: ["29-1051.00"]`), medians side by side;
 *  - GET /searches/{id}/people?limit=100 with and without profiles, 20 clients, vs a bare Koa
 *    server serving the same bytes from memory;
 *  - records.csv of a 100k-row search vs COPY … TO STDOUT WITH CSV of the query it streams, and the API
 *    process's peak RSS;
 *  - what tracing costs the people reads: one fresh API per setting (BENCH_TRACING, default off, on
 *    at 1.0, on at 0.1; spans exported to a real Zipkin), the same load in alternating rounds.
 * The 1M corpus lives in .data/bench (loaded once, reused by later runs).
 */

const CORPUS = Number(process.env.BENCH_CORPUS_SIZE ?? 1_000_000);
/** BENCH_PARTS=pass,places,people,dev,tracing,csv (default all) runs only some parts; without `pass` one pass still runs, for the people reads to read. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'pass,places,people,dev,tracing,csv').split(',').map((p) => p.trim()));

/** A 100k-row search made directly from the people table (bulk fixture for the CSV export). */
async function bulkSearch(db: Db, workspaceId: string, projectId: string, rows: number): Promise<string> {
  const id = randomUUID();
  await db('searches').insert({
    id,
    workspace_id: workspaceId,
    project_id: projectId,
    status: 'complete',
    outcome: 'Poor yield',
    stop_reason: 'read_budget_reached',
    criteria: JSON.stringify({ family: 'software_engineering', target: 25, read_budget: rows, shortlist_threshold: 70 }),
    funding_bucket: 'workspace',
    profiles_read: rows,
    delivered: rows,
    closed_at: db.fn.now(),
  });
  await db.raw(
    `with picked as (select p.id, first_name, last_name, title, company, location, network_url, open_profile, premium, summary, pp.profile, row_number() over (order by p.id) as seq
                      from people p join people_profiles pp on pp.id = p.id order by p.id limit ?),
     cands as (insert into candidates (id, project_id, person_id) select gen_random_uuid(), ?, id from picked returning id, person_id)
     insert into search_people (search_id, candidate_id, person_id, seq, pass, page, status, score, score_breakdown, summary, profile, read_at)
     select ?, c.id, p.id, p.seq, 1, (p.seq - 1) / 25, 'scored', (p.seq % 100)::int, '[]'::jsonb,
            jsonb_build_object('first_name', p.first_name, 'last_name', p.last_name, 'title', p.title, 'company', p.company, 'location', p.location,
                               'network_url', p.network_url, 'open_profile', p.open_profile, 'premium', p.premium, 'summary', p.summary),
            p.profile, now()
     from picked p join cands c on c.person_id = p.id`,
    [rows, projectId, id],
  );
  // A real search writes its rows page by page over minutes, and autovacuum has visited them by
  // the time anyone exports; 100k rows inserted in one statement have not been, so the first read
  // would set every row's hint bits (and autovacuum would start) during the measurement.
  await db.raw('vacuum (analyze) search_people');
  return id;
}

/** Bytes read from a stream: [bytes, seconds]. */
async function drain(body: AsyncIterable<Uint8Array>): Promise<{ bytes: number; seconds: number }> {
  const t = performance.now();
  let bytes = 0;
  for await (const chunk of body) bytes += chunk.length;
  return { bytes, seconds: (performance.now() - t) / 1000 };
}

/**
 * The anchor of a database-only pass: the same service functions its activities call (claim the
 * slot, page → read → score → shortlist until a stop, complete), in a plain loop in this process,
 * after the same launch transaction; no Temporal, no HTTP.
 */
async function inProcessPass(db: Db, config: Config, workspace: Workspace, projectId: string, criteria: unknown, baseUrl: string): Promise<number> {
  const t = performance.now();
  const { search } = await launchSearch(db, {
    workspace,
    key: { id: null, funding_mode: 'workspace' },
    projectId,
    idempotencyKey: `bench-inproc-${randomUUID()}`,
    body: launchBody.parse({ criteria }),
    baseUrl,
    // The API's own configuration (no provider keys: a database-only launch).
    config,
    reader: inlineBriefReader,
  });
  const ref = { searchId: search.id, pass: 1 };
  if (!(await claimSlot(db, ref, baseUrl)).claimed) throw new Error('in-process pass found no free slot');
  const source = databaseProfileSource(db);
  let stop = null;
  for (let page = 0; !stop; page++) stop = (await processPage(db, source, { ...ref, page })).stop;
  await completePass(db, { ...ref, stopReason: stop }, baseUrl);
  return performance.now() - t;
}

async function main(): Promise<void> {
  const { infra, apiPort } = await startBenchStack({ dataDir: path.join(ROOT, '.data', 'bench'), persistent: true, zipkin: true });
  const db = createDb(infra.databaseUrl, 4);
  const report = anchorReport('npm run bench -- searches');
  try {
    const have = await corpusSize(db);
    if (have < CORPUS) {
      log(`loading ${CORPUS.toLocaleString('en')} people (once; kept in .data/bench)…`);
      const bar = createProgressWriter(process.stdout);
      const started = Date.now();
      const { inserted } = await loadCorpus(db, {
        size: CORPUS,
        seed: 42,
        onProgress: (p) => bar.update(progressLine('people', p.loaded, p.total, `${p.perSecond}/s`)),
      });
      const seconds = (Date.now() - started) / 1000;
      bar.done(progressLine('people', CORPUS, CORPUS, `${seconds.toFixed(0)} s`));
      report.target(
        `corpus load through COPY, ${inserted.toLocaleString('en')} people`,
        `${(inserted / seconds).toFixed(0)} people/s in ${seconds.toFixed(1)} s`,
        inserted / seconds >= 50_000,
        'Postgres CPU per row: jsonb input of the 2 kB profile, the English tsvector of title and skills, WAL, then the index builds (README "Benchmarks")',
      );
    } else report.note(`corpus load: ${have.toLocaleString('en')} people already in .data/bench (delete it to measure the load)`);
    const env = productionEnv({ infra, apiPort });
    // The API at production's default log level (a line per request), as `npm run start:api` runs it.
    // BENCH_VERBOSE=1 shows their output (a 500's cause, a failed activity).
    const quiet = !process.env.BENCH_VERBOSE;
    const api = infra.group.spawn('api', process.execPath, productionArgs('api/server'), { env: { ...env, LOG_LEVEL: 'info' }, cwd: ROOT, quiet });
    const worker = infra.group.spawn('worker', process.execPath, productionArgs('activities/worker'), { env, cwd: ROOT, quiet });
    const base = `http://127.0.0.1:${apiPort}/v1`;
    await waitFor('api and worker', async () => (await fetch(`${base}/health?worker=true`)).ok, 120_000, 500);

    const workspace = await workspaceRepository(db).create({
      name: 'Bench',
      plan: 'enterprise',
      credits: 100_000,
      rate_limit_per_minute: 10_000_000,
      max_concurrent_searches: 10,
    });
    const headers = await benchKeyHeaders(db, workspace.id);

    // CPU each process spends on the passes through Temporal (the in-process anchor's runs excluded).
    const processes = { temporal: infra.temporal?.pid, worker: worker.pid, api: api.pid, postgres: infra.postgres?.pid };
    /**
     * One series of database-only passes, each launched through the API and Temporal and, as its
     * anchor, run in-process (the same launch and activity code in a loop), alternating which goes
     * first; the first pass pays for cold caches (Postgres buffers, the workflow sandbox, a new
     * area of the people table) and is shown apart. Each series has projects of its own (a
     * project's candidates are shared).
     */
    const passSeries = async (title: string, passes: { label: string; criteria: Record<string, unknown> }[]) => {
      log(`\n== ${title} ==`);
      const project = await projectRepository(db).create(workspace.id, `Bench project: ${title}`);
      const inProcessProject = await projectRepository(db).create(workspace.id, `Bench project (in-process): ${title}`);
      const passCpu = cpuTally(processes);
      const inProcessCpu = cpuTally({ postgres: infra.postgres?.pid });
      let inProcessBenchCpuMs = 0;
      const times: number[] = [];
      const inProcessTimes: number[] = [];
      let sample = '';
      const statements = await statementTimes(db);
      await statements.reset();
      for (const [i, { label, criteria }] of passes.entries()) {
        const throughTemporal = async () => {
          const t = performance.now();
          const counting = passCpu.start(i > 0);
          const res = await fetch(`${base}/projects/${project.id}/searches`, {
            method: 'POST',
            headers: { ...headers, 'Idempotency-Key': `bench-${randomUUID()}` },
            body: JSON.stringify({ criteria }),
          });
          if (res.status !== 201 && res.status !== 200) throw new Error(`launching ${label} answered ${res.status}: ${await res.text()}`);
          const launched = (await res.json()) as { data: { id: string } };
          let record = { status: '', profiles_read: 0 };
          while (record.status !== 'complete' && record.status !== 'failed') {
            await new Promise((r) => setTimeout(r, 20));
            record = ((await (await fetch(`${base}/searches/${launched.data.id}`, { headers })).json()) as { data: typeof record }).data;
          }
          counting.stop();
          return { ms: performance.now() - t, id: launched.data.id, record };
        };
        const inProcess = async () => {
          const counting = inProcessCpu.start(i > 0);
          const cpu = process.cpuUsage();
          const result = await inProcessPass(db, loadConfig(env), workspace, inProcessProject.id, criteria, base);
          counting.stop();
          const used = process.cpuUsage(cpu);
          if (i > 0) inProcessBenchCpuMs += (used.user + used.system) / 1000;
          return result;
        };
        // Whichever runs second finds the place's people in Postgres's buffers: the order alternates.
        let ms: number, id: string, record: { status: string; profiles_read: number }, inProcessMs: number;
        if (i % 2 === 0) {
          ({ ms, id, record } = await throughTemporal());
          inProcessMs = await inProcess();
        } else {
          inProcessMs = await inProcess();
          ({ ms, id, record } = await throughTemporal());
        }
        if (i > 0) {
          times.push(ms);
          inProcessTimes.push(inProcessMs);
        }
        sample = id;
        log(
          `  ${label.padEnd(24)} ${record.status} in ${(ms / 1000).toFixed(2)} s (profiles_read ${record.profiles_read}); in-process ${(inProcessMs / 1000).toFixed(2)} s${i === 0 ? '  ← cold first pass, not counted' : ''}`,
        );
      }
      if (times.length) {
        log(`  CPU ms per pass through Temporal: ${passCpu.perUnit(times.length)}`);
        log(
          `  CPU ms per pass in-process: this process ${(inProcessBenchCpuMs / inProcessTimes.length).toFixed(1)}, ${inProcessCpu.perUnit(inProcessTimes.length)}`,
        );
        log('  Postgres time by statement over the series, both ways (pg_stat_statements):');
        for (const line of await statements.top(3)) log(`    ${line}`);
      }
      return { times, inProcessTimes, sample };
    };

    // The same role and budget in every series; only the place (and, last, the role) changes.
    const role = { family: 'software_engineering', skills: ['TypeScript', 'Kubernetes'], read_budget: 200, target: 200, shortlist_threshold: 100 };
    const allMetros = ['seattle', 'san-francisco-bay-area', 'new-york-city', 'london', 'berlin', 'bangalore', 'chicago'];
    const metros = PARTS.has('pass') ? allMetros : allMetros.slice(0, 1);
    const metroPasses = await passSeries(
      'database-only pass, read budget 200, 1M corpus, old metro (criteria metro): launch → complete, through Temporal vs in-process',
      metros.map((metro) => ({ label: metro, criteria: { ...role, metro } })),
    );
    const sampleSearch = metroPasses.sample;
    if (PARTS.has('pass')) reportPasses(report, metroPasses.times, metroPasses.inProcessTimes);
    if (PARTS.has('places')) {
      // Cities outside the 68 old metros (the role families' people there are the markets' few,
      // so these passes soon rank past the place's tier), and one old metro's city given as a place.
      const cities = ['Manchester', 'Leeds', 'Lyon', 'Calgary', 'Adelaide', 'Porto', 'Seattle'];
      const cityPasses = await passSeries(
        'database-only pass, read budget 200, 1M corpus, city plus radius (criteria places: [{name, radius_km: 40}]): through Temporal vs in-process',
        cities.map((name) => ({ label: `${name} 40 km${name === 'Seattle' ? ' (old metro)' : ''}`, criteria: { ...role, places: [{ name, radius_km: 40 }] } })),
      );
      // An occupation outside the families (pharmacists, O*NET 29-1051.00), whose people live worldwide.
      const occupationPasses = await passSeries(
        'database-only pass, read budget 200, 1M corpus, open world (occupations: ["29-1051.00"], places: [a city]): through Temporal vs in-process',
        ['Manchester', 'Leeds', 'Lyon', 'Calgary', 'Adelaide', 'Porto', 'Seattle'].map((name) => ({
          label: `pharmacists, ${name}`,
          criteria: { occupations: ['29-1051.00'], places: [name], read_budget: 200, target: 200, shortlist_threshold: 100 },
        })),
      );
      const med = (xs: number[]) => median(xs) / 1000;
      // The cities outside the old metros apart from the old metro's city (the last pass).
      const outside = { times: cityPasses.times.slice(0, -1), inProcessTimes: cityPasses.inProcessTimes.slice(0, -1) };
      const oldMetroCity = { times: cityPasses.times.slice(-1), inProcessTimes: cityPasses.inProcessTimes.slice(-1) };
      const line = (name: string, p: { times: number[]; inProcessTimes: number[] }) =>
        `${name} ${med(p.times).toFixed(2)} s (in-process ${med(p.inProcessTimes).toFixed(2)} s, ${p.times.length} pass${p.times.length === 1 ? '' : 'es'})`;
      const medians = [
        ...(metroPasses.times.length ? [line('old metro (criteria metro)', metroPasses)] : []),
        line('city + 40 km outside the old metros', outside),
        line('Seattle + 40 km (an old metro as a place)', oldMetroCity),
        line('pharmacists + city', occupationPasses),
      ];
      log(`\n  pass medians through Temporal, same run: ${medians.join('; ')}`);
      report.note(`pass medians through Temporal, same run: ${medians.join('; ')}`);
      if (metroPasses.times.length)
        report.figure({
          name: 'pass launch → complete, city + 40 km outside the old metros (places), median',
          value: med(outside.times),
          unit: 's',
          anchor: { name: 'the old-metro passes of the same run (criteria metro), median', value: med(metroPasses.times) },
          better: 'lower',
        });
      report.figure({
        name: 'pass launch → complete, city + 40 km outside the old metros (places), median',
        value: med(outside.times),
        unit: 's',
        anchor: { name: 'the same launch and activity code in a loop without Temporal', value: med(outside.inProcessTimes) },
        better: 'lower',
      });
      if (metroPasses.times.length)
        report.target(
          'city + radius pass median no worse than the old-metro pass median of the same run',
          `${med(outside.times).toFixed(2)} s vs ${med(metroPasses.times).toFixed(2)} s`,
          med(outside.times) <= med(metroPasses.times),
          'the retrieval tiers (docs/benchmarks.md §2): a city whose criteria name no skill ranks its family anywhere',
        );
      report.target(
        'city + radius pass median through Temporal < 1 s',
        `${med(outside.times).toFixed(2)} s`,
        med(outside.times) < 1,
        'Postgres CPU per pass (above)',
      );
      report.target(
        'open-world pass (pharmacists + city) median through Temporal < 1 s',
        `${med(occupationPasses.times).toFixed(2)} s`,
        med(occupationPasses.times) < 1,
      );
    }
    report.note(`worker process peak RSS after the passes: ${peakRssMb(worker.pid!).toFixed(0)} MB`);

    // People reads against a bare Koa server holding the same bytes, alternating (ABAB) so drift
    // on the shared machine hits both alike.
    const pathOf = (withProfile: boolean) => `/searches/${sampleSearch}/people?limit=100&profile=${withProfile}`;
    const bodies: Record<string, string> = {};
    for (const withProfile of [false, true]) bodies[`/v1${pathOf(withProfile)}`] = await (await fetch(`${base}${pathOf(withProfile)}`, { headers })).text();
    const bare = await startBareKoa(infra.group, bodies);
    log(
      `\n  page bodies: ${Object.entries(bodies)
        .map(([p, b]) => `${p.split('?')[1]} ${(Buffer.byteLength(b) / 1024).toFixed(0)} KiB`)
        .join(', ')}`,
    );
    const statements = await statementTimes(db);
    const roundTrip = PARTS.has('people') ? await authenticationRoundTrip(infra, headers, sampleSearch) : null;
    for (const withProfile of PARTS.has('people') ? [false, true] : []) {
      log(`\n== GET /searches/{id}/people?limit=100&profile=${withProfile}, 20 clients: API vs bare Koa with the same bytes (2 × 8 s each, alternating) ==`);
      const url = { api: `${base}${pathOf(withProfile)}`, bare: `${bare.url}/v1${pathOf(withProfile)}` };
      await load(url.api, headers, 20, 3); // warm-up
      await load(url.bare, headers, 20, 2);
      const runs: Record<'api' | 'bare', Awaited<ReturnType<typeof load>>[]> = { api: [], bare: [] };
      // CPU per request by process, the mean of each side's two rounds.
      const cpuPerRequest: Record<'api' | 'bare', Record<string, number>> = { api: {}, bare: {} };
      await statements.reset();
      for (const which of ['api', 'bare', 'bare', 'api'] as const) {
        // Where each request's CPU goes: the API (or bare server), Postgres, the load generator.
        const meter = cpuMeter(which === 'api' ? { api: api.pid, postgres: infra.postgres?.pid } : { bare: bare.pid, postgres: infra.postgres?.pid });
        const r = await load(url[which], headers, 20, 8);
        for (const [name, ms] of Object.entries(meter.values(r.requests))) cpuPerRequest[which][name] = (cpuPerRequest[which][name] ?? 0) + ms / 2;
        runs[which].push(r);
        log(
          `  ${which.padEnd(4)} ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.requests} requests, ${r.errors} errors; CPU ms per request: ${meter.perUnit(r.requests)}`,
        );
      }
      log('  Postgres time by statement during these rounds (pg_stat_statements):');
      for (const line of await statements.top(4)) log(`    ${line}`);
      const rps = (which: 'api' | 'bare') => runs[which].reduce((sum, r) => sum + r.rps, 0) / runs[which].length;
      const p99 = Math.max(...runs.api.map((r) => r.p99));
      // What limits the ratio, from this run's CPU per request. The round trip alone: an API whose
      // own work cost what the bare server's does would still add authenticate_key's Postgres CPU to
      // every request, and the rounds are bound by the two cores.
      const own = cpuPerRequest.api.api ?? 0;
      const bareTotal = Object.values(cpuPerRequest.bare).reduce((a, b) => a + b, 0);
      const cap = roundTrip
        ? `, by itself ${roundTrip.authenticateMs.toFixed(3)} ms, which alone would cap the ratio at ${(bareTotal / (bareTotal + roundTrip.authenticateMs)).toFixed(2)}×`
        : '';
      report.figure({
        name: `people reads, profile=${withProfile}, 20 clients`,
        value: rps('api'),
        unit: 'req/s',
        anchor: { name: 'bare Koa, same bytes', value: rps('bare') },
        better: 'higher',
        goal: 0.5,
        limits:
          `the API's own CPU per request (${own.toFixed(2)} ms against the bare server's ${(cpuPerRequest.bare.bare ?? 0).toFixed(2)}: the middleware chain, the pg client, the request line) ` +
          `and one SQL round trip (authenticate_key: key, exact rate-limit counts, search version; ${(cpuPerRequest.api.postgres ?? 0).toFixed(2)} ms of Postgres CPU per request${cap}), ` +
          'on the two cores the clients and Postgres share',
      });
      report.target(`people reads, profile=${withProfile}: p99 < 100 ms (worst round)`, `${p99.toFixed(1)} ms`, p99 < 100);
    }

    if (PARTS.has('dev')) await devAgainstProduction({ infra, env, headers, report, peoplePath: pathOf });
    if (PARTS.has('tracing')) await tracingCost({ infra, env, headers, report, peoplePath: pathOf(false) });

    log(`\n  (the API process of the load tests above peaked at ${peakRssMb(api.pid!).toFixed(0)} MB RSS)`);
    if (PARTS.has('csv')) await csvExport({ db, infra, env, headers, workspaceId: workspace.id, report });
    report.print();
  } finally {
    await db.destroy();
    await infra.stop();
  }
}

/**
 * What the one SQL round trip of a people read costs Postgres by itself: `authenticate_key` (key,
 * exact rate-limit counts, search version) called as the API calls it (the repository's prepared
 * statement) on 20 connections for 4 s, beside a prepared statement that only returns its parameters (the cost of
 * any round trip), in Postgres CPU per call.
 */
async function authenticationRoundTrip(
  infra: { databaseUrl: string; postgres?: { pid?: number } | null },
  headers: Record<string, string>,
  searchId: string,
): Promise<{ authenticateMs: number }> {
  const pool = createDb(infra.databaseUrl, 20);
  const keyHash = hashApiKey(headers.Authorization.replace(/^Bearer /, ''));
  const perCall = async (call: () => Promise<unknown>) => {
    await Promise.all(Array.from({ length: 20 }, call)); // connect and prepare
    const meter = cpuMeter({ postgres: infra.postgres?.pid });
    const deadline = Date.now() + 4000;
    let calls = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (; Date.now() < deadline; calls++) await call();
      }),
    );
    return { ms: meter.values(calls).postgres, perSecond: calls / 4 };
  };
  try {
    log("\n== the people read's one round trip by itself: Postgres CPU per call, 20 connections, 4 s each ==");
    const authenticate = await perCall(() => rateLimitRepository(pool).authenticate(keyHash, { searchId }));
    const echo = await perCall(() => pool.raw('select ?::text, ?::timestamptz, ?::uuid', [keyHash, new Date(), searchId]).options({ name: 'bench_echo' }));
    log(`  authenticate_key: ${authenticate.perSecond.toFixed(0)} calls/s, ${authenticate.ms.toFixed(3)} ms of Postgres CPU per call`);
    log(`  a statement returning its three parameters: ${echo.perSecond.toFixed(0)} calls/s, ${echo.ms.toFixed(3)} ms per call`);
    return { authenticateMs: authenticate.ms };
  } finally {
    await pool.destroy();
  }
}

/** records.csv of a 100k-row search from a fresh API process beside COPY of the same query, and that process's peak RSS. */
async function csvExport(opts: {
  db: Db;
  infra: Awaited<ReturnType<typeof startBenchStack>>['infra'];
  env: NodeJS.ProcessEnv;
  headers: Record<string, string>;
  workspaceId: string;
  report: ReturnType<typeof anchorReport>;
}): Promise<void> {
  const { db, infra, env, headers, report } = opts;
  log("\n== records.csv of a 100k-row search (a fresh API process, so its peak RSS is the export's) vs COPY … TO STDOUT WITH CSV ==");
  const bulkProject = await projectRepository(db).create(opts.workspaceId, 'Bench export');
  const bulk = await bulkSearch(db, opts.workspaceId, bulkProject.id, 100_000);
  const exportPort = await freePort();
  const exportApi = infra.group.spawn('api-export', process.execPath, productionArgs('api/server'), {
    env: { ...env, PORT: String(exportPort) },
    cwd: ROOT,
    quiet: true,
  });
  const exportBase = `http://127.0.0.1:${exportPort}/v1`;
  await waitFor('export api', async () => (await fetch(`${exportBase}/health`)).ok, 60_000, 200);
  const rssBefore = peakRssMb(exportApi.pid!);
  // The anchor: Postgres's own CSV writer over the same query the export streams (RECORD_CSV_SQL),
  // read by a bare pg client in this process, alternating with the API.
  const copyCsv = async () => {
    const conn = await db.client.acquireConnection();
    try {
      return await drain(conn.query(copyTo(db.raw(`copy (${RECORD_CSV_SQL}) to stdout with (format csv)`, [bulk]).toQuery())));
    } finally {
      await db.client.releaseConnection(conn);
    }
  };
  // Read with plain node:http, as the people reads are: fetch's web streams cost the bench process
  // (which shares the two cores with the API and Postgres) more than the pg client of the anchor.
  const apiCsv = () =>
    new Promise<{ bytes: number; seconds: number }>((resolve, reject) => {
      const t = performance.now();
      http
        .get(`${exportBase}/searches/${bulk}/records.csv`, { headers }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve({ bytes, seconds: (performance.now() - t) / 1000 }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  // The fresh process's first export gives its peak RSS; it also compiles the export's code
  // paths, so it is shown but not timed against COPY (the anchor's code is warm in this process).
  const first = await apiCsv();
  const firstExportRss = peakRssMb(exportApi.pid!);
  log(
    `  api  first export of the fresh process: ${(100_000 / first.seconds).toFixed(0)} rows/s, peak RSS ${firstExportRss.toFixed(0)} MB (not timed against COPY)`,
  );
  const csvRuns: Record<'api' | 'copy', { bytes: number; seconds: number }[]> = { api: [], copy: [] };
  for (const which of ['api', 'copy', 'copy', 'api'] as const) {
    const r = which === 'api' ? await apiCsv() : await copyCsv();
    csvRuns[which].push(r);
    log(
      `  ${which.padEnd(4)} 100,000 rows, ${(r.bytes / 1e6).toFixed(0)} MB in ${r.seconds.toFixed(2)} s = ${(100_000 / r.seconds).toFixed(0)} rows/s${which === 'api' ? `; API peak RSS so far ${peakRssMb(exportApi.pid!).toFixed(0)} MB` : ''}`,
    );
  }
  const rowsPerSecond = (which: 'api' | 'copy') => (100_000 * csvRuns[which].length) / csvRuns[which].reduce((sum, r) => sum + r.seconds, 0);
  report.figure({
    name: 'records.csv, 100k rows',
    value: rowsPerSecond('api'),
    unit: 'rows/s',
    anchor: { name: 'COPY (the same query) TO STDOUT WITH CSV, read by a bare pg client', value: rowsPerSecond('copy') },
    better: 'higher',
    goal: 0.8,
    limits: 'the API process: LF to CRLF row ends (a native scan per quote and newline) and HTTP chunking, on the cores Postgres and the client share',
  });
  report.target(
    'records.csv: API peak RSS < 200 MB during one export (fresh process)',
    `${firstExportRss.toFixed(0)} MB (at start ${rssBefore.toFixed(0)} MB; ${peakRssMb(exportApi.pid!).toFixed(0)} MB after three exports)`,
    firstExportRss < 200,
    'garbage not yet collected: V8 lets the heap grow while memory is free',
  );
  // The kept database must not grow by 100k rows per run.
  await db('searches').where({ id: bulk }).delete();
}

/** The pass figures: the median through Temporal beside the in-process median, and Temporal's share. */
function reportPasses(report: ReturnType<typeof anchorReport>, passTimes: number[], inProcessTimes: number[]): void {
  const [temporalMedian, inProcessMedian] = [median(passTimes) / 1000, median(inProcessTimes) / 1000];
  log(`  through Temporal: median ${temporalMedian.toFixed(2)} s, max ${(Math.max(...passTimes) / 1000).toFixed(2)} s`);
  report.figure({
    name: 'pass launch → complete (HTTP launch, Temporal, 20 ms status polls), median',
    value: temporalMedian,
    unit: 's',
    anchor: { name: 'the same launch and activity code in a loop without Temporal', value: inProcessMedian },
    better: 'lower',
  });
  const share = 1 - inProcessMedian / temporalMedian;
  report.target(
    'pass median through Temporal < 1 s',
    `${temporalMedian.toFixed(2)} s`,
    temporalMedian < 1,
    'the pass work itself (see the in-process anchor) on a shared 2-core host',
  );
  report.target(
    "Temporal's share of a pass ≤ 25 % (1 − in-process / through Temporal)",
    `${(share * 100).toFixed(0)} %`,
    share <= 0.25,
    'the HTTP launch and its workflow start, the one workflow task in which the worker runs the pass as local activities (the SDK and our instrumentation around each step: CPU per pass above), and 20 ms status polls, on the two cores the pass itself uses',
  );
}

/**
 * `npm run dev` beside production on the same machine, and what request logging costs: fresh API
 * processes for production at its default log level (a line per request), production with request
 * lines off (LOG_LEVEL=warn), and the API exactly as `npm run dev` runs it (tools/dev/dev-env.ts: the
 * TypeScript source through tsx, NODE_ENV=development, the web app through Vite, every request
 * traced into Zipkin, here the bench's), and production traced the same way (as docker compose and
 * `npm run stack:prod` run it), each taking 20 clients for 8 s in ABCD DCBA order.
 */
async function devAgainstProduction(opts: {
  infra: Awaited<ReturnType<typeof startBenchStack>>['infra'];
  env: NodeJS.ProcessEnv;
  headers: Record<string, string>;
  report: ReturnType<typeof anchorReport>;
  peoplePath: (withProfile: boolean) => string;
}): Promise<void> {
  const { infra, env, headers, report } = opts;
  const dev = devProcessEnv({
    passthrough: { PATH: process.env.PATH, HOME: process.env.HOME },
    port: 0,
    databaseUrl: infra.databaseUrl,
    temporalAddress: infra.temporalAddress,
    namespace: 'default',
    secretsKey: env.SECRETS_KEY!,
    logLevel: 'info',
    zipkinSpansUrl: infra.zipkin?.spansUrl,
  });
  const variants = [
    { label: 'production (LOG_LEVEL=info, the default)', args: productionArgs('api/server'), env: { ...env, LOG_LEVEL: 'info' } },
    { label: 'production, request lines off (LOG_LEVEL=warn)', args: productionArgs('api/server'), env: { ...env, LOG_LEVEL: 'warn' } },
    { label: `npm run dev's API (tracing ${infra.zipkin ? 'on, every request' : 'off: no Zipkin'})`, args: devEntryArgs('api/server'), env: dev },
    // As docker compose and `npm run stack:prod` run it: every request traced, as under dev.
    {
      label: `production traced like compose (${infra.zipkin ? 'every request' : 'off: no Zipkin'})`,
      args: productionArgs('api/server'),
      env: { ...env, LOG_LEVEL: 'info', ...(infra.zipkin ? { TRACING: 'on', TRACING_SAMPLE_RATIO: '1', TRACING_ZIPKIN_URL: infra.zipkin.spansUrl } : {}) },
    },
  ];
  const apis = [];
  for (const [i, variant] of variants.entries()) {
    const port = await freePort();
    const child = infra.group.spawn(`api-variant-${i}`, process.execPath, variant.args, {
      env: { ...variant.env, PORT: String(port) },
      cwd: ROOT,
      quiet: true,
    });
    apis.push({
      ...variant,
      base: `http://127.0.0.1:${port}`,
      pid: child.pid!,
      rounds: new Map<boolean, { rps: number[]; cpuMs: number; requests: number }>(),
    });
  }
  for (const api of apis) await waitFor(api.label, async () => (await fetch(`${api.base}/readyz`).catch(() => null))?.ok ?? false, 120_000, 200);
  for (const withProfile of [false, true]) {
    log(
      `\n== npm run dev beside production: GET ${opts.peoplePath(withProfile).replace(/searches\/[^/]+/, 'searches/{id}')}, 20 clients, fresh APIs, 8 s rounds in ABCD DCBA order ==`,
    );
    for (const api of apis) await load(`${api.base}/v1${opts.peoplePath(withProfile)}`, headers, 20, 3); // warm-up: cache, pool, JIT
    for (const api of [...apis, ...[...apis].reverse()]) {
      const meter = cpuMeter({ postgres: infra.postgres?.pid, zipkin: infra.zipkin?.pid });
      const before = cpuMs(api.pid);
      const r = await load(`${api.base}/v1${opts.peoplePath(withProfile)}`, headers, 20, 8);
      const round = api.rounds.get(withProfile) ?? { rps: [], cpuMs: 0, requests: 0 };
      round.rps.push(r.rps);
      round.cpuMs += cpuMs(api.pid) - before;
      round.requests += r.requests;
      api.rounds.set(withProfile, round);
      log(
        `  ${api.label.padEnd(48)} ${r.rps.toFixed(0)} req/s, p99 ${r.p99.toFixed(1)} ms; CPU ms per request: api ${((cpuMs(api.pid) - before) / r.requests).toFixed(3)}, ${meter.perUnit(r.requests)}`,
      );
    }
    const [info, warn, devApi, traced] = apis.map((a) => {
      const round = a.rounds.get(withProfile)!;
      return { rps: round.rps.reduce((x, y) => x + y, 0) / round.rps.length, cpu: round.cpuMs / round.requests };
    });
    report.note(
      `profile=${withProfile}: request logging costs ${(info.cpu - warn.cpu).toFixed(3)} ms of API CPU per request (${info.cpu.toFixed(3)} with a line per request, ${warn.cpu.toFixed(3)} without; ${info.rps.toFixed(0)} vs ${warn.rps.toFixed(0)} req/s)`,
    );
    report.figure({
      name: `npm run dev's API, people reads, profile=${withProfile}`,
      value: devApi.rps,
      unit: 'req/s',
      anchor: { name: 'production at its defaults (fresh APIs of the same run)', value: info.rps },
      better: 'higher',
      goal: 1 / 1.5,
      limits: `tracing every request into Zipkin, which npm run dev turns on and production's default does not (API CPU per request ${devApi.cpu.toFixed(3)} ms vs ${info.cpu.toFixed(3)} ms; beside production traced the same way below; TRACING_SAMPLE_RATIO or TRACING=off set it for dev)`,
    });
    report.figure({
      name: `npm run dev's API, people reads, profile=${withProfile}, both tracing every request`,
      value: devApi.rps,
      unit: 'req/s',
      anchor: { name: 'production traced as docker compose and stack:prod run it (same rounds)', value: traced.rps },
      better: 'higher',
    });
  }
}

/**
 * What tracing costs a people read: one fresh production API per setting (a process that served
 * nothing else, so the settings differ in tracing alone), each taking 20 clients for 8 s in
 * ABC CBA order so drift on the shared host hits all alike. Each request is a server span and
 * two SQL spans, exported to the bench's Zipkin (whose CPU per request is printed too).
 */
async function tracingCost(opts: {
  infra: Awaited<ReturnType<typeof startBenchStack>>['infra'];
  env: NodeJS.ProcessEnv;
  headers: Record<string, string>;
  report: ReturnType<typeof anchorReport>;
  peoplePath: string;
}): Promise<void> {
  const { infra, headers, report } = opts;
  const settings = tracingSettings(infra.zipkin);
  if (!settings.length) return report.note(TRACING_NOT_MEASURED);
  log(
    `\n== tracing cost: GET ${opts.peoplePath.replace(/searches\/[^/]+/, 'searches/{id}')}, 20 clients, a fresh API per setting, 8 s rounds in ABC CBA order ==`,
  );
  const apis = [];
  for (const setting of settings) {
    const port = await freePort();
    const child = infra.group.spawn(`api-${setting.label}`, process.execPath, productionArgs('api/server'), {
      env: { ...opts.env, PORT: String(port), ...setting.env },
      cwd: ROOT,
      quiet: true,
    });
    apis.push({ ...setting, base: `http://127.0.0.1:${port}`, pid: child.pid!, requests: 0, cpuMs: 0, rps: [] as number[], p99: [] as number[] });
  }
  for (const api of apis) {
    await waitFor(`${api.label} API`, async () => (await fetch(`${api.base}/readyz`).catch(() => null))?.ok ?? false, 60_000, 200);
    await load(`${api.base}/v1${opts.peoplePath}`, headers, 20, 3); // warm-up: its cache, its pool, the JIT
  }
  for (const api of [...apis, ...[...apis].reverse()]) {
    const meter = cpuMeter({ postgres: opts.infra.postgres?.pid, zipkin: opts.infra.zipkin?.pid });
    const before = cpuMs(api.pid);
    const r = await load(`${api.base}/v1${opts.peoplePath}`, headers, 20, 8);
    api.cpuMs += cpuMs(api.pid) - before;
    api.requests += r.requests;
    api.rps.push(r.rps);
    api.p99.push(r.p99);
    log(
      `  ${api.label.padEnd(12)} ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors; CPU ms per request: api ${((cpuMs(api.pid) - before) / r.requests).toFixed(2)}, ${meter.perUnit(r.requests)}`,
    );
  }
  const off = apis.find((a) => a.env.TRACING === 'off');
  const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
  for (const api of apis) {
    const line = `${api.label}: ${mean(api.rps).toFixed(0)} req/s, worst p99 ${Math.max(...api.p99).toFixed(1)} ms, API CPU ${(api.cpuMs / api.requests).toFixed(3)} ms per request`;
    log(`  ${line}`);
    report.note(`people reads, profile=false, ${line}`);
    if (off && api !== off)
      report.figure({
        name: `people reads, profile=false, 20 clients, ${api.label}`,
        value: mean(api.rps),
        unit: 'req/s',
        anchor: { name: 'tracing off (a fresh API of the same run)', value: mean(off.rps) },
        better: 'higher',
      });
  }
}

runBench(main);
