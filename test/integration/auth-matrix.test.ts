import { randomUUID } from 'node:crypto';
import { projectRepository } from '../../src/db/project.repository';
import { apiKeyRepository } from '../../src/db/api-key.repository';
import { webhookRepository } from '../../src/db/webhook.repository';
import { routeTable } from '../../api/route-table';
import type { RouteDef } from '../../api/route-def';
import { keyFor, workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { startTestStack, type TestResponse, type TestStack } from '../support/stack';

/**
 * Every registered route against every way a key can be wrong. The matrix is built from the route
 * table itself, so a route added later is covered without touching this file, except for a new
 * kind of path id, which must be added to `foreignIds` below.
 */

let stack: TestStack;
let caller: KeyFixture;
let other: KeyFixture;
/** For each path placeholder: a real id of the other workspace, and the 404 code it must give. */
let foreignIds: Record<string, { id: string; code: string }>;

const keyed = routeTable.filter((r) => r.auth !== 'none');
const scoped = keyed.filter((r) => r.auth !== 'any');
const withIds = keyed.filter((r) => r.path.includes('{'));

function fill(route: RouteDef, value: (name: string) => string): string {
  return `/v1${route.path.replace(/\{(\w+)\}/g, (_, name: string) => value(name))}`;
}
const anyIds = (route: RouteDef) => fill(route, () => '00000000-0000-4000-8000-000000000000');
const call = (route: RouteDef, path: string, headers: Record<string, string> = {}) =>
  stack.request(route.method, path, { headers, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }) });

function expectError(res: TestResponse, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(res.body).toEqual({
    error: { code, message: expect.any(String), details: res.body.error.details ?? null, request_id: expect.any(String) },
    meta: { request_id: res.body.error.request_id, correlation_id: res.body.error.request_id },
  });
  expect(typeof res.body.error.details).toBe('object'); // an object or null
  expect(res.headers.get('x-request-id')).toBe(res.body.meta.request_id);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(res.headers.get(h)).toMatch(/^\d+$/);
}

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  caller = await workspaceWithKey(stack.db);
  other = await workspaceWithKey(stack.db);
  const otherProject = await projectRepository(stack.db).create(other.workspace.id, 'not yours');
  const [otherSearch] = await stack
    .db('searches')
    .insert({
      id: randomUUID(),
      workspace_id: other.workspace.id,
      project_id: otherProject.id,
      status: 'complete',
      criteria: JSON.stringify({ family: 'design' }),
      funding_bucket: 'workspace',
    })
    .returning('id');
  const otherWebhook = (await webhookRepository(stack.db).createWithinLimit(
    {
      id: randomUUID(),
      workspace_id: other.workspace.id,
      url: 'https://hooks.example.com/hook', // never delivered: a documentation name (RFC 2606)
      events: ['*'],
      secret_ciphertext: 'v1.x.x.x',
      secret_last4: 'abcd',
    },
    10,
  ))!;
  // A row only: its Schedule is never needed, every call with it is refused first.
  const [otherMonitor] = await stack
    .db('monitors')
    .insert({ id: randomUUID(), workspace_id: other.workspace.id, project_id: otherProject.id, search_id: otherSearch.id, every: 'day' })
    .returning('id');
  foreignIds = {
    projectId: { id: otherProject.id, code: 'project_not_found' },
    searchId: { id: otherSearch.id, code: 'search_not_found' },
    candidateId: { id: randomUUID(), code: 'candidate_not_found' },
    webhookId: { id: otherWebhook.id, code: 'webhook_not_found' },
    deliveryId: { id: randomUUID(), code: 'delivery_not_found' },
    // Data ids are not per workspace: an id no source has is the not-found case.
    profileId: { id: 'p9999999', code: 'profile_not_found' },
    companyId: { id: 'c99999', code: 'company_not_found' },
    monitorId: { id: otherMonitor.id, code: 'monitor_not_found' },
  };
});
afterAll(() => stack.stop());

it('has routes to check', () => {
  expect(keyed.length).toBeGreaterThan(3);
  expect(scoped.length).toBeGreaterThan(2);
});

describe.each(keyed.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_label, route) => {
  it('401 missing_api_key without a bearer header (also for other schemes)', async () => {
    expectError(await call(route, anyIds(route)), 401, 'missing_api_key');
    expectError(await call(route, anyIds(route), { Authorization: 'Basic dXNlcjpwYXNz' }), 401, 'missing_api_key');
  });

  it('401 invalid_api_key for an unknown, revoked or expired key', async () => {
    expectError(await call(route, anyIds(route), { Authorization: 'Bearer sk_live_notarealkey' }), 401, 'invalid_api_key');
    const revoked = await keyFor(stack.db, caller.workspace);
    await apiKeyRepository(stack.db).revoke(revoked.key.id);
    expectError(await call(route, anyIds(route), revoked.headers), 401, 'invalid_api_key');
    const expired = await keyFor(stack.db, caller.workspace, { expiresAt: new Date(Date.now() - 1000) });
    expectError(await call(route, anyIds(route), expired.headers), 401, 'invalid_api_key');
  });

  it('403 api_access_disabled when the workspace has API access off, or is frozen', async () => {
    const disabled = await workspaceWithKey(stack.db, { workspace: { api_access_enabled: false } });
    expectError(await call(route, anyIds(route), disabled.headers), 403, 'api_access_disabled');
    const frozen = await workspaceWithKey(stack.db, { workspace: { frozen: true } });
    const res = await call(route, anyIds(route), frozen.headers);
    expectError(res, 403, 'api_access_disabled');
    expect(res.body.error.details).toEqual({ reason: 'frozen' });
  });
});

describe.each(scoped.map((r) => [`${r.method} ${r.path} (${r.auth})`, r] as const))('%s', (_label, route) => {
  it('403 insufficient_scope for a key without the scope, before any work is done', async () => {
    const otherScope = route.auth === 'feedback:write' ? 'usage:read' : 'feedback:write';
    const narrow = await keyFor(stack.db, caller.workspace, { scopes: [otherScope] });
    const projectsBefore = (await projectRepository(stack.db).listRecent(caller.workspace.id)).total;
    const res = await call(route, anyIds(route), narrow.headers);
    expectError(res, 403, 'insufficient_scope');
    expect(res.body.error.details).toEqual({ required_scope: route.auth });
    expect((await projectRepository(stack.db).listRecent(caller.workspace.id)).total).toBe(projectsBefore);
  });

  it('passes the scope check with exactly that scope', async () => {
    const exact = await keyFor(stack.db, caller.workspace, { scopes: [route.auth] });
    const res = await call(route, anyIds(route), exact.headers);
    expect(res.status).not.toBe(401);
    expect(res.body?.error?.code).not.toBe('insufficient_scope');
  });
});

if (withIds.length) {
  describe.each(withIds.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_label, route) => {
    it("answers the resource's 404 for another workspace's id and for a malformed id", async () => {
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const name of names) if (!foreignIds[name]) throw new Error(`add a foreign-id fixture for {${name}} to this test`);
      // The outermost resource is looked up first, so its 404 code is the answer.
      const expected = foreignIds[names[0]].code;
      expectError(
        await call(
          route,
          fill(route, (n) => foreignIds[n].id),
          caller.headers,
        ),
        404,
        expected,
      );
      expectError(
        await call(
          route,
          fill(route, () => 'not-a-uuid'),
          caller.headers,
        ),
        404,
        expected,
      );
    });
  });
}

it('the unauthenticated routes answer without a key, with rate-limit headers', async () => {
  for (const route of routeTable.filter((r) => r.auth === 'none')) {
    const res = await stack.request(route.method, `/v1${route.path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  }
});
