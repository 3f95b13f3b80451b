import { apiKeyRepository } from '../src/db/api-key.repository';
import type { Db } from '../src/db/knex';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { loadStackSettings } from '../src/config';
import { freePort } from '../src/dev/processes';
import { startInfrastructure } from '../src/dev/stack';

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
    built = true;
  }
  return [path.join(ROOT, 'dist', `${entry}.js`)];
}

/** Postgres and a Temporal dev server on free private ports for one benchmark, plus a free API port. */
export async function startBenchStack(opts: { dataDir: string; persistent: boolean }) {
  const settings = loadStackSettings();
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const [pgPort, tPort, httpPort, metricsPort, apiPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const infra = await startInfrastructure({
    temporalCli: settings.temporalCli,
    namespace: 'default',
    postgres: { dataDir: path.join(opts.dataDir, 'pg'), port: pgPort, database: 'bench', persistent: opts.persistent, fast: true },
    temporal: { port: tPort, uiPort: null, httpPort, metricsPort, dbFile: null },
    quiet: true,
    log,
  });
  return { infra, apiPort };
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
  return {
    /** CPU ms per unit of work for each process since the meter started. */
    perUnit(units: number): string {
      const now = read();
      return Object.keys(now)
        .map((name) => `${name} ${((now[name] - start[name]) / units).toFixed(1)}`)
        .join(', ');
    },
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
