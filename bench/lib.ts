import { apiKeyRepository } from '../src/db/api-key.repository';
import type { Db } from '../src/db/knex';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { loadStackSettings } from '../src/config';
import { freePort, waitFor, type ProcessGroup } from '../tools/dev/processes';
import { startInfrastructure } from '../tools/dev/stack';

/** What the benchmarks share: output, percentiles, memory readings and production processes. */

/** An all-scopes key without a practical rate limit for a bench workspace: its request headers. */
export async function benchKeyHeaders(db: Db, workspaceId: string): Promise<Record<string, string>> {
  const { raw } = await apiKeyRepository(db).issue({
    workspaceId,
    name: 'bench',
    scopes: ['*'],
    fundingMode: 'workspace',
    environment: 'test',
    rateLimitPerMinute: 10_000_000,
    expiresAt: null,
  });
  return { Authorization: `Bearer ${raw}`, 'Content-Type': 'application/json' };
}

export const ROOT = path.resolve(__dirname, '..');

/**
 * fetch, once more when the connection failed before an answer: the API closes an idle kept-alive
 * socket after 5 s (api-server.ts), and a bench that was busy in process (the titles set) can send
 * on the socket as it closes ("fetch failed"). A launch carries an Idempotency-Key, so a second try
 * never launches twice; a project created twice is harmless here.
 */
export async function fetchRetryingClosedSocket(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    await new Promise((r) => setTimeout(r, 100));
    return fetch(url, init);
  }
}
export const log = (msg: string) => process.stdout.write(`${msg}\n`);

/** The p-th percentile of an ascending list. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Peak resident set (VmHWM) of a process, in MB. */
export function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

let built = false;

/**
 * Arguments that run an entry point as production does (`npm run start:api` / `start:worker`):
 * compiled JavaScript from dist/, built once per benchmark run, so figures (RSS above all) are
 * not those of the TypeScript loader.
 */
export function productionArgs(entry: 'api/server' | 'activities/worker'): string[] {
  if (!built) {
    log('building dist/ (npm run build)…');
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    // The files `npm run build` copies beside the compiled code (tsc copies only the JSON it imports):
    // SQL, and reference data read at run time (the gazetteer's TSV files, the O*NET vocabulary).
    for (const dir of ['src/db/sql', 'src/reference/data']) fs.cpSync(path.join(ROOT, dir), path.join(ROOT, 'dist', dir), { recursive: true });
    built = true;
  }
  // BENCH_CPU_PROF=<dir>: each API and worker process writes a V8 CPU profile there when it exits (`node --cpu-prof`).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  return [...profile, path.join(ROOT, 'dist', `${entry}.js`)];
}

/**
 * Postgres and a Temporal dev server on free private ports for one benchmark, plus a free API port;
 * with `zipkin`, also Zipkin (when the bootstrap found Java and its jar) for the tracing comparisons.
 */
export async function startBenchStack(opts: { dataDir: string; persistent: boolean; zipkin?: boolean }) {
  const settings = loadStackSettings();
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const [pgPort, tPort, httpPort, metricsPort, apiPort, zipkinPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const zipkin = opts.zipkin && settings.tracing.zipkin ? { ...settings.tracing.zipkin, port: zipkinPort } : undefined;
  if (opts.zipkin && !zipkin) log('no Zipkin (it needs Java 17+; see the [bootstrap] lines): the tracing comparison is skipped');
  const infra = await startInfrastructure({
    temporalCli: settings.temporalCli,
    namespace: 'default',
    postgres: {
      dataDir: path.join(opts.dataDir, 'pg'),
      port: pgPort,
      database: 'bench',
      persistent: opts.persistent,
      fast: true,
      // Per-statement timings for the benchmarks' "where the time goes" (statementTimes below), and
      // buffers for the 1M-person corpus (its people heap alone is 0.9 GB; the 128 MB default
      // copies every page a search visits in from the OS cache), as a production server is sized.
      settings: { shared_preload_libraries: 'pg_stat_statements', shared_buffers: '2GB' },
    },
    temporal: { port: tPort, uiPort: null, httpPort, metricsPort, dbFile: null },
    zipkin,
    quiet: true,
    log,
  });
  return { infra, apiPort };
}

/** The summary line when `tracingSettings` gives nothing to compare. */
export const TRACING_NOT_MEASURED = 'tracing cost: not measured (BENCH_TRACING is empty, or there is no Zipkin: it needs Java 17+)';

/**
 * The settings the tracing comparisons run (`BENCH_TRACING`, default `off,1,0.1`): tracing off,
 * and on at each sample ratio, exporting to the bench's Zipkin. Empty without a Zipkin.
 */
export function tracingSettings(zipkin: { spansUrl: string } | null): { label: string; env: NodeJS.ProcessEnv }[] {
  if (!zipkin) return [];
  return (process.env.BENCH_TRACING ?? 'off,1,0.1')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((setting) =>
      setting === 'off'
        ? { label: 'tracing off', env: { TRACING: 'off' } }
        : { label: `tracing ${Number(setting).toFixed(1)}`, env: { TRACING: 'on', TRACING_SAMPLE_RATIO: setting, TRACING_ZIPKIN_URL: zipkin.spansUrl } },
    );
}

/** The environment of the benchmark's API and worker: production mode against the private stack. */
export function productionEnv(
  stack: { infra: { databaseUrl: string; temporalAddress: string }; apiPort: number },
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(stack.apiPort),
    DATABASE_URL: stack.infra.databaseUrl,
    TEMPORAL_ADDRESS: stack.infra.temporalAddress,
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: 'warn',
    // A private stack: the worker's metrics on a free port, not the default 9464 another stack may hold.
    WORKER_METRICS_PORT: '0',
    ...extra,
  };
}

/** CPU time (user + system, ms) a process has used, including reaped children (Postgres backends). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime, stime, cutime, cstime: fields 14-17 of proc(5), in clock ticks (100 per second).
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
}

/** CPU time of a process and all its live descendants (Postgres forks a backend per connection). */
export function treeCpuMs(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited while we looked
    }
  }
  let total = 0;
  const visit = (pid: number) => {
    try {
      total += cpuMs(pid);
    } catch {
      return;
    }
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return total;
}

/** CPU used per named process between two readings: where a benchmark's cores went. */
export function cpuMeter(processes: Record<string, number | undefined>) {
  const read = () => {
    const self = process.cpuUsage();
    const out: Record<string, number> = { bench: (self.user + self.system) / 1000 };
    for (const [name, pid] of Object.entries(processes)) if (pid) out[name] = treeCpuMs(pid);
    return out;
  };
  const start = read();
  /** CPU ms per unit of work for each process since the meter started. */
  const values = (units: number): Record<string, number> => {
    const now = read();
    return Object.fromEntries(Object.keys(now).map((name) => [name, (now[name] - start[name]) / units]));
  };
  return {
    values,
    perUnit(units: number): string {
      return Object.entries(values(units))
        .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
        .join(', ');
    },
  };
}

/** CPU per named process summed over chosen intervals only (`start(count)` … `stop()`), per unit of work. */
export function cpuTally(processes: Record<string, number | undefined>) {
  const names = Object.keys(processes).filter((n) => processes[n]);
  const total = Object.fromEntries(names.map((n) => [n, 0]));
  return {
    start(count = true) {
      const before = Object.fromEntries(names.map((n) => [n, treeCpuMs(processes[n]!)]));
      return {
        stop() {
          if (count) for (const n of names) total[n] += treeCpuMs(processes[n]!) - before[n];
        },
      };
    },
    perUnit: (units: number) => names.map((n) => `${n} ${(total[n] / units).toFixed(1)}`).join(', '),
  };
}

/**
 * `clients` keep-alive GET clients of `url` for `seconds`; plain node:http (lighter than fetch), since the load
 * generator shares the machine's two cores with the API and Postgres it measures.
 */
export async function load(url: string, headers: Record<string, string>, clients: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(url, { headers, agent }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < deadline) {
        const t = performance.now();
        const status = await get();
        latencies.push(performance.now() - t);
        if (status !== 200) errors++;
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, requests: latencies.length };
}

// ---------------------------------------------------------------------------------------------
// Anchors: absolute figures swing two to three times between runs on a shared machine, so each
// figure is printed beside an anchor measured in the same run (the same work done the plainest
// way: a bare server, COPY, a loop without Temporal) and judged by the ratio.
// ---------------------------------------------------------------------------------------------

/** A figure and its anchor from the same run. */
export interface AnchoredFigure {
  /** What was measured, e.g. `people reads, profile=false`. */
  name: string;
  value: number;
  /** e.g. `req/s`, `rows/s`, `s`. */
  unit: string;
  anchor: { name: string; value: number };
  /** `higher` (throughputs): ratio = value / anchor. `lower` (durations): ratio = anchor / value. */
  better: 'higher' | 'lower';
  /** The least ratio that meets the goal; none: the ratio is reported only. */
  goal?: number;
  /** What limits the figure: printed when the goal is not met. */
  limits?: string;
}

const num = (v: number) => v.toLocaleString('en', { maximumFractionDigits: v >= 100 ? 0 : v >= 10 ? 1 : 2 });

/** `0.42× (goal ≥ 0.5×: NOT met — limited by …)`. */
export function formatAnchored(f: AnchoredFigure): { line: string; ratio: number; met: boolean | null } {
  const ratio = f.better === 'higher' ? f.value / f.anchor.value : f.anchor.value / f.value;
  const met = f.goal === undefined ? null : ratio >= f.goal;
  const goal = f.goal === undefined ? '' : Number(f.goal.toFixed(2));
  const verdict = met === null ? '' : met ? ` (goal ≥ ${goal}×: met)` : ` (goal ≥ ${goal}×: NOT met${f.limits ? `; limited by ${f.limits}` : ''})`;
  const line = `${f.name}: ${num(f.value)} ${f.unit} vs ${f.anchor.name} ${num(f.anchor.value)} ${f.unit} → ratio ${ratio.toFixed(2)}×${verdict}`;
  return { line, ratio, met };
}

/**
 * Collects a benchmark's anchored figures and absolute targets, printing each as it comes and all
 * of them again at the end, so the summary of a long run is in one place:
 *   const report = anchorReport('searches');
 *   report.figure({ name, value, unit, anchor: { name, value }, better: 'higher', goal: 0.5 });
 *   report.target('p99 with profiles', `${p99} ms`, p99 < 100, 'what limits it');
 *   report.print();
 */
export function anchorReport(title: string) {
  const summary: string[] = [];
  return {
    figure(f: AnchoredFigure): number {
      const { line, ratio } = formatAnchored(f);
      log(`  ${line}`);
      summary.push(line);
      return ratio;
    },
    target(name: string, measured: string, met: boolean, limits?: string): void {
      const line = `${name}: ${measured} → ${met ? 'met' : `NOT met${limits ? `; limited by ${limits}` : ''}`}`;
      log(`  ${line}`);
      summary.push(line);
    },
    note(line: string): void {
      summary.push(line);
    },
    print(): void {
      log(`\n== ${title}: each figure beside its anchor from this run (load average ${loadAverage()}) ==`);
      for (const line of summary) log(`  - ${line}`);
    },
  };
}

/** The 1-minute load average: how busy the shared machine was (the anchors absorb most of it). */
export const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

/** Median of a list. */
export const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/**
 * The anchor of an HTTP read: a bare Koa server (no middleware, no database) in its own process,
 * answering each path with fixed bytes held in memory, as JSON. `bodies` maps path+query to body.
 */
export async function startBareKoa(group: ProcessGroup, bodies: Record<string, string>): Promise<{ url: string; pid: number }> {
  const port = await freePort();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bare-koa-')), 'bodies.json');
  fs.writeFileSync(file, JSON.stringify(bodies));
  const code = `
    const Koa = require('koa');
    const bodies = new Map(Object.entries(JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'))));
    const app = new Koa();
    app.use((ctx) => { const body = bodies.get(ctx.url); if (body === undefined) { ctx.status = 404; return; } ctx.type = 'application/json; charset=utf-8'; ctx.body = body; });
    const server = require('node:http').createServer(app.callback());
    server.keepAliveTimeout = 5000;
    server.listen(${port}, '127.0.0.1');`;
  const child = group.spawn('bare-koa', process.execPath, ['-e', code], { cwd: ROOT, quiet: true });
  const url = `http://127.0.0.1:${port}`;
  await waitFor('bare koa', async () => (await fetch(url).catch(() => null)) !== null, 30_000, 100);
  return { url, pid: child.pid! };
}

/**
 * Postgres's own per-statement timings (pg_stat_statements) since `reset()`: `top(n)` lists the
 * statements that took the most time, with calls and mean time, for "where the time goes".
 */
export async function statementTimes(db: Db) {
  await db.raw('create extension if not exists pg_stat_statements');
  return {
    reset: async () => void (await db.raw('select pg_stat_statements_reset()')),
    async top(n: number): Promise<string[]> {
      const { rows } = await db.raw(
        `select calls, total_exec_time, mean_exec_time, regexp_replace(query, '\\s+', ' ', 'g') as query
           from pg_stat_statements where query not like '%pg_stat_statements%' order by total_exec_time desc limit ?`,
        [n],
      );
      return (rows as { calls: number; total_exec_time: number; mean_exec_time: number; query: string }[]).map(
        (r) =>
          `${r.total_exec_time.toFixed(0).padStart(7)} ms total, ${String(r.calls).padStart(7)} calls, ${r.mean_exec_time.toFixed(3)} ms mean: ${r.query.slice(0, 110)}`,
      );
    },
  };
}

/** Runs a bench's main and exits with its code (0 when it returns nothing), printing a failure's stack. */
export function runBench(main: () => Promise<number | void>, name = 'bench'): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (err) => {
      process.stderr.write(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
