import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { waitFor } from '../../tools/dev/processes';
import { workspaceWithKey } from '../support/fixtures';
import { payCheckout, startStackWorker, tokenOf, topUpGrants, toppedUpEvents, workspaceCredits } from '../support/billing';
import { startTestStack, type TestStack } from '../support/stack';

/** Top-ups through the test provider's checkout (HTTP), their workflow, and the billing reads. */

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: { TOPUP_EXPIRY: '600' } });
});
afterAll(() => stack.stop());

const topUp = (headers: Record<string, string>, body: unknown) => stack.request('POST', '/v1/billing/top-up', { headers, body });

describe('POST /v1/billing/top-up', () => {
  it('answers the checkout url, amount, credits at the plan rate and test_mode, and charges nothing', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 3 });
    const ledgerBefore = await stack.db('credit_ledger').where({ workspace_id: f.workspace.id }).count({ n: '*' });
    const res = await topUp(f.headers, { amount_usd: 50 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount_usd: 50, shortlists: 12, test_mode: true, status: 'open' });
    expect(res.body.data.url).toMatch(new RegExp(`^${stack.config.appUrl}/checkout/co_[A-Za-z0-9_-]+$`));
    // Nothing granted or charged until payment.
    expect(await stack.db('credit_ledger').where({ workspace_id: f.workspace.id }).count({ n: '*' })).toEqual(ledgerBefore);
    expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(3);

    const growth = await workspaceWithKey(stack.db, { plan: 'growth' });
    expect((await topUp(growth.headers, { amount_usd: 100.99 })).body.data).toMatchObject({ amount_usd: 100.99, shortlists: 33 });
  });

  it('starts the workflow topup-<id> with the WorkspaceId search attribute', async () => {
    const f = await workspaceWithKey(stack.db);
    const res = await topUp(f.headers, { amount_usd: 20 });
    const description = await stack.temporal.client.workflow.getHandle(`topup-${res.body.data.id}`).describe();
    expect(description.type).toBe('topUpWorkflow');
    expect(description.status.name).toBe('RUNNING');
    expect(description.searchAttributes.WorkspaceId).toEqual([f.workspace.id]);
  });

  it.each([
    ['below the minimum', { amount_usd: 9.99 }],
    ['above the maximum', { amount_usd: 10_000.01 }],
    ['three decimals', { amount_usd: 12.345 }],
    ['a string', { amount_usd: '50' }],
    ['missing', {}],
    ['an unknown field', { amount_usd: 50, currency: 'eur' }],
    ['not an object', [50]],
  ])('400 invalid_request for amount_usd %s', async (_label, body) => {
    const f = await workspaceWithKey(stack.db);
    const res = await topUp(f.headers, body);
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
    expect(await stack.db('top_ups').where({ workspace_id: f.workspace.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('accepts the bounds themselves', async () => {
    const f = await workspaceWithKey(stack.db, { plan: 'enterprise' });
    expect((await topUp(f.headers, { amount_usd: 10 })).body.data.shortlists).toBe(5);
    expect((await topUp(f.headers, { amount_usd: 10_000 })).body.data.shortlists).toBe(5000);
  });

  it('402 plan_required on a trial or without a plan, no_active_plan with an inactive plan', async () => {
    for (const [opts, code] of [
      [{ plan: 'trial' }, 'plan_required'],
      [{ plan: null }, 'plan_required'],
      [{ workspace: { plan_active: false } }, 'no_active_plan'],
    ] as const) {
      const f = await workspaceWithKey(stack.db, opts);
      const res = await topUp(f.headers, { amount_usd: 50 });
      expect([res.status, res.body.error.code]).toEqual([402, code]);
    }
  });
});

describe('paying through the test checkout', () => {
  it('grants exactly `shortlists` credits once, however often it is paid or signalled', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 1 });
    const { data } = (await topUp(f.headers, { amount_usd: 40 })).body;
    const token = tokenOf(data.url);

    const page = await fetch(`${stack.url}/checkout/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Pay (test mode)');
    expect(html).toContain('$40.00');
    expect(html).toContain('10 shortlist credits');

    // A signal without a recorded payment grants nothing.
    await stack.temporal.client.workflow.getHandle(`topup-${data.id}`).signal('paid');
    await new Promise((r) => setTimeout(r, 500));
    expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(1);

    const [first, second] = await Promise.all([payCheckout(stack, token), payCheckout(stack, token)]);
    const texts = [await first.text(), await second.text()];
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(texts.filter((t) => t.includes('already paid'))).toHaveLength(1);
    await expect(stack.temporal.client.workflow.getHandle(`topup-${data.id}`).result()).resolves.toBe('paid');
    // Replayed after the workflow ended: refused by Temporal, nothing changes.
    await stack.temporal.client.workflow
      .getHandle(`topup-${data.id}`)
      .signal('paid')
      .catch(() => undefined);
    const third = await payCheckout(stack, token);
    expect(await third.text()).toContain('already paid');

    expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(11);
    expect(await topUpGrants(stack.db, data.id)).toHaveLength(1);
    const events = await toppedUpEvents(stack.db, data.id);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ top_up_id: data.id, amount_usd: 40, shortlists: 10, bucket: 'workspace', credits: 11 });

    const list = await stack.request('GET', '/v1/billing/top-ups', { headers: f.headers });
    expect(list.body.data[0]).toMatchObject({ id: data.id, status: 'paid', shortlists: 10, paid_at: expect.any(String), granted_at: expect.any(String) });
    // The workflow id cannot be started again for the same top-up.
    await expect(
      stack.temporal.client.workflow.start('topUpWorkflow', {
        taskQueue: stack.config.temporal.taskQueue,
        workflowId: `topup-${data.id}`,
        args: [{ topUpId: data.id, expiresInMs: 1000 }],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    ).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
  });

  it('answers 404 for an unknown token, on the page and on pay', async () => {
    expect((await fetch(`${stack.url}/checkout/co_nonexistent`)).status).toBe(404);
    const res = await payCheckout(stack, 'co_nonexistent');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('not valid');
  });
});

describe('a worker killed between payment and grant', () => {
  it('grants once when a worker comes back', async () => {
    const noWorker = await startTestStack({ worker: false });
    try {
      const f = await workspaceWithKey(noWorker.db, { credits: 0 });
      const { data } = (await noWorker.request('POST', '/v1/billing/top-up', { headers: f.headers, body: { amount_usd: 80 } })).body;
      const paid = await payCheckout(noWorker, tokenOf(data.url));
      expect(await paid.text()).toContain('will be added');
      expect((await payCheckout(noWorker, tokenOf(data.url))).status).toBe(200); // paid twice while no worker runs
      expect(await workspaceCredits(noWorker.db, f.workspace.id)).toBe(0);

      const worker = await startStackWorker(noWorker);
      try {
        await waitFor('the grant', async () => (await workspaceCredits(noWorker.db, f.workspace.id)) === 20, 20_000, 100);
        await noWorker.temporal.client.workflow.getHandle(`topup-${data.id}`).result();
      } finally {
        await worker.shutdown();
      }
      expect(await workspaceCredits(noWorker.db, f.workspace.id)).toBe(20);
      expect(await topUpGrants(noWorker.db, data.id)).toHaveLength(1);
      expect(await toppedUpEvents(noWorker.db, data.id)).toHaveLength(1);
    } finally {
      await noWorker.stop();
    }
  }, 60_000);
});

describe('an expired top-up', () => {
  it('cannot be paid once its timer fired', async () => {
    const short = await startTestStack({ env: { TOPUP_EXPIRY: '2' } });
    try {
      const f = await workspaceWithKey(short.db, { credits: 0 });
      const { data } = (await short.request('POST', '/v1/billing/top-up', { headers: f.headers, body: { amount_usd: 20 } })).body;
      await expect(short.temporal.client.workflow.getHandle(`topup-${data.id}`).result()).resolves.toBe('expired');
      const list = await short.request('GET', '/v1/billing/top-ups', { headers: f.headers });
      expect(list.body.data[0]).toMatchObject({ id: data.id, status: 'expired' });
      expect((await fetch(`${short.url}/checkout/${tokenOf(data.url)}`)).status).toBe(410);
      const res = await payCheckout(short, tokenOf(data.url));
      expect(res.status).toBe(410);
      expect(await res.text()).toContain('expired');
      expect(await workspaceCredits(short.db, f.workspace.id)).toBe(0);
      expect(await topUpGrants(short.db, data.id)).toHaveLength(0);
    } finally {
      await short.stop();
    }
  }, 30_000);
});

describe('billing reads', () => {
  it('GET /billing/balance: the key bucket, both buckets and the plan', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 7, funding: 'contract_pool' });
    await stack.db('credit_ledger').insert({ workspace_id: f.workspace.id, bucket: 'contract_pool', delta: 4, reason: 'grant:operator' });
    const res = await stack.request('GET', '/v1/billing/balance', { headers: f.headers });
    expect(res.body.data).toEqual({ credits: 4, buckets: { workspace: 7, contract_pool: 4 }, plan: { name: 'starter', active: true, usd_per_credit: 4 } });
  });

  it('GET /billing/ledger: newest first, ?before= for older entries, 400 for a bad cursor', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 2 });
    for (let i = 0; i < 3; i++)
      await stack.db('credit_ledger').insert({ workspace_id: f.workspace.id, bucket: 'workspace', delta: i + 1, reason: `grant:operator: batch ${i}` });
    const all = (await stack.request('GET', '/v1/billing/ledger', { headers: f.headers })).body.data;
    expect(all.map((e: { delta: number }) => e.delta)).toEqual([3, 2, 1, 2]);
    expect(all[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      bucket: 'workspace',
      delta: 3,
      reason: 'grant:operator: batch 2',
      created_at: expect.any(String),
    });
    const older = (await stack.request('GET', `/v1/billing/ledger?before=${all[1].id}`, { headers: f.headers })).body.data;
    expect(older.map((e: { delta: number }) => e.delta)).toEqual([1, 2]);
    const bad = await stack.request('GET', '/v1/billing/ledger?before=abc', { headers: f.headers });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request']);
  });
});
