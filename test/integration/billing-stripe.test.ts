import Stripe from 'stripe';
import { waitFor } from '../../tools/dev/processes';
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

interface SessionFields {
  /** The Checkout Session id; the top-up's own (its provider_ref) by default. */
  id?: string;
  amount_total?: number;
  currency?: string;
}

/** A signed-to-be Stripe event about the top-up's Checkout Session (its real id, amount and currency unless told otherwise). */
function completedEvent(
  topUp: { id: string; sessionId: string | null },
  eventId = `evt_${Math.random().toString(36).slice(2)}`,
  type = 'checkout.session.completed',
  paymentStatus = 'paid',
  session: SessionFields = {},
) {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2025-01-27',
    created: Math.floor(Date.now() / 1000),
    type,
    data: {
      object: {
        id: topUp.sessionId,
        object: 'checkout.session',
        client_reference_id: topUp.id,
        payment_status: paymentStatus,
        amount_total: 5000,
        currency: 'usd',
        ...session,
      },
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
  const { provider_ref: sessionId } = await stack.db('top_ups').where({ id: res.body.data.id }).first('provider_ref');
  return { f, data: res.body.data, topUp: { id: res.body.data.id as string, sessionId: sessionId as string } };
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
  const { f, data, topUp } = await stripeTopUp(1);
  const payload = completedEvent(topUp);
  const answers = await Promise.all([deliver(payload), deliver(payload), deliver(payload)]);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  await waitFor('the grant', async () => (await workspaceCredits(stack.db, f.workspace.id)) === 13, 15_000, 100);
  // Redelivered later, and a second event (another id) for the same session: still one grant.
  expect((await deliver(payload)).status).toBe(200);
  expect((await deliver(completedEvent(topUp))).status).toBe(200);
  await expect(stack.temporal.client.workflow.getHandle(`topup-${data.id}`).result()).resolves.toBe('paid');
  expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(13);
  expect(await topUpGrants(stack.db, data.id)).toHaveLength(1);
  expect(await toppedUpEvents(stack.db, data.id)).toHaveLength(1);
});

it('takes out-of-order and unrelated events harmlessly', async () => {
  const { f, data, topUp } = await stripeTopUp();
  // An unpaid completion (delayed payment method) first, then an unrelated type: nothing granted.
  expect((await deliver(completedEvent(topUp, undefined, 'checkout.session.completed', 'unpaid'))).status).toBe(200);
  expect((await deliver(completedEvent(topUp, undefined, 'payment_intent.created'))).status).toBe(200);
  await new Promise((r) => setTimeout(r, 500));
  expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(0);
  // Then the payment arrives, followed by a stale session.expired: granted once, stays paid.
  expect((await deliver(completedEvent(topUp, undefined, 'checkout.session.async_payment_succeeded'))).status).toBe(200);
  expect((await deliver(completedEvent(topUp, undefined, 'checkout.session.expired', 'unpaid'))).status).toBe(200);
  await waitFor('the grant', async () => (await workspaceCredits(stack.db, f.workspace.id)) === 12, 15_000, 100);
  expect((await stack.db('top_ups').where({ id: data.id }).first()).status).toBe('paid');
});

it('answers 400 for a bad or missing signature and grants nothing', async () => {
  const { f, data, topUp } = await stripeTopUp();
  const payload = completedEvent(topUp);
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

describe('a validly signed event that does not match its top-up', () => {
  const refusalOf = async (eventId: string) => (await stack.db('stripe_events').where({ id: eventId }).first('refusal'))?.refusal;

  it('is recorded and refused (200 to Stripe, nothing granted) for another session, amount or currency; the matching event then grants', async () => {
    const { f, data, topUp } = await stripeTopUp();
    expect(topUp.sessionId).toMatch(/^cs_/);
    const cases: [string, SessionFields, RegExp][] = [
      ['an unrelated session', { id: 'cs_test_unrelated' }, /session cs_test_unrelated is not the top-up's checkout session/],
      ['one cent', { amount_total: 1 }, /amount_total 1 is not the top-up's 5000/],
      ['another currency', { currency: 'eur' }, /currency eur is not usd/],
    ];
    for (const [what, session, why] of cases) {
      const payload = completedEvent(topUp, undefined, 'checkout.session.completed', 'paid', session);
      const res = await deliver(payload);
      expect({ what, status: res.status, body: await res.json() }).toEqual({ what, status: 200, body: { received: true, outcome: 'mismatch' } });
      expect(await refusalOf(JSON.parse(payload).id)).toMatch(why);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(0);
    expect((await stack.db('top_ups').where({ id: data.id }).first()).status).toBe('open');

    const matching = completedEvent(topUp);
    expect(await (await deliver(matching)).json()).toEqual({ received: true, outcome: 'paid' });
    expect(await refusalOf(JSON.parse(matching).id)).toBeNull();
    await waitFor('the grant', async () => (await workspaceCredits(stack.db, f.workspace.id)) === 12, 15_000, 100);
  });

  it("the probe's case: a top-up made with the test provider, named by a Stripe event with 1 cent and an unrelated session, grants nothing", async () => {
    // Another API process on the same database with the default (test) payment provider.
    const testProvider = await startTestStack({ worker: false });
    try {
      const f = await workspaceWithKey(stack.db, { credits: 0 });
      const res = await testProvider.request('POST', '/v1/billing/top-up', { headers: f.headers, body: { amount_usd: 40 } });
      expect(res.status).toBe(201);
      const payload = completedEvent({ id: res.body.data.id, sessionId: 'cs_test_unrelated' }, undefined, 'checkout.session.completed', 'paid', {
        amount_total: 1,
      });
      const answer = await deliver(payload);
      expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { received: true, outcome: 'mismatch' } });
      expect(await refusalOf(JSON.parse(payload).id)).toMatch(/made with the test provider, not Stripe.*amount_total 1 is not the top-up's 4000/);
      await new Promise((r) => setTimeout(r, 500));
      expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(0);
      expect((await stack.db('top_ups').where({ id: res.body.data.id }).first()).status).toBe('open');
    } finally {
      await testProvider.stop();
    }
  });
});
