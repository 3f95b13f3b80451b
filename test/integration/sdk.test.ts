import { execFile, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Stripe from 'stripe';
import { createClient, SourcingApiError, verifyWebhookSignature, type LaunchSearchBody } from '../../sdk/src';
import { creditLedgerRepository } from '../../src/db/credit-ledger.repository';
import { startChildWorker } from '../support/child-worker';
import { workspaceWithKey } from '../support/fixtures';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver, type TestCert } from '../support/https-receiver';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * The SDK (sdk/src) against the real stack: the API in this process, the worker as a child (it
 * delivers webhooks to a local HTTPS receiver whose certificate it must trust).
 */

const ROOT = path.resolve(__dirname, '..', '..');
const ENV = { WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' };
// Typed as the document states it (family and skills are enums there).
const criteria = {
  family: 'software_engineering',
  skills: ['TypeScript', 'PostgreSQL'],
  read_budget: 40,
  target: 200,
  shortlist_threshold: 100,
} satisfies NonNullable<LaunchSearchBody['criteria']>;

let cert: TestCert;
let receiver: HttpsReceiver;
let stack: TestStack;
let worker: ChildProcess;
beforeAll(async () => {
  cert = makeTestCert();
  receiver = await startHttpsReceiver(cert);
  stack = await startTestStack({ worker: false, env: ENV });
  worker = await startChildWorker(stack, { ...ENV, NODE_EXTRA_CA_CERTS: cert.certFile });
}, 180_000);
afterAll(async () => {
  worker?.kill('SIGKILL');
  await stack?.stop();
  await receiver?.close();
});

const baseUrl = () => `${stack.url}/v1`;
const searchesOf = (workspaceId: string) => stack.db('searches').where({ workspace_id: workspaceId }).count({ n: '*' }).first();

describe('the SDK', () => {
  it('launches with an automatic idempotency key: a response lost after the server acted is replayed, one search, one credit', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 5 });
    let dropped = 0;
    const sent: string[] = [];
    const client = createClient({
      apiKey: f.raw,
      baseUrl: baseUrl(),
      retries: { baseDelayMs: 10 },
      // The server handles the first launch, then its answer is lost on the way back.
      fetch: async (request) => {
        sent.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('Idempotency-Key') ?? '-'}`);
        const response = await fetch(request);
        if (request.url.endsWith('/searches') && request.method === 'POST' && dropped++ === 0) {
          await response.text();
          throw new TypeError('fetch failed: connection reset');
        }
        return response;
      },
    });
    const project = await client.createProject('SDK replay');

    const launched = await client.launchSearch(project.id, { criteria });
    expect(launched.reused).toBe(true);
    const launches = sent.filter((s) => s.startsWith('POST') && s.includes('/searches'));
    expect(launches).toHaveLength(2);
    expect(launches[0]).toMatch(/ sdk-[0-9a-f-]{36}$/);
    expect(launches[1]).toBe(launches[0]);

    // The same through the untyped `invoke` (what the MCP server uses): the middleware adds the key.
    dropped = 0;
    const viaInvoke = (await client.invoke('launch_search', { path: { projectId: project.id }, body: { criteria: { ...criteria, target: 199 } } })) as {
      data: { id: string; reused: boolean };
    };
    expect(viaInvoke.data.reused).toBe(true);
    const second = sent.filter((s) => s.startsWith('POST') && s.includes('/searches')).slice(2);
    expect(second).toHaveLength(2);
    expect(second[1]).toBe(second[0]);

    expect(Number((await searchesOf(f.workspace.id))?.n)).toBe(2);
    expect(await creditLedgerRepository(stack.db).balance(f.workspace.id, 'workspace')).toBe(3);
    await client.waitForSearch(launched.id, { timeoutMs: 60_000 });
    await client.waitForSearch(viaInvoke.data.id, { timeoutMs: 60_000 });
    expect(await creditLedgerRepository(stack.db).balance(f.workspace.id, 'workspace')).toBe(3);
  }, 120_000);

  it('never sends an unsafe call (create_project) twice and throws typed errors with code and request id', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 5 });
    let calls = 0;
    const client = createClient({
      apiKey: f.raw,
      baseUrl: baseUrl(),
      retries: { baseDelayMs: 1 },
      fetch: async (request) => {
        calls += 1;
        await (await fetch(request)).text();
        throw new TypeError('fetch failed');
      },
    });
    await expect(client.createProject('lost')).rejects.toThrow('fetch failed');
    expect(calls).toBe(1);

    const plain = createClient({ apiKey: f.raw, baseUrl: baseUrl() });
    const err: unknown = await plain.getSearch('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourcingApiError);
    expect(err).toMatchObject({ status: 404, code: 'search_not_found' });
    expect((err as SourcingApiError).requestId).toMatch(/\S+/);
    const invalid: unknown = await plain.createProject('').catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_name' });
    expect((invalid as SourcingApiError).details).toHaveProperty('problems');
  });

  it('pages every person exactly once, stopping on an empty page, and runs the example program', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 5 });
    const client = createClient({ apiKey: f.raw, baseUrl: baseUrl() });
    const project = await client.createProject('SDK pager');
    const search = await client.waitForSearch((await client.launchSearch(project.id, { criteria })).id, { timeoutMs: 60_000 });
    expect(search.status).toBe('complete');

    const all = (await stack.request('GET', `/v1/searches/${search.id}/people?limit=500&profile=false`, { headers: f.headers })).body.data;
    expect(all.people.length).toBeGreaterThan(7);
    const pages: number[] = [];
    const ids: string[] = [];
    const counting = createClient({
      apiKey: f.raw,
      baseUrl: baseUrl(),
      fetch: async (request) => {
        pages.push(Number(new URL(request.url).searchParams.get('offset')));
        return fetch(request);
      },
    });
    for await (const person of counting.people(search.id, { pageSize: 7, profile: false })) ids.push(person.id);
    expect(ids).toEqual(all.people.map((p: { id: string }) => p.id));
    expect(new Set(ids).size).toBe(ids.length);
    // Pages of 7 (the last one shorter) and then the one empty page that ends the loop.
    expect(pages).toEqual([...Array.from({ length: Math.ceil(ids.length / 7) }, (_, i) => i * 7), ids.length]);

    const minScore = all.people[3].score;
    const above: string[] = [];
    for await (const person of client.people(search.id, { minScore, pageSize: 2 })) above.push(person.id);
    expect(above).toEqual(all.people.filter((p: { score: number }) => p.score >= minScore).map((p: { id: string }) => p.id));

    const example = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'sdk/examples/launch-and-read.ts')], {
      cwd: ROOT,
      env: { ...process.env, SOURCING_API_KEY: f.raw, SOURCING_BASE_URL: baseUrl() },
    });
    const result = JSON.parse(example.stdout);
    expect(result).toMatchObject({ status: 'complete' });
    expect(result.people).toBeGreaterThan(0);
    expect(result.added).toHaveLength(Math.min(3, result.people));
    expect(result.shortlisted).toEqual(expect.arrayContaining(result.added));
  }, 120_000);

  it('verifies a real delivery and refuses a tampered one; Stripe agrees both ways', async () => {
    const f = await workspaceWithKey(stack.db);
    const client = createClient({ apiKey: f.raw, baseUrl: baseUrl() });
    const created = (await client.invoke('create_webhook', { body: { url: `${receiver.origin}/sdk-hook`, events: ['shortlist.changed'] } })) as {
      data: { id: string; secret: string };
    };
    const delivery = (await client.invoke('test_webhook', { path: { webhookId: created.data.id } })) as { data: { status: string } };
    expect(delivery?.data.status).toBe('delivered');

    const req = receiver.received.find((r) => r.path === '/sdk-hook')!;
    const header = req.headers['service-signature'] as string;
    const secret = created.data.secret;
    expect(verifyWebhookSignature(req.raw, header, secret)).toBe(true);
    expect(verifyWebhookSignature(req.raw.toString('utf8'), header, secret)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(req.raw.toString('utf8').replace('webhook.test', 'webhook.tost')), header, secret)).toBe(false);
    expect(verifyWebhookSignature(req.raw, header, `${secret}x`)).toBe(false);
    const t = Number(/t=(\d+)/.exec(header)![1]);
    expect(verifyWebhookSignature(req.raw, header, secret, { now: t + 301 })).toBe(false);
    expect(verifyWebhookSignature(req.raw, header, secret, { now: t + 301, toleranceSeconds: 400 })).toBe(true);

    const stripe = new Stripe('sk_test_not_used');
    expect(stripe.webhooks.constructEvent(req.raw.toString('utf8'), header, secret).type).toBe('webhook.test');
    const stripeHeader = stripe.webhooks.generateTestHeaderString({ payload: req.raw.toString('utf8'), secret });
    expect(verifyWebhookSignature(req.raw, stripeHeader, secret)).toBe(true);
  });

  it('retries a 429 after its Retry-After, once, and then succeeds', async () => {
    const f = await workspaceWithKey(stack.db, { keyRateLimit: 2 });
    // Fixed one-minute windows: start late in a minute so Retry-After is a few seconds, not up to 60.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute < 55_000) await new Promise((r) => setTimeout(r, 55_000 - intoMinute));
    const statuses: { status: number; retryAfter: string | null; at: number }[] = [];
    const client = createClient({
      apiKey: f.raw,
      baseUrl: baseUrl(),
      fetch: async (request) => {
        const response = await fetch(request);
        statuses.push({ status: response.status, retryAfter: response.headers.get('Retry-After'), at: Date.now() });
        return response;
      },
    });
    await client.invoke('list_projects');
    await client.invoke('list_projects');
    const third = (await client.invoke('list_projects')) as { data: unknown[] };
    expect(third.data).toEqual([]);
    expect(statuses.map((s) => s.status)).toEqual([200, 200, 429, 200]);
    const waitedMs = statuses[3].at - statuses[2].at;
    expect(waitedMs).toBeGreaterThanOrEqual(Number(statuses[2].retryAfter) * 1000 - 50);
  }, 90_000);
});
