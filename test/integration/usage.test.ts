import { randomUUID } from 'node:crypto';
import { waitFor } from '../../tools/dev/processes';
import { currentMonth } from '../../src/usage/usage.service';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { createProject, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

/** Cost events written with the billed effect, GET /usage/costs and GET /usage. */

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { USAGE_FLUSH_INTERVAL_MS: '200' } });
});
afterAll(() => stack.stop());

const criteria = {
  family: 'software_engineering',
  metro: 'chicago',
  skills: ['TypeScript', 'PostgreSQL'],
  read_budget: 15,
  target: 100,
  shortlist_threshold: 70,
};
const withRequestId = (f: KeyFixture, requestId: string) => ({ ...f.headers, 'X-Request-Id': requestId });
const costs = (f: KeyFixture, query = '') => stack.request('GET', `/v1/usage/costs${query}`, { headers: f.headers });
const launchAs = (f: KeyFixture, projectId: string, requestId: string) =>
  stack.request('POST', `/v1/projects/${projectId}/searches`, {
    headers: { ...withRequestId(f, requestId), 'Idempotency-Key': `usage-${randomUUID()}` },
    body: { criteria },
  });

it('launching, expanding and refunding show up in /usage/costs with the request ids of the calls', async () => {
  const f = await workspaceWithKey(stack.db, { credits: 3 });
  const projectId = await createProject(stack, f.headers);
  const launchId = `req_launch_${randomUUID()}`;
  const launched = await launchAs(f, projectId, launchId);
  expect(launched.status).toBe(201);
  await waitForSearch(stack, f.headers, launched.body.data.id);

  const expandId = `req_expand_${randomUUID()}`;
  expect((await stack.request('POST', `/v1/projects/${projectId}/expand`, { headers: withRequestId(f, expandId) })).status).toBe(202);

  // A launch that waits (no slot) and is cancelled: its credit comes back, carrying its request id.
  const waiting = await workspaceWithKey(stack.db, { credits: 2, workspace: { max_concurrent_searches: 0 } });
  const waitingProject = await createProject(stack, waiting.headers);
  const refundedId = `req_refunded_${randomUUID()}`;
  const stuck = await launchAs(waiting, waitingProject, refundedId);
  await stack.temporal.client.workflow.getHandle(`search-${stuck.body.data.id}-pass-1`).cancel();
  await waitForSearch(stack, waiting.headers, stuck.body.data.id);

  const mine = await costs(f, `?request_id=${launchId}`);
  expect(mine.body.meta.total).toBe(1);
  expect(mine.body.data).toEqual([
    {
      id: expect.any(String),
      request_id: launchId,
      action: 'launch_search',
      key_id: f.key.id,
      credits: 1,
      usd: 0,
      units: 1,
      provider: null,
      created_at: expect.any(String),
    },
  ]);
  expect((await costs(f, `?request_id=${expandId}`)).body.data).toEqual([
    expect.objectContaining({ request_id: expandId, action: 'expand_project', credits: 1 }),
  ]);

  const refunds = (await costs(waiting, `?request_id=${refundedId}`)).body.data;
  expect(refunds.map((c: { action: string; credits: number }) => [c.action, c.credits])).toEqual([
    ['search_refund', -1],
    ['launch_search', 1],
  ]);
  expect(refunds.every((c: { key_id: string }) => c.key_id === waiting.key.id)).toBe(true);

  // Filters: action, and the `to` cursor reads older rows; other workspaces' rows never show.
  expect((await costs(f, '?action=expand_project')).body.data).toHaveLength(1);
  const all = (await costs(f)).body;
  expect(all.meta.total).toBe(2);
  expect(all.data.map((c: { action: string }) => c.action)).toEqual(['expand_project', 'launch_search']);
  expect((await costs(f, `?to=${encodeURIComponent(all.data[0].created_at)}`)).body.data.map((c: { action: string }) => c.action)).toEqual(['launch_search']);
  expect((await costs(f, `?request_id=${refundedId}`)).body.data).toEqual([]);
});

it('a refused launch has no cost event', async () => {
  const broke = await workspaceWithKey(stack.db, { credits: 0 });
  const projectId = await createProject(stack, broke.headers);
  const requestId = `req_refused_${randomUUID()}`;
  const res = await launchAs(broke, projectId, requestId);
  expect([res.status, res.body.error.code]).toEqual([402, 'shortlist_allocation_exhausted']);
  expect(res.headers.get('x-request-id')).toBe(requestId);
  const found = await costs(broke, `?request_id=${requestId}`);
  expect([found.status, found.body.data, found.body.meta.total]).toEqual([200, [], 0]);
});

it('400 invalid_request for bad filters', async () => {
  const f = await workspaceWithKey(stack.db);
  for (const q of ['?from=yesterday', '?to=2026-13-01', '?limit=5', '?request_id=']) {
    const res = await costs(f, q);
    expect([q, res.status, res.body.error.code]).toEqual([q, 400, 'invalid_request']);
  }
  const usage = await stack.request('GET', '/v1/usage?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', { headers: f.headers });
  expect([usage.status, usage.body.error.code]).toEqual([400, 'invalid_request']);
});

it('GET /usage adds up with the ledger, with per-day figures and request counts', async () => {
  const f = await workspaceWithKey(stack.db, { credits: 4 });
  const projectId = await createProject(stack, f.headers);
  const first = await launchAs(f, projectId, `req_${randomUUID()}`);
  await waitForSearch(stack, f.headers, first.body.data.id);
  expect((await stack.request('POST', `/v1/projects/${projectId}/expand`, { headers: f.headers })).status).toBe(202);
  await stack.db('credit_ledger').insert({ workspace_id: f.workspace.id, bucket: 'workspace', delta: 5, reason: 'grant:operator' });
  for (let i = 0; i < 3; i++) await stack.request('GET', `/v1/searches/${first.body.data.id}`, { headers: f.headers });

  let usage: any;
  await waitFor(
    'the request counts to be flushed',
    async () => {
      usage = (await stack.request('GET', '/v1/usage', { headers: f.headers })).body.data;
      // waitForSearch's polls are get_search too: wait for the expansion's count, made after them.
      return (usage.requests.by_action.expand_project ?? 0) >= 1 && (usage.requests.by_action.get_search ?? 0) >= 3;
    },
    10_000,
    100,
  );
  const month = currentMonth();
  expect(usage.period).toEqual({ from: month.from.toISOString(), to: month.to.toISOString() });
  expect(usage.requests.by_action).toMatchObject({ create_project: 1, launch_search: 1, expand_project: 1 });
  expect(usage.requests.by_action.get_search).toBeGreaterThanOrEqual(3);
  expect(usage.requests.total).toBe(Object.values(usage.requests.by_action as Record<string, number>).reduce((a, b) => a + b, 0));
  expect(usage.credits).toEqual({ used: 2, refunded: 0, granted: 9 });
  expect(usage.searches).toMatchObject({ launched: 1 });

  const [{ net }] = await stack.db('credit_ledger').where({ workspace_id: f.workspace.id }).sum({ net: 'delta' });
  expect(usage.credits.granted - usage.credits.used + usage.credits.refunded).toBe(Number(net));
  const today = new Date().toISOString().slice(0, 10);
  const day = usage.by_day.find((d: { date: string }) => d.date === today);
  expect(day).toMatchObject({ credits_used: 2, usd: 0 });
  expect(day.requests).toBe(usage.requests.total);
  expect(usage.by_day[0].date).toBe(month.from.toISOString().slice(0, 10));
});
