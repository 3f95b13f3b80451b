import { INDUSTRIES, ROLE_FAMILIES } from '../../src/reference/taxonomy';
import { parseCriteria } from '../../src/domain/criteria';
import { keyFor, workspaceWithKey } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let headers: Record<string, string>;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  const fixture = await workspaceWithKey(stack.db);
  // Reference reads need any valid key, whatever its scopes.
  headers = (await keyFor(stack.db, fixture.workspace, { scopes: ['usage:read'] })).headers;
});
afterAll(() => stack.stop());

describe('GET /v1/reference/criteria', () => {
  it('describes every criteria field with type, bounds, allowed values and a valid example', async () => {
    const res = await stack.request('GET', '/v1/reference/criteria', { headers });
    expect(res.status).toBe(200);
    const { fields, example } = res.body.data;
    const names = (Array.isArray(fields) ? fields.map((f: { name: string }) => f.name) : Object.keys(fields)).sort();
    expect(names).toEqual(
      [
        'exclude_companies',
        'family',
        'industries',
        'locations',
        'metro',
        'mode',
        'must_have_skills',
        'read_budget',
        'seniority',
        'shortlist_threshold',
        'skills',
        'target',
        'titles',
        'years_experience',
      ].sort(),
    );
    expect(JSON.stringify(res.body.data)).toContain(ROLE_FAMILIES[0].id);
    expect(JSON.stringify(res.body.data)).toContain('/reference/industries');
    expect(parseCriteria(example).ok).toBe(true);
  });
});

describe('GET /v1/reference/industries', () => {
  it('matches case-insensitively, prefix matches first, at most 200', async () => {
    const all = await stack.request('GET', '/v1/reference/industries', { headers });
    expect(all.body.data).toHaveLength(Math.min(200, INDUSTRIES.length));
    expect(all.body.meta.total).toBe(all.body.data.length);
    const soft = await stack.request('GET', '/v1/reference/industries?q=SOFT', { headers });
    expect(soft.body.data).toContain('Software Development');
    expect(soft.body.data.every((i: string) => i.toLowerCase().includes('soft'))).toBe(true);
    const none = await stack.request('GET', '/v1/reference/industries?q=zzzz', { headers });
    expect(none.body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('needs a key', async () => {
    expect((await stack.request('GET', '/v1/reference/industries')).body.error.code).toBe('missing_api_key');
  });
});
