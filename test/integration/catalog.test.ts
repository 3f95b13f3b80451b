import { routeTable } from '../../api/route-table';
import { SCOPES } from '../../src/domain/scopes';
import { keyFor, workspaceWithKey } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(() => stack.stop());

const catalogued = routeTable.filter((r) => r.catalog !== false);

describe('the route table', () => {
  it('gives every route a snake_case name, a unique method+path and exactly one scope (or none/any)', () => {
    const names = routeTable.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const r of routeTable) {
      expect(r.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(['none', 'any', ...SCOPES]).toContain(r.auth);
      expect(r.costLine.length).toBeGreaterThan(3);
      expect(r.summary.length).toBeGreaterThan(3);
    }
    const endpoints = routeTable.map((r) => `${r.method} ${r.path}`);
    expect(new Set(endpoints).size).toBe(endpoints.length);
  });
});

describe('GET /v1/actions', () => {
  it('lists exactly the operations of the router, with any valid key whatever its scopes', async () => {
    const fixture = await workspaceWithKey(stack.db);
    const narrow = await keyFor(stack.db, fixture.workspace, { scopes: ['feedback:write'] });
    const res = await stack.request('GET', '/v1/actions', { headers: narrow.headers });
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(catalogued.length);
    expect(res.body.data).toEqual(
      catalogued.map((r) => ({
        name: r.name,
        method: r.method,
        path: r.path,
        scope: r.auth,
        cost: r.cost,
        cost_line: r.costLine,
        summary: r.summary,
        proposable: r.proposable,
      })),
    );
    expect(res.body.data.map((a: { name: string }) => a.name)).toEqual(expect.arrayContaining(['create_project', 'list_projects', 'get_project', 'list_actions']));
  });

  it('needs a key', async () => {
    expect((await stack.request('GET', '/v1/actions')).status).toBe(401);
  });
});

describe('GET /v1/openapi.json and /docs', () => {
  it('describes every route of the router as OpenAPI 3.1, without a key', async () => {
    const res = await stack.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.servers).toEqual([{ url: stack.config.publicBaseUrl }]);
    const operations = Object.entries(res.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(routeTable.map((r) => `${r.method} ${r.path} ${r.name}`).sort());
    // The request body schema comes from the route's zod schema.
    expect(res.body.paths['/projects'].post.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    expect(res.body.paths['/projects'].post.security).toEqual([{ bearer: ['searches:write'] }]);
  });

  it('serves a readable docs page listing the same operations, without a key', async () => {
    const res = await stack.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const r of routeTable) expect(res.text).toContain(`id="${r.name}"`);
  });
});
