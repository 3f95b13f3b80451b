import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createDb, type Db } from '../../src/db/knex';
import { freePort, waitFor } from '../../tools/dev/processes';
import { startBraveFake, BRAVE_GOOD_KEY, type BraveFake } from '../fakes/brave-fake';
import { startPdlFake, PDL_GOOD_KEY, type PdlFake } from '../fakes/pdl-fake';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { TEST_RATE_LIMIT_ENV } from '../support/stack';

/**
 * Downstream limits hold across API processes (DESIGN.md §9): two API processes share the
 * People Data Labs concurrency slots and the Brave pacing through Postgres, counted at the fakes.
 */
const ROOT = path.resolve(__dirname, '..', '..');
let pdl: PdlFake;
let brave: BraveFake;
let db: Db;
let fx: KeyFixture;
const apis: { child: ChildProcess; url: string }[] = [];

async function startApi(env: NodeJS.ProcessEnv) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...TEST_RATE_LIMIT_ENV,
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      TEMPORAL_TASK_QUEUE: `data-limits-${port}`,
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  apis.push({ child, url });
  await waitFor('a data API process', async () => (await fetch(`${url}/livez`).catch(() => null))?.status === 200, 90_000, 200);
  return url;
}

beforeAll(async () => {
  [pdl, brave] = await Promise.all([startPdlFake(), startBraveFake()]);
  db = createDb(process.env.DATABASE_URL!, 2);
  fx = await workspaceWithKey(db);
  const env = {
    PEOPLEDATALABS_BASE_URL: pdl.url,
    PEOPLEDATALABS_API_KEY: PDL_GOOD_KEY,
    BRAVE_BASE_URL: brave.url,
    BRAVE_API_KEY: BRAVE_GOOD_KEY,
    PEOPLEDATALABS_CONCURRENCY: '2',
    BRAVE_QPS: '2',
    // Long enough that no call here is refused: the test counts what reaches the vendor.
    PROVIDER_SLOT_WAIT_MS: '30000',
  };
  await Promise.all([startApi(env), startApi(env)]);
}, 120_000);
afterAll(async () => {
  await Promise.all(
    apis.map(
      ({ child }) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
    ),
  );
  await db?.destroy();
  await Promise.all([pdl?.close(), brave?.close()]);
});

const get = (i: number, p: string) => fetch(`${apis[i % 2].url}/v1${p}`, { headers: fx.headers });
const post = (i: number, p: string, body: unknown) =>
  fetch(`${apis[i % 2].url}/v1${p}`, { method: 'POST', headers: { ...fx.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

it('enrichment concurrency: at most PEOPLEDATALABS_CONCURRENCY calls at the vendor at once, across both processes', async () => {
  pdl.reset();
  pdl.mode = 'slow';
  pdl.delayMs = 300;
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => get(i, '/data/people/pdl-ada-0001')));
  expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
  expect(pdl.calls('/v5/person/enrich')).toBe(10);
  expect(pdl.maxInFlight).toBe(2);
});

it('web search QPS: calls from both processes are paced to BRAVE_QPS at the vendor', async () => {
  brave.reset();
  const n = 6;
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => post(i, '/data/search/web', { query: 'acme', count: 1 })));
  expect(answers.map((a) => a.status)).toEqual(Array(n).fill(200));
  expect(brave.calls()).toBe(n);
  // Start times are booked 500 ms apart and no call starts before its booking, so the arrivals
  // span at least (n-1) × 500 ms less the lateness of the earliest (generous on a loaded machine).
  const span = Math.max(...brave.arrivals) - Math.min(...brave.arrivals);
  expect(span).toBeGreaterThanOrEqual((n - 1) * 500 - 600);
});
