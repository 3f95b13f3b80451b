import fs from 'node:fs';
import path from 'node:path';
import { bridgedRole } from '../../api/session/key-api-bridge';
import { APP_DIST_DIR } from '../../api/web/app.page';
import { routeTable } from '../../api/route-table';
import { startAppStack } from '../support/app-browser';
import { workspaceWithMembers } from '../support/session';
import type { TestStack } from '../support/stack';

/** How `start:api` serves the built app (npm test builds it first), and the key API behind the session at /api/v1. */

let stack: TestStack;
beforeAll(async () => {
  stack = await startAppStack({ worker: false });
});
afterAll(async () => {
  await stack?.stop();
});

describe('the built app at /app', () => {
  it('answers index.html for client routes (never cached) and hashed assets cached for a year, under a CSP without inline scripts', async () => {
    for (const p of ['/app/', '/app/projects/123', '/app/webhooks']) {
      const res = await fetch(`${stack.url}${p}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("style-src 'self';");
      expect(csp).not.toContain('unsafe');
      const html = await res.text();
      expect(html).toMatch(/<script type="module" crossorigin src="\/app\/assets\/index-[\w-]+\.js"><\/script>/);
      expect(html).not.toMatch(/<script(?![^>]*src=)[^>]*>/); // no inline script
    }
    const assets = fs.readdirSync(path.join(APP_DIST_DIR, 'assets'));
    const js = assets.find((f) => f.endsWith('.js'))!;
    const asset = await fetch(`${stack.url}/app/assets/${js}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${stack.url}/app/assets/missing-0000.js`)).status).toBe(404);
    const bare = await fetch(`${stack.url}/app`, { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('/app/');
  });
});

describe('the key API behind the session at /api/v1', () => {
  it('refuses without a session, from another origin, below the role; answers the key API shape otherwise', async () => {
    const ws = await workspaceWithMembers(stack);
    expect(await stack.request('GET', '/api/v1/projects')).toMatchObject({ status: 401, body: { error: 'Sign in required' } });
    const foreign = await stack.request('POST', '/api/v1/projects', { headers: { ...ws.admin.headers, Origin: 'https://evil.example' }, body: { name: 'x' } });
    expect(foreign).toMatchObject({ status: 403, body: { error: 'Cross-site request refused', code: 'csrf' } });
    const viewer = await stack.request('POST', '/api/v1/projects', { headers: ws.viewer.headers, body: { name: 'x' } });
    expect(viewer).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    const operatorHook = await stack.request('POST', '/api/v1/webhooks', { headers: ws.operator.headers, body: { url: 'https://hooks.example.test/x' } });
    expect(operatorHook).toMatchObject({ status: 403, body: { code: 'forbidden' } });

    const created = await stack.request('POST', '/api/v1/projects', { headers: { ...ws.operator.headers, Origin: stack.url }, body: { name: 'From the app' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'From the app' });
    // The same project through the key API: one implementation, one workspace.
    const viaKey = await stack.request('GET', `/v1/projects/${created.body.data.id}`, { headers: ws.headers });
    expect(viaKey.body.data).toEqual(created.body.data);
    const listed = await stack.request('GET', '/api/v1/projects', { headers: ws.viewer.headers });
    expect(listed.body.data.map((p: { id: string }) => p.id)).toContain(created.body.data.id);
    // Validation and not-found answers take the session API's `{error, code}` shape.
    const invalid = await stack.request('POST', '/api/v1/projects', { headers: ws.operator.headers, body: {} });
    expect(invalid.status).toBe(400);
    expect(typeof invalid.body.error).toBe('string');
    expect(await stack.request('GET', `/api/v1/projects/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { headers: ws.viewer.headers })).toMatchObject({
      status: 404,
      body: { code: 'project_not_found' },
    });
  });

  it('asks each operation for the role its kind of work needs', () => {
    const roles = Object.fromEntries(routeTable.filter((r) => r.auth !== 'none').map((r) => [`${r.method} ${r.path}`, bridgedRole(r)]));
    expect(roles).toMatchObject({
      'GET /projects': 'viewer',
      'POST /projects': 'operator',
      'POST /projects/{projectId}/searches': 'operator',
      'POST /searches/{searchId}/scoring/preview': 'viewer',
      'POST /projects/{projectId}/shortlist/members': 'operator',
      'GET /webhooks': 'viewer',
      'POST /webhooks': 'admin',
      'POST /webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': 'admin',
      'GET /billing/balance': 'viewer',
      'POST /billing/top-up': 'admin',
      'GET /usage': 'viewer',
    });
  });
});
