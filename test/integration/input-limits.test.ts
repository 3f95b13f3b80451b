import { briefTooLong } from '../../src/briefs/brief-limits';
import { MAX_JSON_DEPTH } from '../../api/middleware/json-body';
import { gzipSync } from 'node:zlib';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { workspaceWithMembers } from '../support/session';
import { createProject, launch, softwareCriteria, waitForSearch } from '../support/searches';
import type { HttpsReceiver } from '../support/https-receiver';
import { startTestStack, type TestStack } from '../support/stack';
import { expectSignedEnvelope, SINK_ENV, startWebhookSink } from '../support/webhook-sink';

/**
 * Inputs a new user's generated requests turned into 500s: NUL characters (Postgres refuses them
 * in text and jsonb), deeply nested bodies (recursive canonicalisation) and integers beyond
 * Postgres's range. Each is a 400 naming the problem.
 */

let stack: TestStack;
let sink: HttpsReceiver;
let caller: KeyFixture;
let projectId: string;
beforeAll(async () => {
  // The caller's endpoints receive its searches' events: on a local sink, checked below.
  sink = await startWebhookSink();
  stack = await startTestStack({ env: SINK_ENV });
  caller = await workspaceWithKey(stack.db, { credits: 100 });
  projectId = await createProject(stack, caller.headers);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await sink?.close();
});

const nested = (depth: number): unknown => {
  let value: unknown = 'TypeScript';
  for (let i = 0; i < depth; i++) value = { skills: value };
  return value;
};
/** The JSON text of `{"<key>": <depth nested objects>}`, written out (JSON.stringify would recurse). */
const deepJson = (key: string, depth: number, extra = '') => `{${extra}"${key}":${'{"skills":'.repeat(depth)}"x"${'}'.repeat(depth)}}`;

describe('NUL characters', () => {
  it('in a project name: 400 invalid_name naming the field', async () => {
    const res = await stack.request('POST', '/v1/projects', { headers: caller.headers, body: { name: 'Back\u0000end' } });
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_name']);
    expect(res.body.error.details.problems).toEqual([{ field: 'name', message: 'must not contain NUL (\\u0000) characters' }]);
  });

  it('in criteria values and keys: 400 invalid_criteria listing every path', async () => {
    const res = await launch(stack, caller.headers, projectId, {
      criteria: { ...softwareCriteria, skills: ['Type\u0000Script', 'Go'], 'me\u0000tro': 'x' },
    });
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_criteria']);
    const fields = (res.body.error.details.problems as { field: string; message: string }[]).filter((p) => p.message.includes('NUL')).map((p) => p.field);
    expect(fields.sort()).toEqual(['criteria.me\u0000tro', 'criteria.skills.0']);
  });

  it('in jd_text, a webhook URL and a query value: 400 invalid_request naming the field', async () => {
    const jd = await launch(stack, caller.headers, projectId, { jd_text: `${'Senior TypeScript engineer, '.repeat(3)}\u0000` });
    expect([jd.status, jd.body.error.code, jd.body.error.details.problems[0].field]).toEqual([400, 'invalid_request', 'jd_text']);

    const hook = await stack.request('POST', '/v1/webhooks', { headers: caller.headers, body: { url: `${sink.origin}/ho\u0000ok` } });
    expect([hook.status, hook.body.error.code, hook.body.error.details.problems[0].field]).toEqual([400, 'invalid_request', 'url']);

    const search = await launch(stack, caller.headers, projectId, { criteria: softwareCriteria });
    expect(search.status).toBe(201);
    const people = await stack.request('GET', `/v1/searches/${search.body.data.id}/people?profile=tr%00ue`, { headers: caller.headers });
    expect([people.status, people.body.error.code, people.body.error.details.problems[0].field]).toEqual([400, 'invalid_request', 'profile']);
    await waitForSearch(stack, caller.headers, search.body.data.id);
  });
});

describe('deeply nested bodies', () => {
  it(`are refused beyond ${MAX_JSON_DEPTH} levels before anything recursive runs`, async () => {
    const post = (path: string, rawBody: string, headers: Record<string, string> = {}) =>
      stack.request('POST', path, { headers: { ...caller.headers, ...headers, 'content-type': 'application/json' }, rawBody });
    const launchHeaders = { 'Idempotency-Key': 'deep-nesting-1' };
    for (const rawBody of [deepJson('criteria', 5000), deepJson('criteria', MAX_JSON_DEPTH)]) {
      const res = await post(`/v1/projects/${projectId}/searches`, rawBody, launchHeaders);
      expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
      expect(res.body.error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    }
    const project = await post('/v1/projects', deepJson('extra', 10_000, '"name":"x",'));
    expect([project.status, project.body.error.code]).toEqual([400, 'invalid_request']);
  });

  it('at the limit are read as usual (refused by the schema, not by depth)', async () => {
    const res = await launch(stack, caller.headers, projectId, { criteria: { ...softwareCriteria, skills: nested(MAX_JSON_DEPTH - 3) } });
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_criteria']);
    expect(res.body.error.message).not.toContain('deeper than');
  });
});

describe('a JSON null body (found by the fuzz test)', () => {
  it('is refused where the route takes an object or no body, and changes nothing', async () => {
    const search = await launch(stack, caller.headers, projectId, { criteria: softwareCriteria });
    expect(search.status).toBe(201);
    await waitForSearch(stack, caller.headers, search.body.data.id);
    const hook = await stack.request('POST', '/v1/webhooks', { headers: caller.headers, body: { url: `${sink.origin}/hooks/null-body` } });
    const passesBefore = await stack.db('search_passes').where({ search_id: search.body.data.id }).count();
    for (const path of [`/v1/searches/${search.body.data.id}/database-pass`, `/v1/webhooks/${hook.body.data.id}/test`, '/v1/projects']) {
      const res = await stack.request('POST', path, { headers: { ...caller.headers, 'content-type': 'application/json' }, rawBody: 'null' });
      expect([path, res.status]).toEqual([path, 400]);
    }
    expect(await stack.db('search_passes').where({ search_id: search.body.data.id }).count()).toEqual(passesBefore);
    // Left out entirely, the body of a route that takes none is still fine.
    const noBody = await stack.request('POST', `/v1/searches/${search.body.data.id}/database-pass`, { headers: caller.headers });
    expect(noBody.status).toBe(202);
    // The endpoint received the pass's events, signed, and no test event (the null bodies were refused).
    const [completed] = await sink.waitFor('/hooks/null-body', 1);
    const arrived = sink.received.filter((r) => r.path === '/hooks/null-body');
    expect(arrived.map((r) => r.json.type)).not.toContain('webhook.test');
    await expectSignedEnvelope(stack.db, completed, hook.body.data.secret, caller.workspace.id);
  }, 60_000);
});

describe('integers beyond range in page queries', () => {
  it('people: offset and min_score out of range, and empty values, are 400 listing the problem; limit is clamped', async () => {
    const search = await launch(stack, caller.headers, projectId, { criteria: softwareCriteria });
    expect(search.status).toBe(201);
    await waitForSearch(stack, caller.headers, search.body.data.id);
    const get = (query: string) => stack.request('GET', `/v1/searches/${search.body.data.id}/people?${query}`, { headers: caller.headers });

    for (const [query, field] of [
      ['offset=2147483648', 'offset'],
      ['offset=9007199254740991', 'offset'],
      ['offset=99999999999999999999', 'offset'],
      ['min_score=2147483648', 'min_score'],
      ['min_score=9007199254740991', 'min_score'],
      ['min_score=-1', 'min_score'],
      ['min_score=101', 'min_score'],
      // Empty or blank values are not numbers (they were read as 0; found by the fuzz test).
      ['limit=', 'limit'],
      ['offset=%20', 'offset'],
      ['min_score=', 'min_score'],
    ]) {
      const res = await get(query);
      expect([query, res.status, res.body.error.code, [...new Set(res.body.error.details.problems.map((p: { field: string }) => p.field))]]).toEqual([
        query,
        400,
        'invalid_request',
        [field],
      ]);
    }
    for (const query of ['offset=2147483647', 'min_score=100&limit=9007199254740991', 'min_score=0&limit=-9007199254740991']) {
      expect([query, (await get(query)).status]).toEqual([query, 200]);
    }
  }, 90_000);

  it('webhook deliveries: offset out of range is 400; limit is clamped', async () => {
    const hook = await stack.request('POST', '/v1/webhooks', { headers: caller.headers, body: { url: `${sink.origin}/hooks/limits` } });
    expect(hook.status).toBe(201);
    const get = (query: string) => stack.request('GET', `/v1/webhooks/${hook.body.data.id}/deliveries?${query}`, { headers: caller.headers });
    for (const [query, field] of [
      ['offset=2147483648', 'offset'],
      ['offset=9007199254740991', 'offset'],
      ['offset=', 'offset'],
      ['limit=', 'limit'],
    ]) {
      const res = await get(query);
      expect([query, res.status, res.body.error.code, res.body.error.details.problems[0].field]).toEqual([query, 400, 'invalid_request', field]);
    }
    for (const query of ['offset=2147483647', 'limit=9007199254740991', 'limit=-9007199254740991']) {
      expect([query, (await get(query)).status]).toEqual([query, 200]);
    }
  });
});

describe('found by the fuzz test on the data endpoints', () => {
  it('an Idempotency-Key header sent empty is refused, not read as absent, and bills nothing', async () => {
    const before = await stack.db('cost_events').where({ workspace_id: caller.workspace.id }).count({ n: '*' }).first();
    const res = await stack.request('POST', '/v1/data/search/web', { headers: { ...caller.headers, 'Idempotency-Key': '' }, body: { query: 'engineering' } });
    expect([res.status, res.body.error.code, res.body.error.details.problems[0].field]).toEqual([400, 'invalid_request', 'Idempotency-Key']);
    expect(await stack.db('cost_events').where({ workspace_id: caller.workspace.id }).count({ n: '*' }).first()).toEqual(before);
  });

  it('a literal path is not taken for a template: OPTIONS /data/people/search allows POST only', async () => {
    const res = await stack.request('OPTIONS', '/v1/data/people/search', { headers: caller.headers });
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

describe('messages and statuses the outside probe found misleading', () => {
  it('a text over its limit says "too long", not "is required" (intake rawInput, sign-in password and email)', async () => {
    const ws = await workspaceWithMembers(stack);
    const intake = await stack.request('POST', '/api/intake', { headers: ws.operator.headers, body: { rawInput: 'x'.repeat(20_001) } });
    expect([intake.status, intake.body.error]).toEqual([400, `rawInput: ${briefTooLong('rawInput')}`]);
    expect(intake.body.error).toContain('rawInput is too long: at most 20,000 characters');
    const password = await stack.request('POST', '/api/auth/sign-in', { body: { email: ws.operator.email, password: 'p'.repeat(1_000_000) } });
    expect([password.status, password.body.error]).toEqual([400, 'password: password is too long: at most 1,024 characters']);
    const email = await stack.request('POST', '/api/auth/sign-in', { body: { email: `${'e'.repeat(400)}@example.test`, password: 'whatever1' } });
    expect([email.status, email.body.error]).toEqual([400, 'email: email is too long: at most 320 characters']);
    // Missing is still "is required".
    const missing = await stack.request('POST', '/api/auth/sign-in', { body: { email: ws.operator.email } });
    expect([missing.status, missing.body.error]).toEqual([400, 'password: password is required']);
  });

  it('a compressed body (Content-Encoding: gzip) is 415 unsupported_media_type on both APIs, not "not valid UTF-8"', async () => {
    const send = (path: string, headers: Record<string, string>, json: unknown, encoding = 'gzip') =>
      fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-encoding': encoding },
        body: gzipSync(JSON.stringify(json)),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
    const keyApi = await send('/v1/projects', caller.headers, { name: 'Compressed' });
    expect([keyApi.status, keyApi.body.error.code]).toEqual([415, 'unsupported_media_type']);
    expect(keyApi.body.error.message).toMatch(/must not be compressed \(Content-Encoding: gzip\)/);
    const sessionApi = await send('/api/auth/sign-in', {}, { email: 'a@example.test', password: 'whatever1' }, 'deflate, gzip');
    expect([sessionApi.status, sessionApi.body.code]).toEqual([415, 'unsupported_media_type']);
    // identity is no encoding at all.
    const plain = await fetch(`${stack.url}/v1/projects`, {
      method: 'POST',
      headers: { ...caller.headers, 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: JSON.stringify({ name: 'Plain' }),
    });
    expect(plain.status).toBe(201);
  });

  it('a query parameter given twice is 400 saying so (not "expected number, received NaN")', async () => {
    const search = await launch(stack, caller.headers, projectId, { criteria: softwareCriteria });
    expect(search.status).toBe(201);
    const res = await stack.request('GET', `/v1/searches/${search.body.data.id}/people?limit=1&limit=2&min_score=x`, { headers: caller.headers });
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
    expect(res.body.error.details.problems).toEqual([
      { field: 'limit', message: 'must be given once, not 2 times' },
      { field: 'min_score', message: expect.any(String) },
    ]);
    const usage = await stack.request('GET', '/v1/usage?from=2026-11-01&from=2026-11-02&from=2026-11-03', { headers: caller.headers });
    expect([usage.status, usage.body.error.details.problems]).toEqual([400, [{ field: 'from', message: 'must be given once, not 3 times' }]]);
  });
});
