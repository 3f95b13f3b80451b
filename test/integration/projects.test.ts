import { projectRepository } from '../../src/db/project.repository';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let caller: KeyFixture;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  caller = await workspaceWithKey(stack.db);
});
afterAll(() => stack.stop());

const post = (body: unknown, headers = caller.headers) => stack.request('POST', '/v1/projects', { headers, body });

describe('POST /v1/projects', () => {
  it('creates a new project on every call, with its share token made at creation', async () => {
    const first = await post({ name: 'Backend hiring' });
    const second = await post({ name: 'Backend hiring' });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Backend hiring', created_at: expect.any(String) });
    expect(second.body.data.id).not.toBe(first.body.data.id);
    const stored = await projectRepository(stack.db).findInWorkspace(caller.workspace.id, first.body.data.id);
    expect(Buffer.from(stored!.share_token, 'base64url')).toHaveLength(32);
  });

  it('counts the 120-character limit in characters, not bytes', async () => {
    expect((await post({ name: '🙂'.repeat(120) })).status).toBe(201);
    expect((await post({ name: 'é'.repeat(120) })).status).toBe(201);
    const tooLong = await post({ name: '🙂'.repeat(121) });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([400, 'invalid_name']);
    expect(tooLong.body.error.details).toEqual({ problems: [{ field: 'name', message: expect.any(String) }], max_length: 120, length: 121 });
  });

  it.each([
    ['empty', { name: '' }],
    ['blank', { name: '   ' }],
    ['missing', {}],
    ['not a string', { name: 42 }],
    ['null', { name: null }],
    ['121 characters', { name: 'x'.repeat(121) }],
  ])('answers 400 invalid_name for a name that is %s', async (_label, body) => {
    const res = await post(body);
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_name']);
  });

  it('answers 400 invalid_request for unknown fields, a non-object body or malformed JSON', async () => {
    expect((await post({ name: 'ok', colour: 'blue' })).body.error.code).toBe('invalid_request');
    expect((await post(['name'])).body.error.code).toBe('invalid_request');
    const malformed = await stack.request('POST', '/v1/projects', { headers: { ...caller.headers, 'content-type': 'application/json' }, rawBody: '{"name":' });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_request']);
  });
});

describe('GET /v1/projects', () => {
  it('lists the 200 most recent, newest first, with meta.total counting all', async () => {
    const fixture = await workspaceWithKey(stack.db);
    const created = [];
    for (let i = 0; i < 203; i++) created.push(await projectRepository(stack.db).create(fixture.workspace.id, `p${i}`));
    const res = await stack.request('GET', '/v1/projects', { headers: fixture.headers });
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(203);
    expect(res.body.data).toHaveLength(200);
    expect(res.body.data[0].name).toBe('p202');
    expect(res.body.data[199].name).toBe('p3');
  });

  it("never shows another workspace's projects", async () => {
    const fixture = await workspaceWithKey(stack.db);
    const res = await stack.request('GET', '/v1/projects', { headers: fixture.headers });
    expect(res.body).toEqual({ data: [], meta: { request_id: expect.any(String), total: 0 } });
  });
});

describe('GET /v1/projects/{projectId}', () => {
  it('reads one project of the workspace', async () => {
    const created = (await post({ name: 'Design' })).body.data;
    const res = await stack.request('GET', `/v1/projects/${created.id}`, { headers: caller.headers });
    expect(res.body.data).toEqual(created);
  });

  it('answers 404 project_not_found for another workspace, an unknown or a malformed id', async () => {
    const elsewhere = await workspaceWithKey(stack.db);
    const theirs = (await post({ name: 'theirs' }, elsewhere.headers)).body.data;
    for (const id of [theirs.id, '7d0c1f1e-0000-4000-8000-000000000000', 'nope', '1; drop table projects']) {
      const res = await stack.request('GET', `/v1/projects/${encodeURIComponent(id)}`, { headers: caller.headers });
      expect([res.status, res.body.error.code]).toEqual([404, 'project_not_found']);
    }
  });
});
