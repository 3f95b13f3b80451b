import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '../../tools/dev/processes';
import { decryptSecret } from '../../src/webhooks/secrets';
import { verifyWebhookSignature } from '../../sdk/src';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-fake';
import { startVendorFake, type VendorFake } from '../fakes/vendor-fake';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver, type TestCert } from '../support/https-receiver';
import { workspaceWithMembers } from '../support/session';
import { startTestStack, type TestStack } from '../support/stack';

const ROOT = path.resolve(__dirname, '..', '..');
const KEY_A = randomBytes(32).toString('base64');
const KEY_B = randomBytes(32).toString('base64');

let openai: OpenAiFake;
let hunter: VendorFake;
beforeAll(async () => {
  openai = await startOpenAiFake();
  hunter = await startVendorFake('hunter-good-key-123');
});
afterAll(async () => {
  await openai?.close();
  await hunter?.close();
});
const providerEnv = () => ({ OPENAI_BASE_URL: openai.url, HUNTER_BASE_URL: hunter.url, OPENAI_API_KEY: '', HUNTER_API_KEY: '' });

describe('credentials', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false, env: providerEnv() });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('create (rotating the same provider and label), list without keys, verify, delete', async () => {
    const ws = await workspaceWithMembers(stack);
    const post = (body: unknown) => stack.request('POST', '/api/admin/credentials', { headers: ws.admin.headers, body });
    expect((await post({ provider: 'openai', apiKey: 'sk-fake-old-key-0001' })).status).toBe(200);
    const created = await post({ provider: 'openai', apiKey: 'sk-fake-good-key' });
    expect(created.status).toBe(200);
    expect(created.body.ok).toBe(true);
    expect((await post({ provider: 'hunter', apiKey: 'hunter-good-key-123', label: 'outreach' })).status).toBe(200);

    const list = await stack.request('GET', '/api/admin/credentials', { headers: ws.admin.headers });
    expect(list.status).toBe(200);
    expect(list.body.credentials).toHaveLength(2); // the first openai key was deactivated
    const openaiCred = list.body.credentials.find((c: { provider: string }) => c.provider === 'openai');
    expect(openaiCred).toEqual({
      id: expect.any(String),
      provider: 'openai',
      label: 'default',
      key_hint: 'sk-f…-key',
      is_active: true,
      verified_at: null,
      verify_error: null,
      created_at: expect.any(String),
    });
    expect(list.text).not.toContain('sk-fake-good-key');
    const rows = await stack.db('credentials').where({ workspace_id: ws.workspace.id, provider: 'openai' }).orderBy('created_at');
    expect(rows.map((r: { is_active: boolean; retired_at: Date | null }) => [r.is_active, r.retired_at !== null])).toEqual([
      [false, true],
      [true, false],
    ]);
    expect(rows[1].key_ciphertext).not.toContain('sk-fake-good-key');
    expect(decryptSecret(stack.config.secretsKey, rows[1].key_ciphertext, rows[1].id)).toBe('sk-fake-good-key');

    const verified = await stack.request('POST', `/api/admin/credentials/${openaiCred.id}/verify`, { headers: ws.admin.headers });
    expect(verified.status).toBe(200);
    expect(verified.body.credential.verified_at).not.toBeNull();
    expect(openai.requests.at(-1)).toMatchObject({ path: '/v1/models', authorization: 'Bearer sk-fake-good-key' });
    const hunterCred = list.body.credentials.find((c: { provider: string }) => c.provider === 'hunter');
    expect(
      (await stack.request('POST', `/api/admin/credentials/${hunterCred.id}/verify`, { headers: ws.admin.headers })).body.credential.verify_error,
    ).toBeNull();
    expect(hunter.requests.at(-1)).toEqual({ path: '/v2/account', key: 'hunter-good-key-123' });

    // A key the provider rejects records verify_error.
    const bad = await post({ provider: 'openai', apiKey: 'sk-fake-rejected-key' });
    const badId = bad.body.credential.id;
    const rejected = await stack.request('POST', `/api/admin/credentials/${badId}/verify`, { headers: ws.admin.headers });
    expect(rejected.body).toMatchObject({ ok: false, credential: { verified_at: null, verify_error: 'openai rejected the key (HTTP 401)' } });

    expect((await stack.request('DELETE', `/api/admin/credentials/${badId}`, { headers: ws.admin.headers })).body).toEqual({ ok: true });
    expect((await stack.request('DELETE', `/api/admin/credentials/${badId}`, { headers: ws.admin.headers })).status).toBe(409);
    const after = await stack.request('GET', '/api/admin/credentials', { headers: ws.admin.headers });
    expect(after.body.credentials.map((c: { provider: string }) => c.provider)).toEqual(['hunter']);
  });

  it('400 with a validation message for a bad provider or a short apiKey; nothing stored', async () => {
    const ws = await workspaceWithMembers(stack);
    const badProvider = await stack.request('POST', '/api/admin/credentials', {
      headers: ws.admin.headers,
      body: { provider: 'linkedin', apiKey: 'long-enough-key' },
    });
    expect(badProvider.status).toBe(400);
    expect(badProvider.body.error).toMatch(/provider must be one of peopledatalabs, brave, openai, hunter/);
    const short = await stack.request('POST', '/api/admin/credentials', { headers: ws.admin.headers, body: { provider: 'brave', apiKey: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatch(/apiKey must have at least 8 characters/);
    expect(await stack.db('credentials').where({ workspace_id: ws.workspace.id })).toEqual([]);
  });
});

describe('key rotation under a running stack', () => {
  let cert: TestCert;
  let receiver: HttpsReceiver;
  const stacks: TestStack[] = [];
  const workers: ChildProcess[] = [];
  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    for (const s of stacks) await s.stop();
    await receiver?.close();
  });

  it('SECRETS_KEY_PREVIOUS keeps old secrets working; secrets reencrypt moves credentials and webhook secrets to the new key', async () => {
    cert = makeTestCert();
    receiver = await startHttpsReceiver(cert);
    const env = { ...providerEnv(), WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' };

    // Before the rotation: everything is encrypted under key A.
    const old = await startTestStack({ worker: false, env: { ...env, SECRETS_KEY: KEY_A } });
    stacks.push(old);
    const ws = await workspaceWithMembers(old);
    const hook = await old.request('POST', '/v1/webhooks', { headers: ws.headers, body: { url: `${receiver.origin}/rotated` } });
    expect(hook.status).toBe(201);
    const cred = await old.request('POST', '/api/admin/credentials', { headers: ws.admin.headers, body: { provider: 'openai', apiKey: 'sk-fake-good-key' } });
    const credId = cred.body.credential.id;

    // The rotated deployment: key B current, key A previous; API and worker running.
    const rotatedEnv = { ...env, SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: KEY_A };
    const stack = await startTestStack({ worker: false, env: rotatedEnv });
    stacks.push(stack);
    workers.push(
      spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'activities/worker.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          ...rotatedEnv,
          TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
          NODE_EXTRA_CA_CERTS: cert.certFile,
          LOG_LEVEL: 'warn',
          SWEEP_SCHEDULES_ON_START: 'false',
        },
        stdio: 'ignore',
      }),
    );
    await waitFor('the worker', async () => (await stack.request('GET', '/v1/health?worker=true')).status === 200, 120_000, 500);

    const signedDelivery = async (n: number) => {
      expect((await stack.request('POST', `/v1/webhooks/${hook.body.data.id}/test`, { headers: ws.headers })).status).toBeLessThan(300);
      await receiver.waitFor('/rotated', n);
      const got = receiver.received.filter((r) => r.path === '/rotated')[n - 1];
      expect(verifyWebhookSignature(got.raw, got.headers['service-signature'] as string, hook.body.data.secret)).toBe(true);
    };
    const verifies = async () => {
      const res = await stack.request('POST', `/api/admin/credentials/${credId}/verify`, { headers: ws.admin.headers });
      expect(res.body.ok).toBe(true);
      expect(openai.requests.at(-1)!.authorization).toBe('Bearer sk-fake-good-key');
    };
    await signedDelivery(1);
    await verifies();

    // The shared test database also holds other tests' secrets under the run's own key: those are
    // reported as undecryptable (exit 1), ours must be moved.
    const reencrypt = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'secrets', 'reencrypt', '--json'], {
      cwd: ROOT,
      env: { ...process.env, ...rotatedEnv },
    }).catch((err: { stdout: string; stderr: string; code: number }) => err);
    const counts = JSON.parse(reencrypt.stdout.trim().split('\n').at(-1)!);
    expect(counts.undecryptable).not.toContain(`credential ${credId}`);
    expect(counts.undecryptable).not.toContain(`webhook ${hook.body.data.id}`);
    expect(counts.credentials).toBeGreaterThanOrEqual(1);
    expect(counts.webhooks).toBeGreaterThanOrEqual(1);

    // Now key B alone decrypts both, and the running stack keeps working.
    const keyB = Buffer.from(KEY_B, 'base64');
    const credRow = await stack.db('credentials').where({ id: credId }).first();
    expect(decryptSecret(keyB, credRow.key_ciphertext, credId)).toBe('sk-fake-good-key');
    const hookRow = await stack.db('webhook_endpoints').where({ id: hook.body.data.id }).first();
    expect(decryptSecret(keyB, hookRow.secret_ciphertext, hookRow.id)).toBe(hook.body.data.secret);
    await signedDelivery(2);
    await verifies();
  }, 180_000);
});
