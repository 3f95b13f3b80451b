import { rateLimitRepository } from '../../src/db/rate-limit.repository';
import { awayFromWindowEdge, keyFor, workspaceWithKey } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(() => stack.stop());

const nextMinute = () => Math.floor(Date.now() / 60_000) * 60 + 60;

it('with a key limit of 120, 200 simultaneous requests give exactly 120 successes', async () => {
  const { headers } = await workspaceWithKey(stack.db, { keyRateLimit: 120 });
  await awayFromWindowEdge();
  const results = await Promise.all(Array.from({ length: 200 }, () => stack.request('GET', '/v1/projects', { headers })));
  const ok = results.filter((r) => r.status === 200);
  const limited = results.filter((r) => r.status === 429);
  expect(ok).toHaveLength(120);
  expect(limited).toHaveLength(80);
  // Every remaining count from 119 down to 0 was handed out exactly once.
  expect(ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
  for (const r of limited) {
    expect(r.body.error.code).toBe('rate_limited');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(r.body.error.details.retry_after_seconds).toBe(Number(r.headers.get('retry-after')));
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
  }
});

it('counts down the headers and resets at the end of the minute window', async () => {
  const { headers } = await workspaceWithKey(stack.db, { keyRateLimit: 3 });
  await awayFromWindowEdge();
  const seen: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await stack.request('GET', '/v1/projects', { headers });
    seen.push(`${res.status}:${res.headers.get('x-ratelimit-limit')}:${res.headers.get('x-ratelimit-remaining')}`);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBe(nextMinute());
  }
  expect(seen).toEqual(['200:3:2', '200:3:1', '200:3:0', '429:3:0']);
});

it('reports the tighter of the key and workspace limits, and keys of a workspace share its bucket', async () => {
  const first = await workspaceWithKey(stack.db, { keyRateLimit: 100, workspace: { rate_limit_per_minute: 4 } });
  const second = await keyFor(stack.db, first.workspace, { keyRateLimit: 100 });
  await awayFromWindowEdge();
  const a1 = await stack.request('GET', '/v1/projects', { headers: first.headers });
  expect([a1.headers.get('x-ratelimit-limit'), a1.headers.get('x-ratelimit-remaining')]).toEqual(['4', '3']);
  await stack.request('GET', '/v1/projects', { headers: second.headers });
  await stack.request('GET', '/v1/projects', { headers: second.headers });
  const a4 = await stack.request('GET', '/v1/projects', { headers: first.headers });
  expect([a4.status, a4.headers.get('x-ratelimit-remaining')]).toEqual([200, '0']);
  const refused = await stack.request('GET', '/v1/projects', { headers: second.headers });
  expect(refused.status).toBe(429);
  expect(refused.headers.get('x-ratelimit-limit')).toBe('4');
});

it('a request refused by the workspace bucket does not use up the key bucket', async () => {
  const fixture = await workspaceWithKey(stack.db, { keyRateLimit: 5, workspace: { rate_limit_per_minute: 1 } });
  await awayFromWindowEdge();
  expect((await stack.request('GET', '/v1/projects', { headers: fixture.headers })).status).toBe(200);
  expect((await stack.request('GET', '/v1/projects', { headers: fixture.headers })).status).toBe(429);
  const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const keyRow = await stack
    .db('rate_limit_windows')
    .where({ bucket: `key:${fixture.key.id}`, window_start: windowStart })
    .first();
  expect(keyRow.count).toBe(1);
});

it('counts requests without a key per client address, with headers on 401s and health', async () => {
  const limited = await startTestStack({ worker: false, env: { UNAUTHENTICATED_RATE_LIMIT: '2', TRUST_PROXY: 'true' } });
  try {
    const client = { 'X-Forwarded-For': `198.51.100.${Math.floor(Math.random() * 250)}` };
    await stack.db('rate_limit_windows').where('bucket', `ip:${client['X-Forwarded-For']}`).delete();
    await awayFromWindowEdge();
    const health = await limited.request('GET', '/v1/health', { headers: client });
    expect([health.status, health.headers.get('x-ratelimit-limit'), health.headers.get('x-ratelimit-remaining')]).toEqual([200, '2', '1']);
    const unauthorized = await limited.request('GET', '/v1/projects', { headers: client });
    expect([unauthorized.status, unauthorized.headers.get('x-ratelimit-remaining')]).toEqual([401, '0']);
    const refused = await limited.request('GET', '/v1/nowhere', { headers: client });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
  } finally {
    await limited.stop();
  }
});

it('prunes windows that can no longer be read', async () => {
  await stack.db('rate_limit_windows').insert({ bucket: 'key:old', window_start: new Date(Date.now() - 10 * 60_000), count: 5 });
  await rateLimitRepository(stack.db).pruneOld();
  expect(await stack.db('rate_limit_windows').where({ bucket: 'key:old' }).first()).toBeUndefined();
});
