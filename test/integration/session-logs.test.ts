import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort, waitFor } from '../../tools/dev/processes';
import { createDb } from '../../src/db/knex';
import { startOpenAiFake } from '../fakes/openai-fake';
import { workspaceWithKey } from '../support/fixtures';
import { TEST_RATE_LIMIT_ENV } from '../support/stack';
import { createUser } from '../../src/users/users.service';

const ROOT = path.resolve(__dirname, '..', '..');

it('passwords, provider keys, share and checkout tokens never appear in the API process logs (trace level)', async () => {
  const openai = await startOpenAiFake();
  const db = createDb(process.env.DATABASE_URL!, 2);
  const port = await freePort();
  const api = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/server.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...TEST_RATE_LIMIT_ENV, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'trace', OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logs = '';
  api.stdout.on('data', (d) => (logs += d));
  api.stderr.on('data', (d) => (logs += d));
  const password = 'Secret-Password-7e1c9a';
  const apiKey = 'sk-fake-good-key';
  const otherKey = 'brave-Key-Never-Logged-42';
  let shareToken: string | undefined;
  let checkoutToken: string | undefined;
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor('the api', async () => (await fetch(`${base}/v1/health`).catch(() => undefined)) !== undefined, 60_000, 250);
    const { workspace, headers } = await workspaceWithKey(db);
    const email = `logs-${port}@example.test`;
    await createUser(db, { email, password, workspaceId: workspace.id, role: 'admin' });
    const post = (p: string, body: unknown, cookie?: string) =>
      fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    expect((await post('/api/auth/sign-in', { email, password: `${password}-wrong` })).status).toBe(401);
    const signedIn = await post('/api/auth/sign-in', { email, password });
    const cookie = signedIn.headers.getSetCookie()[0].split(';')[0];
    expect((await post('/api/admin/credentials', { provider: 'openai', apiKey }, cookie)).status).toBe(200);
    expect((await post('/api/admin/credentials', { provider: 'brave', apiKey: otherKey }, cookie)).status).toBe(200);
    expect((await post('/api/admin/credentials', { provider: 'nope', apiKey: otherKey }, cookie)).status).toBe(400);
    openai.mode = 'down';
    expect((await post('/api/intake', { rawInput: `use ${password}` }, cookie)).status).toBe(502); // an error path that logs
    const list = await (await fetch(`${base}/api/admin/credentials`, { headers: { cookie } })).text();
    expect(list).not.toContain(otherKey);
    // Share links and checkout pages: the token in the path is the credential.
    const keyed = { ...headers, 'content-type': 'application/json' };
    const project = (await (await fetch(`${base}/v1/projects`, { method: 'POST', headers: keyed, body: JSON.stringify({ name: 'Logged' }) })).json()) as {
      data: { id: string };
    };
    const shareUrl = ((await (await fetch(`${base}/v1/projects/${project.data.id}/share-link`, { headers })).json()) as { data: { url: string } }).data.url;
    shareToken = new URL(shareUrl).pathname.split('/').pop()!;
    for (const p of [`/share/${shareToken}`, `/api/shares/${shareToken}`, `/share/${shareToken}/more`]) await fetch(`${base}${p}`);
    const topUp = (await (await fetch(`${base}/v1/billing/top-up`, { method: 'POST', headers: keyed, body: JSON.stringify({ amount_usd: 20 }) })).json()) as {
      data: { url: string };
    };
    checkoutToken = new URL(topUp.data.url).pathname.split('/').pop()!;
    await fetch(`${base}/checkout/${checkoutToken}`);
    await waitFor('request log lines', async () => (logs.match(/"msg":"request"/g) ?? []).length >= 14, 5000, 50);
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    await db.destroy();
    await openai.close();
  }
  expect(logs).toContain('"msg":"request"');
  expect(logs).not.toContain(password);
  expect(logs).not.toContain(apiKey);
  expect(logs).not.toContain(otherKey);
  expect(logs).not.toContain('sid=');
  expect(shareToken?.length).toBeGreaterThan(20);
  expect(checkoutToken?.length).toBeGreaterThan(20);
  expect(logs).not.toContain(shareToken);
  expect(logs).not.toContain(checkoutToken);
  expect(logs).toContain('"path":"/share/:token"');
  expect(logs).toContain('"path":"/api/shares/:token"');
  expect(logs).toContain('"path":"/checkout/:token"');
});
