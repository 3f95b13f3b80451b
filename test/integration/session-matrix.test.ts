import { randomUUID } from 'node:crypto';
import { sessionRoutes } from '../../api/session/session.routes';
import type { SessionRouteDef } from '../../api/session/session-route-def';
import { createCampaign } from '../../src/campaigns/campaigns.service';
import { createCredential } from '../../src/credentials/credentials.service';
import { ROLES, type Role } from '../../src/db/membership.repository';
import { projectRepository } from '../../src/db/project.repository';
import { roleAtLeast } from '../../src/users/users.service';
import { memberOf, sessionsOf, TEST_PASSWORD, workspaceWithMembers, type Member } from '../support/session';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * Generated from the session route table: every route × no cookie, expired session, another
 * workspace's id, frozen workspace, each role. Refused requests must change nothing.
 */

let stack: TestStack;
type Fixture = Awaited<ReturnType<typeof workspaceWithMembers>> & { ids: Record<string, string>; projectId: string };
let a: Fixture;
let b: Fixture;
let frozenAdmin: Member;
let expired: Member;

async function fixture(): Promise<Fixture> {
  const ws = await workspaceWithMembers(stack);
  const project = await projectRepository(stack.db).create(ws.workspace.id, 'Matrix project');
  const credential = await createCredential(stack.db, stack.config, ws.workspace.id, { provider: 'brave', apiKey: `brave-${randomUUID()}`, label: 'default' });
  const campaign = await createCampaign(stack.db, ws.workspace.id, ws.admin.userId, { name: 'Matrix', channel: 'social' });
  return { ...ws, projectId: project.id, ids: { credential: credential.id, campaign: campaign.id } };
}

/** The record a route's `{id}` names, per route family. */
const recordKind = (route: SessionRouteDef) => (route.path.startsWith('/admin/credentials') ? 'credential' : 'campaign');

function bodyFor(route: SessionRouteDef, f: Fixture): unknown {
  switch (route.name) {
    case 'switch_workspace':
      return { workspace_id: f.workspace.id };
    case 'create_credential':
      return { provider: 'hunter', apiKey: `hunter-${randomUUID()}` };
    case 'intake':
    case 'intake_builtin':
      return { rawInput: 'Senior backend engineer in Berlin' };
    case 'create_scan':
      return { project_id: f.projectId, criteria: { family: 'software_engineering' } };
    case 'create_campaign':
      return { name: 'From matrix', channel: 'email' };
    default:
      return undefined;
  }
}

function call(route: SessionRouteDef, f: Fixture, cookie: string | undefined, idsOf: Fixture = f) {
  const path = `/api${route.path.replace('{id}', idsOf.ids[recordKind(route)])}`;
  const headers: Record<string, string> = { 'Idempotency-Key': `matrix-${randomUUID()}` };
  if (cookie) headers.Cookie = cookie;
  return stack.request(route.method, path, { headers, body: bodyFor(route, f) });
}

/** Every row the session API can write for a workspace, as one comparable value. */
async function snapshot(workspaceId: string) {
  const db = stack.db;
  const [credentials, campaigns, searches, ledger, memberships] = await Promise.all([
    db('credentials').where({ workspace_id: workspaceId }).orderBy('id'),
    db('campaigns').where({ workspace_id: workspaceId }).orderBy('id'),
    db('searches').where({ workspace_id: workspaceId }).orderBy('id'),
    db('credit_ledger').where({ workspace_id: workspaceId }).orderBy('id'),
    db('memberships').where({ workspace_id: workspaceId }).orderBy('user_id'),
  ]);
  const sessions = await db('sessions').where({ workspace_id: workspaceId }).orderBy('id').select('id', 'workspace_id', 'user_id');
  return JSON.stringify({ credentials, campaigns, searches, ledger, memberships, sessions });
}

const guarded = sessionRoutes.filter((r) => r.access !== 'public');

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  a = await fixture();
  b = await fixture();
  const frozen = await workspaceWithMembers(stack, { workspace: { frozen: true } });
  frozenAdmin = frozen.admin;
  expired = await memberOf(stack, a.workspace, 'admin');
  await stack
    .db('sessions')
    .where({ user_id: expired.userId })
    .update({ expires_at: stack.db.raw("now() - interval '1 minute'") });
});
afterAll(async () => {
  await stack?.stop();
});

it('the table covers the routes the issue names', () => {
  expect(guarded.map((r) => `${r.method} ${r.path}`)).toEqual(
    expect.arrayContaining([
      'GET /me',
      'POST /admin/credentials',
      'POST /intake',
      'POST /intake/builtin',
      'GET /scans',
      'POST /scans',
      'POST /campaigns/{id}/launch',
      'POST /auth/sign-out',
    ]),
  );
});

describe.each(guarded.map((r) => [`${r.method} /api${r.path}`, r] as const))('%s', (_name, route) => {
  it('refuses without a cookie, with an expired session, and for a frozen workspace (unless allowed); nothing changes', async () => {
    const before = await snapshot(a.workspace.id);
    const none = await call(route, a, undefined);
    expect([none.status, none.body]).toEqual([401, { error: 'Sign in required' }]);
    const stale = await call(route, a, expired.cookie);
    expect([stale.status, stale.body]).toEqual([401, { error: 'Sign in required' }]);
    const garbage = await call(route, a, 'sid=not-a-session');
    expect(garbage.status).toBe(401);
    expect(await snapshot(a.workspace.id)).toBe(before);
    if (!route.allowedWhenFrozen) {
      const frozen = await call(route, a, frozenAdmin.cookie);
      expect(frozen.status).toBe(403);
      expect(frozen.body.code).toBe('frozen');
    }
  });

  it.each(ROLES.map((r) => [r] as const))('role %s', async (role: Role) => {
    // Signing out ends the session: use a fresh one so later routes still have theirs.
    const member = route.name === 'sign_out' ? await memberOf(stack, a.workspace, role) : a[role];
    const before = await snapshot(a.workspace.id);
    const res = await call(route, a, member.cookie);
    if (roleAtLeast(role, route.access as Role)) {
      expect([401, 403]).not.toContain(res.status);
    } else {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String), code: 'forbidden' });
      expect(await snapshot(a.workspace.id)).toBe(before);
    }
  });

  if (route.path.includes('{id}')) {
    it("another workspace's record is 404 and stays unchanged", async () => {
      const before = await snapshot(a.workspace.id);
      const res = await call(route, b, b.admin.cookie, a);
      expect(res.status).toBe(404);
      expect(await snapshot(a.workspace.id)).toBe(before);
    });
  }
});

// Signing in is a write too (login CSRF): every non-GET route, public ones included.
describe.each(sessionRoutes.filter((r) => r.method !== 'GET').map((r) => [`${r.method} /api${r.path}`, r] as const))('%s', (_name, route) => {
  it('a write from another origin is 403 csrf before anything else, and nothing changes', async () => {
    const before = await snapshot(a.workspace.id);
    const path = `/api${route.path.replace('{id}', a.ids[recordKind(route)])}`;
    const body = route.name === 'sign_in' ? { email: a.admin.email, password: TEST_PASSWORD } : bodyFor(route, a);
    const res = await stack.request(route.method, path, {
      headers: { Cookie: a.admin.cookie, Origin: 'https://evil.example', 'Idempotency-Key': `matrix-${randomUUID()}` },
      body,
    });
    expect([res.status, res.body]).toEqual([403, { error: 'Cross-site request refused', code: 'csrf' }]);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await snapshot(a.workspace.id)).toBe(before);
  });
});

it('lists never show another workspace', async () => {
  const lists = await Promise.all(guarded.filter((r) => r.method === 'GET').map((r) => call(r, b, b.admin.cookie)));
  for (const res of lists) {
    expect(res.status).toBe(200);
    for (const id of [a.workspace.id, a.ids.credential, a.ids.campaign, a.projectId]) expect(res.text).not.toContain(id);
  }
  // The sessions used above still belong to their users only.
  expect((await sessionsOf(stack.db, b.admin.userId)).every((s: { workspace_id: string }) => s.workspace_id === b.workspace.id)).toBe(true);
});
