import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort, waitFor } from '../../tools/dev/processes';
import { TEST_RATE_LIMIT_ENV } from '../support/stack';

const ROOT = path.resolve(__dirname, '..', '..');

function startProcess(entry: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

const baseEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'info', SWEEP_SCHEDULES_ON_START: 'false', WORKER_METRICS_PORT: '0' });

describe('production processes (start:api, start:worker entry points)', () => {
  it('the API refuses to start on a missing or bad variable and names it', async () => {
    const proc = startProcess('api/server.ts', { ...baseEnv(), PORT: 'not-a-port' });
    expect(await proc.exited).toBe(78);
    expect(proc.output()).toMatch(/DATABASE_URL/);
    expect(proc.output()).toMatch(/SECRETS_KEY/);
    expect(proc.output()).toMatch(/PORT/);
  });

  it('the worker refuses to start on a bad variable and names it', async () => {
    const proc = startProcess('activities/worker.ts', { ...baseEnv(), DATABASE_URL: process.env.DATABASE_URL, SECRETS_KEY: 'too-short' });
    expect(await proc.exited).toBe(78);
    expect(proc.output()).toMatch(/SECRETS_KEY/);
  });

  it('API and worker serve the round trip, log JSON with the request id, and stop cleanly on SIGTERM', async () => {
    const port = await freePort();
    const env = {
      ...baseEnv(),
      DATABASE_URL: process.env.DATABASE_URL,
      TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS,
      SECRETS_KEY: process.env.SECRETS_KEY,
      HOST: '127.0.0.1',
      PORT: String(port),
      TEMPORAL_TASK_QUEUE: `proc-test-${port}`,
      // The keyless bucket of 127.0.0.1 is shared with the whole suite (see TEST_RATE_LIMIT_ENV).
      ...TEST_RATE_LIMIT_ENV,
    };
    const api = startProcess('api/server.ts', env);
    const worker = startProcess('activities/worker.ts', env);
    try {
      // Each probe has its own request id: the log line checked is the one of the 200, not an earlier 503.
      let probe = 0;
      let healthyId = '';
      await waitFor(
        'api and worker',
        async () => {
          const id = `proc-test-rid-${(probe += 1)}`;
          const res = await fetch(`http://127.0.0.1:${port}/v1/health?worker=true`, { headers: { 'X-Request-Id': id } });
          if (res.status === 200) healthyId = id;
          return res.status === 200;
        },
        60_000,
        500,
      );
      // The line is written as the response goes out; it may reach our pipe a moment after it.
      const logLine = () =>
        api
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .flatMap((l) => {
            try {
              return [JSON.parse(l)];
            } catch {
              return []; // a line still being written
            }
          })
          .find((l) => l.request_id === healthyId);
      await waitFor('the request log line', async () => logLine() !== undefined, 5000, 50).catch(() => undefined);
      expect(logLine()).toMatchObject({ level: 'info', msg: 'request', path: '/v1/health', status: 200 });
    } finally {
      api.child.kill('SIGTERM');
      worker.child.kill('SIGTERM');
    }
    expect(await api.exited).toBe(0);
    expect(await worker.exited).toBe(0);
    expect(api.output()).toContain('api stopped');
    expect(worker.output()).toContain('worker stopped');
  });
});
