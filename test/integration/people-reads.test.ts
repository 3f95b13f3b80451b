import { startApiServer, type ApiServer } from '../../api/api-server';
import { apiKeyRepository } from '../../src/db/api-key.repository';
import { createDb, type Db } from '../../src/db/knex';
import { createLogger } from '../../src/logger';
import { awayFromWindowEdge, keyFor, workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { projectWithScoredPeople } from '../support/searches';
import { request, startTestStack, type TestStack } from '../support/stack';

/**
 * A people page read costs one SQL round trip: the key, its rate limit and the search's
 * version come from one authenticate_key call, and a completed search's page from the process's
 * cache. With every guarantee kept: rate limits exact across API processes, a revoked key refused
 * within 1 s, no stale page after the search's people change.
 */
let stack: TestStack;
let owner: KeyFixture;
let searchId: string;
let secondDb: Db;
let second: ApiServer;
beforeAll(async () => {
  stack = await startTestStack();
  owner = await workspaceWithKey(stack.db, { credits: 5 });
  ({
    search: { id: searchId },
  } = await projectWithScoredPeople(stack, owner.headers, { listed: 0 }));
  // A second API process: its own pool, the same database.
  secondDb = createDb(stack.config.databaseUrl, 10);
  second = await startApiServer({ config: stack.config, db: secondDb, temporal: stack.temporal, logger: createLogger('silent', 'second-api') });
});
afterAll(async () => {
  await second?.close();
  await secondDb?.destroy();
  await stack?.stop();
});

const pageOf = (id: string, profile = true) => `/v1/searches/${id}/people?limit=20&profile=${profile}`;

it('a cached page costs one SQL round trip: key, rate limit and search version together', async () => {
  expect((await stack.request('GET', pageOf(searchId), { headers: owner.headers })).status).toBe(200); // fills the cache
  const statements: string[] = [];
  const count = (q: { sql: string }) => statements.push(q.sql);
  stack.db.on('query', count);
  try {
    for (let i = 0; i < 5; i++) expect((await stack.request('GET', pageOf(searchId), { headers: owner.headers })).status).toBe(200);
  } finally {
    stack.db.off('query', count);
  }
  // last_used_at is refreshed at most once a minute, and it was just refreshed by the first read.
  expect(statements).toEqual(Array(5).fill(expect.stringMatching(/from authenticate_key\(/)));
});

it("another workspace's search and a malformed id are 404, as before", async () => {
  const stranger = await workspaceWithKey(stack.db);
  const res = await stack.request('GET', pageOf(searchId), { headers: stranger.headers });
  expect([res.status, res.body.error.code]).toEqual([404, 'search_not_found']);
  const malformed = await stack.request('GET', pageOf('not-a-uuid'), { headers: owner.headers });
  expect([malformed.status, malformed.body.error.code]).toEqual([404, 'search_not_found']);
});

it('rate limits stay exact across two API processes', async () => {
  const { headers } = await keyFor(stack.db, owner.workspace, { keyRateLimit: 30 });
  await awayFromWindowEdge();
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => request(i % 2 ? second.url : stack.url, 'GET', pageOf(searchId, false), { headers })));
  expect(results.filter((r) => r.status === 200)).toHaveLength(30);
  expect(results.filter((r) => r.status === 429)).toHaveLength(20);
});

it('a revoked key is refused within 1 s on a cached page, by both processes', async () => {
  const { key, headers } = await keyFor(stack.db, owner.workspace);
  for (const url of [stack.url, second.url]) expect((await request(url, 'GET', pageOf(searchId), { headers })).status).toBe(200);
  await apiKeyRepository(stack.db).revoke(key.id);
  const revokedAt = Date.now();
  for (const url of [stack.url, second.url]) {
    let res;
    do res = await request(url, 'GET', pageOf(searchId), { headers });
    while (res.status === 200 && Date.now() - revokedAt < 1000);
    expect([res.status, res.body.error.code]).toEqual([401, 'invalid_api_key']);
  }
});

it('after a re-score both processes serve the new scores at once (no stale cached page)', async () => {
  const urls = [stack.url, second.url];
  const page = pageOf(searchId, false).replace('limit=20', 'limit=500');
  const before = await Promise.all(urls.map((url) => request(url, 'GET', page, { headers: owner.headers }))); // cached in both
  expect(before[1].body.data).toEqual(before[0].body.data);
  const applied = await stack.request('POST', `/v1/searches/${searchId}/scoring/apply`, {
    headers: owner.headers,
    body: { criteria: { skills: ['GAAP'] }, weights: { skills: 60, title: 10 } },
  });
  expect(applied.status).toBe(200);
  const stored = new Map(
    (await stack.db('search_people').where({ search_id: searchId, status: 'scored' }).select('candidate_id', 'score')).map((r) => [r.candidate_id, r.score]),
  );
  for (const url of urls) {
    const after = (await request(url, 'GET', page, { headers: owner.headers })).body.data.people;
    expect(after).not.toEqual(before[0].body.data.people);
    expect(after.every((p: { id: string; score: number }) => stored.get(p.id) === p.score)).toBe(true);
  }
});
