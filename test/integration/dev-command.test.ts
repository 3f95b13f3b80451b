import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort, isAlive, waitFor } from '../../tools/dev/processes';

const ROOT = path.resolve(__dirname, '..', '..');

/** Every live descendant of a pid, from `ps`. */
function descendants(rootPid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of rows) {
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(rootPid);
  return found;
}

const commandOf = (pid: number) => {
  try {
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
  } catch {
    return '';
  }
};

describe('npm run dev (scripts/dev.mjs)', () => {
  it('brings up Postgres, Temporal with its UI, Zipkin, the API and a worker, restarts a killed worker, then SIGTERM leaves no process behind', async () => {
    const [port, postgresPort, temporalPort, temporalUiPort, zipkinPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const dataDir = path.join(process.env.TEST_RUN_DIR!, `dev-${port}`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      POSTGRES_PORT: String(postgresPort),
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(temporalUiPort),
      ZIPKIN_PORT: String(zipkinPort),
      DEV_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    };
    for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_TASK_QUEUE', 'SECRETS_KEY', 'NODE_ENV', 'TRACING', 'TRACING_ZIPKIN_URL'])
      delete env[name];

    const dev = spawn(process.execPath, [path.join(ROOT, 'scripts/dev.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    dev.stdout.on('data', (d) => (output += d));
    dev.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => dev.on('exit', (code) => resolve(code)));
    let tree: number[] = [];
    try {
      await waitFor('dev stack', async () => output.includes('ready in'), 120_000, 250);
      expect(output).toContain(`http://localhost:${port}/v1`);
      expect(output).toContain(`http://localhost:${temporalUiPort}`);
      expect(output).toMatch(/keys create/);

      const health = await fetch(`http://127.0.0.1:${port}/v1/health?worker=true`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { data: { checks: unknown } }).data.checks).toEqual({ database: 'ok', temporal: 'ok', worker: 'ok' });
      const ui = await fetch(`http://127.0.0.1:${temporalUiPort}/`);
      expect(ui.status).toBe(200);
      // Zipkin beside the Temporal UI, holding the trace of a request made with the printed key.
      expect(output).toContain(`Zipkin UI     http://localhost:${zipkinPort}`);
      const apiKey = /export API_KEY=(\S+)/.exec(output)![1];
      const traceId = randomBytes(16).toString('hex');
      const projects = await fetch(`http://127.0.0.1:${port}/v1/projects`, {
        headers: { Authorization: `Bearer ${apiKey}`, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      });
      expect(projects.status).toBe(200);
      await waitFor(
        'the request in Zipkin',
        async () => {
          const trace = await fetch(`http://127.0.0.1:${zipkinPort}/api/v2/trace/${traceId}`);
          return trace.ok && ((await trace.json()) as { name: string }[]).some((span) => span.name === 'get /v1/projects');
        },
        20_000,
        500,
      );
      // The web app through Vite (live reload): its client script in the page, under the app's CSP.
      expect(output).toContain(`http://localhost:${port}/app/`);
      const app = await fetch(`http://127.0.0.1:${port}/app/projects/any`);
      expect(app.status).toBe(200);
      expect(app.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await app.text()).toContain('<script type="module" src="/app/@vite/client">');
      expect((await fetch(`http://127.0.0.1:${port}/app/@vite/client`)).status).toBe(200);
      // The dev server serves the app's sources and dependencies only: not the stack's secrets,
      // the checkout's other files or the rest of the machine, however the path is written.
      expect((await fetch(`http://127.0.0.1:${port}/app/src/main.tsx`)).status).toBe(200);
      const devEnv = path.join(dataDir, 'dev-env.json');
      expect(fs.existsSync(devEnv)).toBe(true);
      for (const probe of [
        `/app/@fs${devEnv}?raw`,
        `/app/@fs${devEnv}`,
        `/app/@fs${path.join(dataDir, 'pg', 'postgresql.conf')}?raw`,
        `/app/@fs${path.join(ROOT, 'package.json')}?raw`,
        `/app/@fs${path.join(ROOT, 'src', 'config.ts')}?raw`,
        '/app/@fs/etc/passwd?raw',
        `/app/@fs${path.join(ROOT, 'web', '..', '.data')}/`,
        '/app/..%2f.data%2fdev-env.json?raw',
      ]) {
        const res = await fetch(`http://127.0.0.1:${port}${probe}`);
        const text = await res.text();
        expect([probe, text.includes('SECRETS_KEY') || text.includes('root:x:0') || text.includes('"name": "candidate-sourcing"')]).toEqual([probe, false]);
        expect([probe, res.status === 200 && !text.includes('<!doctype html>')]).toEqual([probe, false]);
      }
      // State lives under the data directory: the SQLite file of Temporal, the database, a generated secrets key.
      expect(fs.existsSync(path.join(dataDir, 'temporal.db'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
      expect(Buffer.from(fs.readFileSync(path.join(dataDir, 'secrets.key'), 'utf8'), 'base64')).toHaveLength(32);

      // The worker keeps its task queue's sweeps as Temporal Schedules (webhook outbox, stranded search passes).
      const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
      try {
        const schedules = new Client({ connection }).schedule;
        await waitFor(
          'sweep schedules',
          async () => {
            const ids: string[] = [];
            for await (const s of schedules.list()) ids.push(s.scheduleId);
            return ['outbox-sweep-sourcing', 'stranded-pass-sweep-sourcing'].every((id) => ids.includes(id));
          },
          20_000,
          500,
        );
      } finally {
        await connection.close();
      }

      tree = descendants(dev.pid!);
      expect(tree.length).toBeGreaterThanOrEqual(6); // dev.ts, postgres, temporal, zipkin, api, worker

      // A crashed worker is restarted (with backoff) and the stack stays up.
      const worker = tree.find((pid) => commandOf(pid).includes('activities/worker.ts'));
      expect(worker).toBeDefined();
      process.kill(worker!, 'SIGKILL');
      await waitFor('the worker restart', async () => /\[dev\] worker restarted \(pid \d+\)/.test(output), 20_000, 200);
      expect(output).toMatch(/\[dev\] worker exited \(SIGKILL\); restarting it in 1 s/);
      await waitFor(
        'the restarted worker to answer health checks',
        async () => (await fetch(`http://127.0.0.1:${port}/v1/health?worker=true`)).ok,
        60_000,
        500,
      );
      expect(dev.exitCode).toBeNull();
      tree = descendants(dev.pid!);
      expect(tree).not.toContain(worker);
    } finally {
      dev.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    await waitFor('every child to exit', async () => tree.every((pid) => !isAlive(pid)), 20_000, 200);
  }, 240_000);
});
