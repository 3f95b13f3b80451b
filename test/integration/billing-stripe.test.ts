import Stripe from 'stripe';
import { waitFor } from '../../src/dev/processes';
import { workspaceWithKey } from '../support/fixtures';
import { topUpGrants, toppedUpEvents, workspaceCredits } from '../support/billing';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * The Stripe provider against stripe-mock (started by `npm test` from the bootstrap's build) for
 * Checkout Session creation, and webhook events signed with the SDK's test-header helper.
 */

const WEBHOOK_SECRET = 'whsec_test_billing_secret';
const stripe = new Stripe('sk_test_123');

let stack: TestStack;
beforeAll(async () => {
  if (!process.env.STRIPE_MOCK_URL) throw new Error('STRIPE_MOCK_URL is not set: run the tests with `npm test`, which starts stripe-mock');
  stack = await startTestStack({
    env: {
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: process.env.STRIPE_MOCK_URL,
      TOPUP_EXPIRY: '600',
    },
  });
});
afterAll(() => stack.stop());

function completedEvent(topUpId: string, eventId = `evt_${Math.random().toString(36).slice(2)}`, type = 'checkout.session.completed', paymentStatus = 'paid') {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2025-01-27',
    created: Math.floor(Date.now() / 1000),
    type,
    data: {
      object: { id: 'cs_test_1', object: 'checkout.session', client_reference_id: topUpId, payment_status: paymentStatus, amount_total: 5000, currency: 'usd' },
    },
  });
}

const deliver = (payload: string, signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })) =>
  fetch(`${stack.url}/api/billing/stripe-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });

async function stripeTopUp(credits = 0) {
  const f = await workspaceWithKey(stack.db, { credits });
  const res = await stack.request('POST', '/v1/billing/top-up', { headers: f.headers, body: { amount_usd: 50 } });
  expect(res.status).toBe(201);
  return { f, data: res.body.data };
}

it('creates a Checkout Session for the top-up and answers its url; test_mode for an sk_test_ key', async () => {
  const { data } = await stripeTopUp();
  expect(data).toMatchObject({ amount_usd: 50, shortlists: 12, test_mode: true, status: 'open' });
  expect(data.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  const row = await stack.db('top_ups').where({ id: data.id }).first();
  expect(row.provider).toBe('stripe');
  expect(row.provider_ref).toMatch(/^cs_test_/);
});

it('grants once for a checkout.session.completed delivered three times at once, and again later', async () => {
  const { f, data } = await stripeTopUp(1);
  const payload = completedEvent(data.id);
  const answers = await Promise.all([deliver(payload), deliver(payload), deliver(payload)]);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  await waitFor('the grant', async () => (await workspaceCredits(stack.db, f.workspace.id)) === 13, 15_000, 100);
  // Redelivered later, and a second event (another id) for the same session: still one grant.
  expect((await deliver(payload)).status).toBe(200);
  expect((await deliver(completedEvent(data.id))).status).toBe(200);
  await expect(stack.temporal.client.workflow.getHandle(`topup-${data.id}`).result()).resolves.toBe('paid');
  expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(13);
  expect(await topUpGrants(stack.db, data.id)).toHaveLength(1);
  expect(await toppedUpEvents(stack.db, data.id)).toHaveLength(1);
});

it('takes out-of-order and unrelated events harmlessly', async () => {
  const { f, data } = await stripeTopUp();
  // An unpaid completion (delayed payment method) first, then an unrelated type: nothing granted.
  expect((await deliver(completedEvent(data.id, undefined, 'checkout.session.completed', 'unpaid'))).status).toBe(200);
  expect((await deliver(completedEvent(data.id, undefined, 'payment_intent.created'))).status).toBe(200);
  await new Promise((r) => setTimeout(r, 500));
  expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(0);
  // Then the payment arrives, followed by a stale session.expired: granted once, stays paid.
  expect((await deliver(completedEvent(data.id, undefined, 'checkout.session.async_payment_succeeded'))).status).toBe(200);
  expect((await deliver(completedEvent(data.id, undefined, 'checkout.session.expired', 'unpaid'))).status).toBe(200);
  await waitFor('the grant', async () => (await workspaceCredits(stack.db, f.workspace.id)) === 12, 15_000, 100);
  expect((await stack.db('top_ups').where({ id: data.id }).first()).status).toBe('paid');
});

it('answers 400 for a bad or missing signature and grants nothing', async () => {
  const { f, data } = await stripeTopUp();
  const payload = completedEvent(data.id);
  const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
  for (const res of [
    await deliver(payload, forged),
    await deliver(payload, ''),
    await deliver(payload.replace('"paid"', '"paid" '), stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })),
  ]) {
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/signature/i);
  }
  await new Promise((r) => setTimeout(r, 500));
  expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(0);
  expect(await stack.db('stripe_events').whereRaw(`id = ?`, [JSON.parse(payload).id])).toHaveLength(0);
  expect((await stack.db('top_ups').where({ id: data.id }).first()).status).toBe('open');
});
