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
    expect(res.body.data.map((a: { name: string }) => a.name)).toEqual(
      expect.arrayContaining(['create_project', 'list_projects', 'get_project', 'list_actions']),
    );
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
    // The request body schema comes from the route's zod schema, as a component.
    expect(res.body.paths['/projects'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateProject' });
    expect(res.body.components.schemas.CreateProject).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', maxLength: 120 } },
      required: ['name'],
    });
    // Typed query parameters, the Idempotency-Key header, optional empty bodies, every error code.
    const people = res.body.paths['/searches/{searchId}/people'].get;
    expect(people.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'path', name: 'searchId', required: true, schema: expect.objectContaining({ format: 'uuid' }) }),
        expect.objectContaining({ in: 'query', name: 'limit', schema: expect.objectContaining({ type: 'integer' }) }),
        expect.objectContaining({ in: 'query', name: 'profile', schema: expect.objectContaining({ type: 'boolean' }) }),
      ]),
    );
    const launch = res.body.paths['/projects/{projectId}/searches'].post;
    expect(launch.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true })]));
    expect(launch.responses['400'].description).toEqual(expect.stringContaining('idempotency_key_required'));
    expect(launch.responses['402'].description).toEqual(expect.stringContaining('shortlist_allocation_exhausted'));
    expect(res.body.paths['/searches/{searchId}/database-pass'].post.requestBody.required).toBe(false);
    expect(Object.keys(res.body.webhooks).sort()).toEqual([
      'billing.topped_up',
      'monitor.matched',
      'search.completed',
      'search.failed',
      'search.queued',
      'search.started',
      'shortlist.changed',
      'webhook.test',
    ]);
    expect(res.body.paths['/projects'].post.security).toEqual([{ bearer: ['searches:write'] }]);
  });

  it('serves a readable docs page listing the same operations, without a key', async () => {
    const res = await stack.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const r of routeTable) expect(res.text).toContain(`id="${r.name}"`);
    // The reference viewer is served by us, not a CDN, and reads our document.
    expect(res.text).toContain('data-url="/v1/openapi.json"');
    const bundle = await stack.request('GET', '/docs/scalar.js');
    expect([bundle.status, bundle.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(bundle.text.length).toBeGreaterThan(100_000);
    // Only /docs is loosened: the share pages keep the no-script policy.
    expect((await stack.request('GET', '/share/nope')).headers.get('content-security-policy')).not.toContain('script-src');
  });
});
