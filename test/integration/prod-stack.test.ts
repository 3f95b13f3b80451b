import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadCorpus } from '../../src/corpus/loader';
import { createDb, type Db } from '../../src/db/knex';
import { checkInvariants, waitForSearchesSettled, waitForWebhooksDelivered, type InvariantScope } from '../../tools/chaos/chaos-invariants';
import { waitFor } from '../../tools/dev/processes';
import { startProdStack, type ProdStack } from '../../tools/dev/prod-stack';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { request, TEST_RATE_LIMIT_ENV } from '../support/stack';

/**
 * The production-like stack (npm run stack:prod) in one short fault scenario: the Temporal server
 * built from go.temporal.io/server on its own embedded PostgreSQL, two compiled API processes
 * behind the load balancer and two compiled workers. A worker is killed with SIGKILL while
 * searches run; every search must still end, each pass charged once, and every event reach the
 * webhook receiver. `npm run chaos` runs the longer version against every component.
 */
describe('production-like stack: kill -9 of a worker mid-search', () => {
  let stack: ProdStack;
  let db: Db;
  let receiver: HttpsReceiver;
  let caller: KeyFixture;
  let scope: InvariantScope;

  beforeAll(async () => {
    const serverDir = process.env.TEMPORAL_SERVER_DIR;
    if (!serverDir) throw new Error('TEMPORAL_SERVER_DIR is unset: run the tests with `npm test`, which builds the Temporal server');
    const cert = makeTestCert();
    receiver = await startHttpsReceiver(cert);
    stack = await startProdStack({
      dataDir: path.join(process.env.TEST_RUN_DIR!, `prod-stack-${randomUUID().slice(0, 8)}`),
      persistent: false,
      temporalServerDir: serverDir,
      temporalCli: process.env.TEMPORAL_CLI!,
      secretsKey: process.env.SECRETS_KEY!,
      env: {
        ...TEST_RATE_LIMIT_ENV,
        WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
        NODE_EXTRA_CA_CERTS: cert.certFile,
        WEBHOOK_RETRY_SCHEDULE: '1,2,4,8,15,30',
        // Four pages of 25 at 300 ms each: the passes are still running when the worker dies.
        SEARCH_PAGE_DELAY_MS: '300',
        DATABASE_POOL_MAX: '4',
      },
      log: () => undefined,
    });
    db = createDb(stack.databaseUrl, 2);
    await loadCorpus(db, { size: 1500, seed: 5 });
    caller = await workspaceWithKey(db, { plan: 'enterprise', credits: 20 });
    const hook = await request(`${stack.url}`, 'POST', '/v1/webhooks', { headers: caller.headers, body: { url: `${receiver.origin}/hook` } });
    expect(hook.status).toBe(201);
    scope = {
      workspaceId: caller.workspace.id,
      endpoints: [{ id: hook.body.data.id, path: '/hook' }],
      receipts: () => receiver.received.filter((r) => r.json?.id).map((r) => ({ at: r.at, path: r.path, eventId: r.json.id })),
    };
  }, 300_000);

  afterAll(async () => {
    await db?.destroy();
    await stack?.stop();
    await receiver?.close();
  });

  it('runs Temporal on PostgreSQL and serves the key API through the load balancer', async () => {
    const health = await request(stack.url, 'GET', '/v1/health?worker=true');
    expect([health.status, health.body.data.checks]).toEqual([200, { database: 'ok', temporal: 'ok', worker: 'ok' }]);
    for (const api of stack.apiUrls) expect((await fetch(`${api}/readyz`)).status).toBe(200);
    // The health probe's workflow is stored in the Temporal database of this PostgreSQL server.
    const temporalDb = createDb(stack.databaseUrl.replace(/\/sourcing$/, '/temporal'), 1);
    try {
      const rows = await temporalDb('executions').count({ n: '*' });
      expect(Number(rows[0].n)).toBeGreaterThan(0);
    } finally {
      await temporalDb.destroy();
    }
  });

  it('every search ends complete, charged once, every event delivered', async () => {
    const searchIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const project = await request(stack.url, 'POST', '/v1/projects', { headers: caller.headers, body: { name: `prod ${i}` } });
      const launched = await request(stack.url, 'POST', `/v1/projects/${project.body.data.id}/searches`, {
        headers: { ...caller.headers, 'Idempotency-Key': `prod-${randomUUID()}` },
        body: { criteria: { family: 'software_engineering', read_budget: 100, target: 5, shortlist_threshold: 40 } },
      });
      expect(launched.status).toBe(201);
      searchIds.push(launched.body.data.id);
    }
    await waitFor(
      'a pass to run',
      async () => (await db('search_passes').whereIn('search_id', searchIds).where('status', 'running').first()) !== undefined,
      30_000,
      50,
    );

    const worker = stack.component('worker-1');
    await worker.kill();
    expect(worker.running()).toBe(false);
    await worker.start();

    // A pass the dead worker held is retried once its heartbeat times out (30 s).
    await waitForSearchesSettled(db, caller.workspace.id, 120_000);
    await waitForWebhooksDelivered(db, scope, 60_000);
    const results = await checkInvariants(db, scope);
    expect(results.filter((r) => !r.held)).toEqual([]);
    const statuses = await db('searches').whereIn('id', searchIds).pluck('status');
    expect(statuses).toEqual(['complete', 'complete', 'complete', 'complete']);
  }, 200_000);
});
