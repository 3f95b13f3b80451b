import { randomUUID } from 'node:crypto';
import { hashSessionToken, SIGN_IN_MAX_FAILURES } from '../../src/users/users.service';
import { workspaceWithKey } from '../support/fixtures';
import { memberOf, sessionsOf, sidOf, signIn, TEST_PASSWORD } from '../support/session';
import { cli } from '../support/cli';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(async () => {
  await stack?.stop();
});

describe('sign-in, cookie and session', () => {
  it('signs in a CLI-created user with an HttpOnly, SameSite=Lax, Path=/ cookie (not Secure over http); /api/me describes the session', async () => {
    const { workspace } = await workspaceWithKey(stack.db);
    const email = `Ops-${randomUUID()}@Example.test`;
    const created = await cli('users', 'create', '--email', email, '--password', TEST_PASSWORD, '--workspace', workspace.id, '--role', 'operator', '--json');
    expect(created.code).toBe(0);
    expect(created.out).not.toContain(TEST_PASSWORD);
    const user = JSON.parse(created.out);
    expect(user).toMatchObject({ email: email.toLowerCase(), workspace_id: workspace.id, role: 'operator' });
    const stored = await stack.db('users').where({ id: user.id }).first();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);

    const res = await stack.request('POST', '/api/auth/sign-in', { body: { email: email.toUpperCase(), password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sid='))!;
    expect(cookie).toMatch(/; path=\//);
    expect(cookie).toMatch(/; httponly/);
    expect(cookie).toMatch(/; samesite=lax/);
    expect(cookie).not.toMatch(/; secure/);
    // Only the token's SHA-256 is stored.
    const token = cookie.split(';')[0].slice('sid='.length);
    const [session] = await sessionsOf(stack.db, user.id);
    expect(session.token_hash).toBe(hashSessionToken(token));
    expect(session.token_hash).not.toContain(token);
    expect(new Date(session.expires_at).getTime() - Date.now()).toBeGreaterThan(13.9 * 24 * 3600 * 1000);

    const me = await stack.request('GET', '/api/me', { headers: { Cookie: sidOf(res) } });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      user: { id: user.id, email: email.toLowerCase() },
      workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan, frozen: false },
      role: 'operator',
      workspaces: [{ id: workspace.id, name: workspace.name, role: 'operator' }],
    });

    // users add: a second workspace; switching moves the session there.
    const other = await workspaceWithKey(stack.db);
    expect((await cli('users', 'add', '--email', email, '--workspace', other.workspace.id, '--role', 'viewer')).code).toBe(0);
    expect((await cli('users', 'create', '--email', email, '--password', TEST_PASSWORD, '--workspace', workspace.id, '--role', 'viewer')).code).toBe(2);
    const switched = await stack.request('POST', '/api/me/workspace', { headers: { Cookie: sidOf(res) }, body: { workspace_id: other.workspace.id } });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ workspace: { id: other.workspace.id }, role: 'viewer' });
    expect((await stack.request('GET', '/api/me', { headers: { Cookie: sidOf(res) } })).body.workspace.id).toBe(other.workspace.id);
    // A workspace the user is not a member of is "not found".
    const stranger = await workspaceWithKey(stack.db);
    const refused = await stack.request('POST', '/api/me/workspace', { headers: { Cookie: sidOf(res) }, body: { workspace_id: stranger.workspace.id } });
    expect(refused.status).toBe(404);
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const { workspace } = await workspaceWithKey(stack.db);
    const member = await memberOf(stack, workspace, 'viewer');
    const wrong = await stack.request('POST', '/api/auth/sign-in', { body: { email: member.email, password: 'not the password' } });
    const unknown = await stack.request('POST', '/api/auth/sign-in', { body: { email: `nobody-${randomUUID()}@example.test`, password: 'whatever1' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const missing = await stack.request('POST', '/api/auth/sign-in', { body: { email: member.email } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/password/);
  });

  it('throttles: after 10 failures for an email within 15 minutes even the right password gets 429', async () => {
    const { workspace } = await workspaceWithKey(stack.db);
    const member = await memberOf(stack, workspace, 'viewer');
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) {
      expect((await stack.request('POST', '/api/auth/sign-in', { body: { email: member.email, password: `wrong-${i}-pass` } })).status).toBe(401);
    }
    const blocked = await stack.request('POST', '/api/auth/sign-in', { body: { email: member.email, password: TEST_PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('too_many_attempts');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    // Another email is not affected; failures older than the window no longer count.
    const other = await memberOf(stack, workspace, 'viewer');
    expect((await stack.request('POST', '/api/auth/sign-in', { body: { email: other.email, password: TEST_PASSWORD } })).status).toBe(200);
    await stack
      .db('sign_in_failures')
      .where({ email: member.email })
      .update({ created_at: stack.db.raw("now() - interval '16 minutes'") });
    expect((await stack.request('POST', '/api/auth/sign-in', { body: { email: member.email, password: TEST_PASSWORD } })).status).toBe(200);
  });

  it('an expired session is 401; a used session slides its expiry; sign-out ends it', async () => {
    const { workspace } = await workspaceWithKey(stack.db);
    const member = await memberOf(stack, workspace, 'viewer');
    const [session] = await sessionsOf(stack.db, member.userId);
    // Sliding: a session last seen a while ago is pushed out to 14 days again.
    await stack
      .db('sessions')
      .where({ id: session.id })
      .update({ last_seen_at: stack.db.raw("now() - interval '2 days'"), expires_at: stack.db.raw("now() + interval '1 day'") });
    const used = await stack.request('GET', '/api/me', { headers: member.headers });
    expect(used.status).toBe(200);
    const slid = await stack.db('sessions').where({ id: session.id }).first();
    expect(new Date(slid.expires_at).getTime() - Date.now()).toBeGreaterThan(13.9 * 24 * 3600 * 1000);
    expect(used.headers.getSetCookie().some((c) => c.startsWith('sid='))).toBe(true);

    await stack
      .db('sessions')
      .where({ id: session.id })
      .update({ expires_at: stack.db.raw("now() - interval '1 second'") });
    const expired = await stack.request('GET', '/api/me', { headers: member.headers });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: 'Sign in required' });

    const again = await memberOf(stack, workspace, 'viewer');
    expect((await stack.request('POST', '/api/auth/sign-out', { headers: again.headers })).status).toBe(200);
    expect((await stack.request('GET', '/api/me', { headers: again.headers })).status).toBe(401);
    expect(await sessionsOf(stack.db, again.userId)).toHaveLength(0);
  });

  it('refuses cookie-authenticated writes from another origin (CSRF) and changes nothing', async () => {
    const { workspace } = await workspaceWithKey(stack.db);
    const admin = await memberOf(stack, workspace, 'admin');
    const body = { provider: 'openai', apiKey: 'sk-csrf-attempt-123' };
    const refused = await stack.request('POST', '/api/admin/credentials', { headers: { ...admin.headers, Origin: 'https://evil.example' }, body });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('csrf');
    expect(await stack.db('credentials').where({ workspace_id: workspace.id })).toHaveLength(0);
    // A browser that sends no Origin still says the request came from another site.
    const noOrigin = await stack.request('POST', '/api/admin/credentials', { headers: { ...admin.headers, 'Sec-Fetch-Site': 'cross-site' }, body });
    expect([noOrigin.status, noOrigin.body.code]).toEqual([403, 'csrf']);
    expect(await stack.db('credentials').where({ workspace_id: workspace.id })).toHaveLength(0);
    expect((await stack.request('POST', '/api/admin/credentials', { headers: { ...admin.headers, 'Sec-Fetch-Site': 'same-origin' }, body })).status).toBe(200);
    // The app's own origin, and no Origin at all (non-browser clients), are accepted.
    const same = await stack.request('POST', '/api/admin/credentials', { headers: { ...admin.headers, Origin: stack.config.appUrl }, body });
    expect(same.status).toBe(200);
    expect((await stack.request('POST', '/api/admin/credentials', { headers: admin.headers, body })).status).toBe(200);
    // Reads are not writes.
    expect((await stack.request('GET', '/api/me', { headers: { ...admin.headers, Origin: 'https://evil.example' } })).status).toBe(200);
  });

  it('a frozen workspace can sign in and read /api/me, and nothing else', async () => {
    const { workspace } = await workspaceWithKey(stack.db, { workspace: { frozen: true } });
    const admin = await memberOf(stack, workspace, 'admin');
    const me = await stack.request('GET', '/api/me', { headers: admin.headers });
    expect(me.status).toBe(200);
    expect(me.body.workspace.frozen).toBe(true);
    const scans = await stack.request('GET', '/api/scans', { headers: admin.headers });
    expect(scans.status).toBe(403);
    expect(scans.body).toEqual({ error: expect.any(String), code: 'frozen' });
    expect((await stack.request('POST', '/api/auth/sign-out', { headers: admin.headers })).status).toBe(200);
  });
});

describe('paths under /api that are no session route', () => {
  it('answer in the session error shape: 404 `{error}` for an unknown path, 405 `{error}` with Allow for another method', async () => {
    // /api/v1 holds the key API's operations behind the session (app-serving.test.ts); its unknown paths are 404 too.
    for (const path of ['/api/nope', '/api', '/api/scans/extra', '/api/v1/nope']) {
      const res = await stack.request('GET', path);
      expect([res.status, res.body]).toEqual([404, { error: `No route for GET ${path}` }]);
    }
    const wrongMethod = await stack.request('PUT', '/api/scans', { body: {} });
    expect([wrongMethod.status, wrongMethod.body]).toEqual([405, { error: expect.stringMatching(/PUT is not allowed/) }]);
    expect(wrongMethod.headers.get('allow')).toBe('HEAD, GET, POST');
    const bridged = await stack.request('PUT', '/api/v1/projects', { body: {} });
    expect([bridged.status, bridged.headers.get('allow')]).toEqual([405, 'POST, HEAD, GET']);
    // The key API keeps its own envelope.
    const keyApi = await stack.request('GET', '/v1/nope');
    expect([keyApi.status, keyApi.body.error.code]).toEqual([404, 'not_found']);
  });
});

describe('Secure cookie', () => {
  it('is Secure when APP_URL is https', async () => {
    const https = await startTestStack({ worker: false, env: { APP_URL: 'https://app.example.test' } });
    try {
      const { workspace } = await workspaceWithKey(https.db);
      const email = `secure-${randomUUID()}@example.test`;
      expect((await cli('users', 'create', '--email', email, '--password', TEST_PASSWORD, '--workspace', workspace.id, '--role', 'viewer')).code).toBe(0);
      const res = await https.request('POST', '/api/auth/sign-in', { body: { email, password: TEST_PASSWORD } });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().find((c) => c.startsWith('sid='))).toMatch(/; secure/);
      expect(await signIn(https, email)).toMatch(/^sid=/);
    } finally {
      await https.stop();
    }
  });
});
