import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createDb } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { startEmbeddedPostgres, type PostgresHandle } from './embedded-postgres';
import { startLoadBalancer, type LoadBalancer } from './load-balancer';
import { freePort, isAlive, ProcessGroup, waitFor } from './processes';
import { startZipkin, type ZipkinHandle } from './zipkin-server';
import {
  freeTemporalPorts,
  registerNamespace,
  setupTemporalSchema,
  spawnTemporalServer,
  waitForTemporal,
  type TemporalPostgres,
  type TemporalServerProcess,
} from './temporal-cluster';

/**
 * The production-like stack on this machine (`npm run stack:prod`, `npm run chaos`,
 * test/integration/prod-stack.test.ts): embedded PostgreSQL holding our database and Temporal's
 * two, the Temporal server built from go.temporal.io/server on it, N API processes behind a
 * round-robin load balancer and N workers, all from the compiled entry points in dist/ (as
 * `npm run start:api` / `start:worker` run them). Every component can be killed with SIGKILL and
 * started again, which is what the fault runs do.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const PG = { user: 'postgres', password: 'postgres' };
const APP_DATABASE = 'sourcing';

export interface ProdStackOptions {
  /** Holds the PostgreSQL cluster (`pg/`); removed on stop unless `persistent`. */
  dataDir: string;
  persistent: boolean;
  /** Directory with the Temporal `server` and `sql` binaries. */
  temporalServerDir: string;
  temporalCli: string;
  namespace?: string;
  apis?: number;
  workers?: number;
  /** The load balancer's port; 0 or unset: a free one. */
  port?: number;
  /** The API and worker processes' environment on top of the stack's (e.g. WEBHOOK_ALLOWED_PRIVATE_CIDRS). */
  env?: NodeJS.ProcessEnv;
  secretsKey: string;
  /** Compile dist/ first (`npm run build`); default true. */
  build?: boolean;
  log: (msg: string) => void;
  /** Print every process's output lines. */
  verbose?: boolean;
  /** Trace the APIs and workers into a Zipkin started with these (Java and jar from the bootstrap). */
  zipkin?: { java: string; jar: string; port?: number };
}

export type ComponentKind = 'postgres' | 'temporal' | 'api' | 'worker';

/** One process of the stack that can be killed and started again. */
export interface Component {
  name: string;
  kind: ComponentKind;
  pid(): number | undefined;
  running(): boolean;
  /** SIGKILL (with a Postgres server's backends), resolved once every process of it is gone. */
  kill(): Promise<void>;
  /** Starts it again; resolves once it serves (API: /readyz 200, worker: /readyz 200, Temporal: namespace answers). */
  start(): Promise<void>;
}

export interface ProdStack {
  /** The load balancer: `${url}/v1` is the key API. */
  url: string;
  apiUrls: string[];
  databaseUrl: string;
  temporalAddress: string;
  namespace: string;
  lb: LoadBalancer;
  /** The stack's Zipkin (UI and span intake), when it was asked for. */
  zipkin: ZipkinHandle | null;
  components: Component[];
  component(name: string): Component;
  stop(): Promise<void>;
}

/** `npm run build`: the compiled production entry points. */
export function buildDist(log: (msg: string) => void): void {
  log('building dist/ (npm run build)…');
  const result = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`npm run build failed with exit code ${result.status}`);
}

/** Pids of the live direct children of `pid` (a Postgres server's backends and auxiliary processes). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/** A Node process of the stack (API or worker): spawned from dist/, output kept for failure reports. */
class NodeService implements Component {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private tail: string[] = [];
  private stopping = false;

  constructor(
    readonly name: string,
    readonly kind: 'api' | 'worker',
    private readonly entry: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly readyUrl: string,
    private readonly log: (msg: string) => void,
    private readonly verbose: boolean,
  ) {}

  pid() {
    return this.child?.pid;
  }

  running() {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', this.entry)], { cwd: ROOT, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        this.tail = [...this.tail.slice(-30), line];
        if (this.verbose) this.log(`[${this.name}] ${line}`);
      });
    }
    child.once('exit', (code, signal) => {
      if (!this.stopping && signal !== 'SIGKILL') this.log(`${this.name} exited (${signal ?? `code ${code}`}): ${this.tail.slice(-5).join(' | ')}`);
    });
    await waitFor(
      `${this.name} ready`,
      async () => {
        if (child.exitCode !== null) throw new Error(`${this.name} exited with code ${child.exitCode}: ${this.tail.slice(-10).join('\n')}`);
        const res = await fetch(this.readyUrl, { signal: AbortSignal.timeout(2000) });
        return res.ok;
      },
      120_000,
      200,
    );
  }

  async kill(): Promise<void> {
    if (!this.running()) return;
    this.child!.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (!this.running()) return;
    this.child!.kill('SIGTERM');
    const killer = setTimeout(() => this.child?.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(killer);
  }
}

export async function startProdStack(opts: ProdStackOptions): Promise<ProdStack> {
  const log = opts.log;
  const namespace = opts.namespace ?? 'default';
  const apiCount = opts.apis ?? 2;
  const workerCount = opts.workers ?? 2;
  if (opts.build !== false) buildDist(log);
  fs.mkdirSync(opts.dataDir, { recursive: true });

  const [pgPort, lbPort, temporalPorts, apiPorts, workerPorts] = await Promise.all([
    freePort(),
    opts.port ? Promise.resolve(opts.port) : freePort(),
    freeTemporalPorts(),
    Promise.all(Array.from({ length: apiCount }, () => freePort())),
    Promise.all(Array.from({ length: workerCount }, () => freePort())),
  ]);
  const pgOptions = { dataDir: path.join(opts.dataDir, 'pg'), port: pgPort, database: APP_DATABASE, persistent: true };
  const pgConn: TemporalPostgres = { host: '127.0.0.1', port: pgPort, ...PG };
  const temporalAddress = `127.0.0.1:${temporalPorts.frontend}`;
  const cluster = { serverDir: opts.temporalServerDir, cli: opts.temporalCli, postgres: pgConn, namespace, log, verbose: opts.verbose };

  let postgres: PostgresHandle | null = null;
  let temporal: TemporalServerProcess | null = null;
  const nodeServices: NodeService[] = [];
  let lb: LoadBalancer | null = null;
  // Zipkin is no component of the fault runs: nothing kills it, and its exit only gets logged.
  const zipkinGroup = new ProcessGroup((name, code) => log(`${name} exited unexpectedly (code ${code}); traces are no longer collected`));

  const stop = async () => {
    await lb?.close();
    for (const service of [...nodeServices].reverse()) await service.stop();
    await zipkinGroup.stopAll();
    const temporalChild = temporal?.child;
    if (temporalChild && temporalChild.exitCode === null && temporalChild.signalCode === null) {
      const exited = new Promise((r) => temporalChild.once('exit', r));
      temporalChild.kill('SIGTERM');
      const killer = setTimeout(() => temporalChild.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    await postgres?.stop();
    if (!opts.persistent) fs.rmSync(opts.dataDir, { recursive: true, force: true });
  };

  const postgresComponent: Component = {
    name: 'postgres',
    kind: 'postgres',
    pid: () => postgres?.pid,
    running: () => !!postgres?.pid && isAlive(postgres.pid),
    async kill() {
      const pid = postgres?.pid;
      if (!pid || !isAlive(pid)) return;
      // The whole server at once, as a crash of its host would: postmaster and every backend.
      const children = childrenOf(pid);
      process.kill(pid, 'SIGKILL');
      for (const child of children) if (isAlive(child)) process.kill(child, 'SIGKILL');
      await waitFor('PostgreSQL processes to exit', async () => !isAlive(pid) && children.every((c) => !isAlive(c)), 15_000, 50);
    },
    async start() {
      postgres = await startEmbeddedPostgres({ ...pgOptions, log: opts.verbose ? (l) => log(`[postgres] ${l}`) : undefined });
    },
  };

  const temporalComponent: Component = {
    name: 'temporal',
    kind: 'temporal',
    pid: () => temporal?.child.pid,
    running: () => !!temporal && temporal.child.exitCode === null && temporal.child.signalCode === null,
    async kill() {
      if (!temporalComponent.running()) return;
      const exited = new Promise((r) => temporal!.child.once('exit', r));
      temporal!.child.kill('SIGKILL');
      await exited;
    },
    async start() {
      temporal = spawnTemporalServer(cluster, temporalPorts);
      await waitForTemporal(temporalAddress, namespace, temporal);
    },
  };

  try {
    const started = Date.now();
    const zipkinStart = opts.zipkin
      ? startZipkin(zipkinGroup, { ...opts.zipkin, port: opts.zipkin.port ?? (await freePort()), quiet: !opts.verbose })
      : Promise.resolve(null);
    zipkinStart.catch(() => undefined); // awaited below, after PostgreSQL and Temporal, with which it starts in parallel
    await postgresComponent.start();
    log(`PostgreSQL on 127.0.0.1:${pgPort} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    const databaseUrl = postgres!.url;
    const db = createDb(databaseUrl, 2);
    try {
      await Promise.all([migrateLatest(db), setupTemporalSchema(cluster)]);
    } finally {
      await db.destroy();
    }
    log('schemas ready (ours by the knex migrations, Temporal’s by its SQL tool)');

    temporal = spawnTemporalServer(cluster, temporalPorts);
    await waitForTemporal(temporalAddress, 'temporal-system', temporal);
    await registerNamespace(cluster, temporalAddress);
    await waitForTemporal(temporalAddress, namespace, temporal);
    log(`Temporal server on ${temporalAddress} (PostgreSQL persistence and visibility; ${((Date.now() - started) / 1000).toFixed(1)} s)`);

    const zipkin = await zipkinStart;
    if (zipkin) log(`Zipkin on ${zipkin.url}`);
    const lbUrl = `http://127.0.0.1:${lbPort}`;
    const common: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: namespace,
      SECRETS_KEY: opts.secretsKey,
      PUBLIC_BASE_URL: `${lbUrl}/v1`,
      API_URL: lbUrl,
      APP_URL: lbUrl,
      // Every request reaches the APIs through the load balancer, which sets X-Forwarded-For.
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      ...(zipkin ? { TRACING: 'on', TRACING_ZIPKIN_URL: zipkin.spansUrl } : {}),
      ...opts.env,
    };
    const apiUrls = apiPorts.map((p) => `http://127.0.0.1:${p}`);
    apiPorts.forEach((port, i) =>
      nodeServices.push(
        new NodeService(`api-${i + 1}`, 'api', 'api/server.js', { ...common, PORT: String(port) }, `${apiUrls[i]}/readyz`, log, !!opts.verbose),
      ),
    );
    workerPorts.forEach((port, i) =>
      nodeServices.push(
        new NodeService(
          `worker-${i + 1}`,
          'worker',
          'activities/worker.js',
          { ...common, WORKER_METRICS_PORT: String(port) },
          `http://127.0.0.1:${port}/readyz`,
          log,
          !!opts.verbose,
        ),
      ),
    );
    await Promise.all(nodeServices.map((s) => s.start()));
    lb = await startLoadBalancer({ port: lbPort, upstreams: () => apiUrls });
    log(`${apiCount} API processes behind ${lbUrl}, ${workerCount} workers (${((Date.now() - started) / 1000).toFixed(1)} s)`);

    const components: Component[] = [postgresComponent, temporalComponent, ...nodeServices];
    return {
      url: lbUrl,
      apiUrls,
      databaseUrl,
      temporalAddress,
      namespace,
      lb,
      zipkin,
      components,
      component(name) {
        const found = components.find((c) => c.name === name);
        if (!found) throw new Error(`no component ${name}`);
        return found;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The stack's SECRETS_KEY, generated once per data directory. */
export function stackSecretsKey(dataDir: string): string {
  const file = path.join(dataDir, 'secrets.key');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}
