import path from 'node:path';
import { migrateLatest } from '../../src/db/migrate';
import { startEmbeddedPostgres, type PostgresHandle } from '../../tools/dev/embedded-postgres';
import { freePort, ProcessGroup, waitFor } from '../../tools/dev/processes';
import { startTemporalDevServer, type TemporalServerHandle } from '../../tools/dev/temporal-server';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { memberOf, type Member } from '../support/session';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * A private Postgres and Temporal server for this file only, so they can be killed without
 * disturbing the rest of the suite.
 */
describe('GET /v1/health when a dependency dies', () => {
  const group = new ProcessGroup(() => undefined);
  let postgres: PostgresHandle;
  let temporal: TemporalServerHandle;
  let stack: TestStack;
  let caller: KeyFixture;
  let member: Member;

  beforeAll(async () => {
    const [pgPort, tPort, httpPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    [postgres, temporal] = await Promise.all([
      startEmbeddedPostgres({
        dataDir: path.join(process.env.TEST_RUN_DIR!, `outage-pg-${pgPort}`),
        port: pgPort,
        database: 'outage',
        persistent: false,
        fast: true,
      }),
      startTemporalDevServer(group, {
        cli: process.env.TEMPORAL_CLI!,
        port: tPort,
        uiPort: null,
        httpPort,
        metricsPort,
        namespace: 'default',
        dbFile: null,
        quiet: true,
      }),
    ]);
    stack = await startTestStack({ worker: false, env: { DATABASE_URL: postgres.url, TEMPORAL_ADDRESS: temporal.address } });
    // The private database starts empty: its schema is needed for the key of the 503 test.
    await migrateLatest(stack.db);
    caller = await workspaceWithKey(stack.db);
    member = await memberOf(stack, caller.workspace, 'operator');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await group.stopAll(2000);
    // Postgres was killed above; its throw-away directory goes with the run directory.
  });

  it('is healthy while both run', async () => {
    const res = await stack.request('GET', '/v1/health');
    expect(res.status).toBe(200);
    expect(res.body.data.checks).toEqual({ database: 'ok', temporal: 'ok' });
    expect(await stack.request('GET', '/readyz')).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('names database when Postgres is killed', async () => {
    process.kill(postgres.pid!, 'SIGKILL');
    // Until its backends notice the postmaster is gone, a pooled connection may still answer.
    await waitFor('health to notice', async () => (await stack.request('GET', '/v1/health')).body.data.checks.database === 'error', 15_000, 100);
    const res = await stack.request('GET', '/v1/health');
    expect(res.status).toBe(503);
    expect(res.body.data).toEqual({ ok: false, checks: { database: 'error', temporal: 'ok' } });
    // Not ready, yet alive: an orchestrator stops routing to the process but does not restart it.
    const ready = await stack.request('GET', '/readyz');
    expect([ready.status, ready.body]).toEqual([503, { ok: false, checks: { database: 'error', temporal: 'ok' } }]);
    expect((await stack.request('GET', '/livez')).status).toBe(200);
  });

  it('answers 503 service_unavailable with Retry-After on routes that need the database, never 500', async () => {
    // Authentication itself reads the database, so this is refused before the route runs.
    const statuses: number[] = [];
    await waitFor(
      'the route to answer 503',
      async () => {
        const res = await stack.request('GET', '/v1/projects', { headers: caller.headers });
        statuses.push(res.status);
        return res.status !== 200;
      },
      15_000,
      100,
    );
    expect(statuses.filter((s) => s !== 200).every((s) => s === 503)).toBe(true);
    for (const [method, path, body] of [
      ['GET', '/v1/projects', undefined],
      ['POST', '/v1/projects', { name: 'During the outage' }],
    ] as const) {
      const res = await stack.request(method, path, { headers: caller.headers, body });
      expect([res.status, res.body.error.code, res.headers.get('retry-after')]).toEqual([503, 'service_unavailable', '5']);
      expect(res.body.error.details).toEqual({ retry_after_seconds: 5 });
    }
  });

  it('the session API answers 503 service_unavailable with Retry-After too, in its own shape', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/me', undefined],
      ['POST', '/api/campaigns', { name: 'During the outage', channel: 'email' }],
      ['POST', '/api/auth/sign-in', { email: member.email, password: 'whatever it is' }],
      // A route defined beside the session routers (a well-formed share token is looked up).
      ['GET', '/api/shares/abcdefghijklmnopqrstuvwxyz', undefined],
    ] as const) {
      const res = await stack.request(method, path, { headers: member.headers, body });
      expect([res.status, res.body, res.headers.get('retry-after')]).toEqual([
        503,
        { error: 'The database is unavailable right now; retry shortly', code: 'service_unavailable' },
        '5',
      ]);
    }
  });

  it('names temporal too when the Temporal server is killed', async () => {
    process.kill(temporal.pid!, 'SIGKILL');
    await waitFor('health to notice', async () => (await stack.request('GET', '/v1/health')).body.data.checks.temporal === 'error', 15_000, 100);
    const res = await stack.request('GET', '/v1/health');
    expect(res.status).toBe(503);
    expect(res.body.data).toEqual({ ok: false, checks: { database: 'error', temporal: 'error' } });
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
