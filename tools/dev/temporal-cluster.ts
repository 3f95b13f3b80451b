import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import pg from 'pg';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes';
import { freePort, waitFor } from './processes';

/**
 * The Temporal server as production runs it: the `server` binary of go.temporal.io/server (built
 * into the cache by scripts/lib/bootstrap.mjs) on PostgreSQL, configured by
 * deploy/temporal/production.yaml (a template filled from the environment, shared with
 * docker-compose.yml). Its databases are created and migrated by the module's SQL tool (`sql`),
 * then the namespace and our search attributes are registered with the CLI.
 */

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
const CONFIG_DIR = path.join(ROOT, 'deploy', 'temporal');

export interface TemporalPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
}

export interface TemporalClusterOptions {
  /** Directory holding the `server` and `sql` binaries (TEMPORAL_SERVER_DIR from the bootstrap). */
  serverDir: string;
  /** The Temporal CLI, for the namespace and search attributes. */
  cli: string;
  postgres: TemporalPostgres;
  namespace: string;
  log: (msg: string) => void;
  /** Print the server's own log lines (warnings and errors). */
  verbose?: boolean;
}

export const TEMPORAL_DATABASES = { default: 'temporal', visibility: 'temporal_visibility' } as const;

/** Embedded schema names inside the `sql` binary (the module's schema/postgresql/v12/…/versioned). */
const SCHEMAS = { default: 'postgresql/v12/temporal', visibility: 'postgresql/v12/visibility' } as const;

/** Creates Temporal's two databases when missing and brings both schemas to the binary's version. */
export async function setupTemporalSchema(opts: Pick<TemporalClusterOptions, 'serverDir' | 'postgres' | 'log'>): Promise<void> {
  const tool = path.join(opts.serverDir, 'sql');
  const { host, port, user, password } = opts.postgres;
  const admin = new pg.Client({ host, port, user, password, database: 'postgres' });
  await admin.connect();
  try {
    for (const kind of ['default', 'visibility'] as const) {
      const database = TEMPORAL_DATABASES[kind];
      const common = ['--plugin', 'postgres12', '--ep', host, '-p', String(port), '-u', user, '--pw', password, '--db', database];
      const exists = (await admin.query('select 1 from pg_database where datname = $1', [database])).rowCount! > 0;
      if (!exists) {
        await run(tool, [...common, 'create-database']);
        // Only the versioning tables; update-schema then applies every versioned step.
        await run(tool, [...common, 'setup-schema', '-v', '0.0']);
        opts.log(`created database ${database}`);
      }
      await run(tool, [...common, 'update-schema', '--schema-name', SCHEMAS[kind]]);
    }
  } finally {
    await admin.end();
  }
}

export interface TemporalServerPorts {
  frontend: number;
  http: number;
  metrics: number;
  membership: { frontend: number; history: number; matching: number; worker: number };
  rpc: { history: number; matching: number; worker: number };
}

export async function freeTemporalPorts(): Promise<TemporalServerPorts> {
  const p: number[] = [];
  for (let i = 0; i < 10; i++) p.push(await freePort()); // below 32768, as the smallint membership columns need
  return {
    frontend: p[0],
    http: p[1],
    metrics: p[2],
    membership: { frontend: p[3], history: p[4], matching: p[5], worker: p[6] },
    rpc: { history: p[7], matching: p[8], worker: p[9] },
  };
}

/** The environment deploy/temporal/production.yaml reads. */
function serverEnv(opts: TemporalClusterOptions, ports: TemporalServerPorts): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TEMPORAL_LOG_LEVEL: 'warn',
    TEMPORAL_PG_ADDR: `${opts.postgres.host}:${opts.postgres.port}`,
    TEMPORAL_PG_USER: opts.postgres.user,
    TEMPORAL_PG_PASSWORD: opts.postgres.password,
    TEMPORAL_DB: TEMPORAL_DATABASES.default,
    TEMPORAL_VISIBILITY_DB: TEMPORAL_DATABASES.visibility,
    TEMPORAL_BIND_IP: '127.0.0.1',
    TEMPORAL_BROADCAST_ADDRESS: '127.0.0.1',
    TEMPORAL_FRONTEND_PORT: String(ports.frontend),
    TEMPORAL_HTTP_PORT: String(ports.http),
    TEMPORAL_METRICS_PORT: String(ports.metrics),
    TEMPORAL_FRONTEND_MEMBERSHIP_PORT: String(ports.membership.frontend),
    TEMPORAL_HISTORY_PORT: String(ports.rpc.history),
    TEMPORAL_HISTORY_MEMBERSHIP_PORT: String(ports.membership.history),
    TEMPORAL_MATCHING_PORT: String(ports.rpc.matching),
    TEMPORAL_MATCHING_MEMBERSHIP_PORT: String(ports.membership.matching),
    TEMPORAL_WORKER_PORT: String(ports.rpc.worker),
    TEMPORAL_WORKER_MEMBERSHIP_PORT: String(ports.membership.worker),
    TEMPORAL_DYNAMIC_CONFIG: path.join(CONFIG_DIR, 'dynamicconfig.yaml'),
  };
}

export interface TemporalServerProcess {
  child: ChildProcess;
  /** Its last output lines, for the error when it exits. */
  tail(): string[];
}

/** Starts the server process (all four services); returns at once. */
export function spawnTemporalServer(opts: TemporalClusterOptions, ports: TemporalServerPorts): TemporalServerProcess {
  const child = spawn(path.join(opts.serverDir, 'server'), ['--root', CONFIG_DIR, '--config', '.', '--env', 'production', '--allow-no-auth', 'start'], {
    env: serverEnv(opts, ports),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    const lines = readline.createInterface({ input: stream });
    lines.on('line', (line) => {
      tail = [...tail.slice(-20), line];
      if (opts.verbose) opts.log(`[temporal-server] ${line}`);
    });
  }
  return { child, tail: () => tail };
}

/** Resolves once the frontend answers for `namespace` (it must exist); fails at once if the server exits. */
export async function waitForTemporal(address: string, namespace: string, server: TemporalServerProcess, timeoutMs = 90_000): Promise<void> {
  const { child } = server;
  let onExit: () => void = () => undefined;
  const exited = new Promise<never>((_, reject) => {
    onExit = () =>
      reject(
        new Error(
          `the Temporal server exited (${child.signalCode ?? child.exitCode}): ${server
            .tail()
            .slice(-3)
            .map((l) => l.slice(0, 400))
            .join('\n')}`,
        ),
      );
    if (child.exitCode !== null || child.signalCode !== null) onExit();
    else child.once('exit', onExit);
  });
  exited.catch(() => undefined);
  try {
    await Promise.race([exited, probeTemporal(address, namespace, timeoutMs)]);
  } finally {
    child.off('exit', onExit);
  }
}

async function probeTemporal(address: string, namespace: string, timeoutMs: number): Promise<void> {
  await waitFor(
    `Temporal server on ${address}`,
    async () => {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return true;
      } finally {
        await connection.close();
      }
    },
    timeoutMs,
    300,
  );
}

/** Creates the namespace (when missing) and registers our search attributes (when missing). */
export async function registerNamespace(opts: TemporalClusterOptions, address: string): Promise<void> {
  const cli = (args: string[]) => run(opts.cli, [...args, '--address', address], { encoding: 'utf8' });
  // The frontend may answer before the history service owns its shards: retry until both work.
  await waitFor(
    `namespace ${opts.namespace}`,
    async () => {
      const { stdout } = await cli(['operator', 'namespace', 'list', '--output', 'json']);
      if (!stdout.includes(`"${opts.namespace}"`)) await cli(['operator', 'namespace', 'create', '--namespace', opts.namespace, '--retention', '72h']);
      return true;
    },
    60_000,
    1000,
  );
  await waitFor(
    'search attributes',
    async () => {
      const { stdout } = await cli(['operator', 'search-attribute', 'list', '--namespace', opts.namespace, '--output', 'json']);
      for (const name of CUSTOM_SEARCH_ATTRIBUTES) {
        if (!stdout.includes(`"${name}"`))
          await cli(['operator', 'search-attribute', 'create', '--namespace', opts.namespace, '--name', name, '--type', 'Keyword']);
      }
      return true;
    },
    60_000,
    1000,
  );
}
