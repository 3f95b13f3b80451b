import { routeTable } from '../../api/route-table';
import { workspaceWithKey } from '../support/fixtures';
import { payCheckout, tokenOf } from '../support/billing';
import { cli } from '../support/cli';
import type { HttpsReceiver } from '../support/https-receiver';
import { startTestStack, type TestStack } from '../support/stack';
import { expectSignedEnvelope, SINK_ENV, startWebhookSink } from '../support/webhook-sink';
import { waitFor } from '../../tools/dev/processes';

/** The operator CLI's billing commands and the billing/usage entries of the catalog and OpenAPI. */

let stack: TestStack;
let sink: HttpsReceiver;
beforeAll(async () => {
  sink = await startWebhookSink();
  stack = await startTestStack({ env: SINK_ENV });
});
afterAll(async () => {
  await stack?.stop();
  await sink?.close();
});

it('credits grant writes its reason to the ledger, shown by GET /billing/ledger', async () => {
  const f = await workspaceWithKey(stack.db, { credits: 0 });
  const res = await cli('credits', 'grant', '--workspace', f.workspace.id, '--amount', '6', '--reason', 'goodwill for ticket 42', '--json');
  expect(res.code).toBe(0);
  expect(JSON.parse(res.out)).toEqual({
    workspace_id: f.workspace.id,
    bucket: 'workspace',
    granted: 6,
    balance: 6,
    reason: 'grant:operator: goodwill for ticket 42',
  });
  const ledger = (await stack.request('GET', '/v1/billing/ledger', { headers: f.headers })).body.data;
  expect(ledger[0]).toMatchObject({ delta: 6, reason: 'grant:operator: goodwill for ticket 42' });
  expect(JSON.parse((await cli('credits', 'grant', '--workspace', f.workspace.id, '--amount', '1', '--json')).out).reason).toBe('grant:operator');
});

it('billing top-ups --workspace ID lists the top-ups with status and workflow id', async () => {
  const f = await workspaceWithKey(stack.db);
  const open = (await stack.request('POST', '/v1/billing/top-up', { headers: f.headers, body: { amount_usd: 12 } })).body.data;
  const paid = (await stack.request('POST', '/v1/billing/top-up', { headers: f.headers, body: { amount_usd: 24 } })).body.data;
  await payCheckout(stack, tokenOf(paid.url));
  await waitFor('the grant', async () => !!(await stack.db('top_ups').where({ id: paid.id }).first()).granted_at, 15_000, 100);

  const listed = JSON.parse((await cli('billing', 'top-ups', '--workspace', f.workspace.id, '--json')).out);
  expect(listed.total).toBe(2);
  expect(listed.top_ups.map((t: { id: string; status: string; workflow_id: string }) => [t.id, t.status, t.workflow_id])).toEqual([
    [paid.id, 'paid', `topup-${paid.id}`],
    [open.id, 'open', `topup-${open.id}`],
  ]);
  const text = await cli('billing', 'top-ups', '--workspace', f.workspace.id);
  expect(text.out).toContain(`${paid.id}  $24.00 → 6 credits (workspace)  test test  paid`);
  expect((await cli('billing', 'top-ups', '--workspace', 'nope')).code).toBe(2);
});

it('catalogs every billing and usage route with its scope and an honest cost', () => {
  const byName = Object.fromEntries(routeTable.map((r) => [r.name, r]));
  expect(
    Object.fromEntries(
      ['create_top_up', 'get_balance', 'list_top_ups', 'list_ledger_entries', 'get_usage', 'list_cost_events'].map((n) => [
        n,
        [byName[n].method, byName[n].path, byName[n].auth, byName[n].cost],
      ]),
    ),
  ).toEqual({
    create_top_up: ['POST', '/billing/top-up', 'any', 'free'],
    get_balance: ['GET', '/billing/balance', 'billing:read', 'free'],
    list_top_ups: ['GET', '/billing/top-ups', 'billing:read', 'free'],
    list_ledger_entries: ['GET', '/billing/ledger', 'billing:read', 'free'],
    get_usage: ['GET', '/usage', 'usage:read', 'free'],
    list_cost_events: ['GET', '/usage/costs', 'usage:read', 'free'],
  });
  expect(byName.create_top_up.costLine).toMatch(/nothing is charged until someone pays/);
  for (const n of ['create_top_up', 'get_balance', 'list_top_ups', 'list_ledger_entries', 'get_usage', 'list_cost_events'])
    expect(byName[n].response).toBeDefined();
});

it('lists billing.topped_up among the OpenAPI webhooks, and webhooks accept it', async () => {
  const doc = (await stack.request('GET', '/v1/openapi.json')).body;
  expect(Object.keys(doc.webhooks)).toContain('billing.topped_up');
  expect(doc.paths['/billing/top-up'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TopUpRequest' });
  expect(doc.components.schemas.TopUpRequest).toMatchObject({
    type: 'object',
    required: ['amount_usd'],
    properties: { amount_usd: { type: 'number', minimum: 10, maximum: 10000 } },
  });
  expect(doc.webhooks['billing.topped_up'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/BillingToppedUpEvent' });
  const f = await workspaceWithKey(stack.db);
  const res = await stack.request('POST', '/v1/webhooks', { headers: f.headers, body: { url: `${sink.origin}/hook`, events: ['billing.topped_up'] } });
  expect(res.status).toBe(201);
});

it('a `*` webhook endpoint receives billing.topped_up', async () => {
  const f = await workspaceWithKey(stack.db);
  const hook = (await stack.request('POST', '/v1/webhooks', { headers: f.headers, body: { url: `${sink.origin}/all` } })).body.data;
  expect(hook.events).toEqual(['*']);
  const { data } = (await stack.request('POST', '/v1/billing/top-up', { headers: f.headers, body: { amount_usd: 16 } })).body;
  await payCheckout(stack, tokenOf(data.url));
  let deliveries: { type: string; data: { top_up_id: string } }[] = [];
  await waitFor(
    'a billing.topped_up delivery',
    async () => {
      deliveries = await stack
        .db('webhook_deliveries as d')
        .join('outbox_events as e', 'e.id', 'd.event_id')
        .where('d.endpoint_id', hook.id)
        .select('e.type', 'e.data');
      return deliveries.length > 0;
    },
    20_000,
    200,
  );
  expect(deliveries).toEqual([{ type: 'billing.topped_up', data: expect.objectContaining({ top_up_id: data.id, shortlists: 4 }) }]);
  // What arrived at the endpoint: the event, signed, with the spec's headers.
  const [arrived] = await sink.waitFor('/all', 1);
  expect(arrived.json).toMatchObject({ type: 'billing.topped_up', data: { top_up_id: data.id, shortlists: 4 } });
  await expectSignedEnvelope(stack.db, arrived, hook.secret, f.workspace.id);
});
