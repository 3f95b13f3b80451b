import type Stripe from 'stripe';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import { topUpRepository, type TopUpRow } from '../db/top-up.repository';
import { isUuid } from '../domain/ids';
import { stripeClient } from './payments/stripe-provider';
import { recordPayment, type TopUpDeps } from './top-up.service';

/** Stripe events that mean a Checkout Session's money arrived. */
const PAYMENT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/**
 * Why a paid Checkout Session cannot pay this top-up, or null when it can: the top-up must have
 * been made with Stripe, and the session must be the one made for it (its stored id), for its
 * amount in cents and in USD. A `client_reference_id` alone names a top-up but proves nothing.
 */
export function checkoutMismatch(topUp: TopUpRow, session: Stripe.Checkout.Session): string | null {
  const problems: string[] = [];
  if (topUp.provider !== 'stripe') problems.push(`the top-up was made with the ${topUp.provider} provider, not Stripe`);
  else if (session.id !== topUp.provider_ref) problems.push(`session ${session.id} is not the top-up's checkout session ${topUp.provider_ref}`);
  const cents = Math.round(Number(topUp.amount_usd) * 100);
  if (session.amount_total !== cents) problems.push(`amount_total ${session.amount_total} is not the top-up's ${cents} (cents)`);
  if (session.currency !== 'usd') problems.push(`currency ${session.currency} is not usd`);
  return problems.length ? problems.join('; ') : null;
}

export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * POST {api_url}/api/billing/stripe-webhook. The signature is verified over the raw body with the
 * SDK; each event id is handled once (a redelivery is acknowledged and ignored); a payment is
 * recorded once per top-up whatever order or number of events arrive, and only when its session
 * matches the top-up (checkoutMismatch): a mismatch is recorded, acknowledged and grants nothing.
 */
export async function handleStripeWebhook(
  deps: Pick<TopUpDeps, 'db' | 'temporal' | 'logger'> & { config: Config },
  rawBody: Buffer,
  signature: string | undefined,
): Promise<WebhookAnswer> {
  const secret = deps.config.payments.stripe.webhookSecret;
  if (deps.config.payments.provider !== 'stripe' || !secret) return { status: 404, body: { error: 'Stripe payments are not configured on this service' } };
  let event: Stripe.Event;
  try {
    event = stripeClient(deps.config).webhooks.constructEvent(rawBody, signature ?? '', secret);
  } catch (err) {
    return { status: 400, body: { error: `Webhook signature verification failed: ${(err as Error).message}` } };
  }
  const session = PAYMENT_EVENTS.has(event.type) ? (event.data.object as Stripe.Checkout.Session) : null;
  const topUpId = session?.client_reference_id && isUuid(session.client_reference_id) ? session.client_reference_id : null;
  const result = await deps.db.transaction(async (trx: Db) => {
    const first = await topUpRepository(trx).recordStripeEvent({ id: event.id, type: event.type, topUpId });
    if (!first) return { handled: 'duplicate' as const };
    if (!session || !topUpId) return { handled: 'ignored' as const };
    if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return { handled: 'awaiting_payment' as const };
    const topUp = await topUpRepository(trx).find(topUpId);
    const refusal = topUp && checkoutMismatch(topUp, session);
    if (refusal) {
      await topUpRepository(trx).refuseStripeEvent(event.id, refusal);
      return { handled: 'mismatch' as const, refusal };
    }
    return { handled: 'payment' as const, ...(await recordPayment(deps, topUp, trx)) };
  });
  if (result.handled === 'mismatch') {
    // Acknowledged (Stripe must not redeliver it), recorded on the event's row, and nothing granted.
    deps.logger.warn({ top_up_id: topUpId, stripe_event_id: event.id, refusal: result.refusal }, 'Stripe event does not match its top-up; nothing granted');
    return { status: 200, body: { received: true, outcome: 'mismatch' } };
  }
  if (result.handled === 'payment') {
    await result.signal?.(); // after commit: the workflow must find the payment recorded
    if (result.outcome === 'expired')
      deps.logger.warn({ top_up_id: topUpId, stripe_event_id: event.id }, 'Stripe reported a payment for an expired top-up; nothing granted');
    return { status: 200, body: { received: true, outcome: result.outcome } };
  }
  return { status: 200, body: { received: true, outcome: result.handled } };
}
