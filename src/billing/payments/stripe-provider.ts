import Stripe from 'stripe';
import type { Config } from '../../config';
import { AppError } from '../../domain/errors';
import type { PaymentProvider } from './provider';

/** Stripe Checkout Sessions can live 30 minutes to 24 hours. */
const MIN_SESSION_SECONDS = 30 * 60;
const MAX_SESSION_SECONDS = 24 * 60 * 60;

const clients = new WeakMap<Config, Stripe>();

/** The Stripe client for the configured key (one per config), talking to STRIPE_API_BASE (stripe-mock in tests). */
export function stripeClient(config: Config): Stripe {
  const { secretKey, apiBase } = config.payments.stripe;
  if (!secretKey) throw new Error('STRIPE_SECRET_KEY is not set');
  const known = clients.get(config);
  if (known) return known;
  const base = new URL(apiBase);
  const client = new Stripe(secretKey, {
    host: base.hostname,
    port: base.port || (base.protocol === 'https:' ? 443 : 80),
    protocol: base.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
    timeout: 20_000,
  });
  clients.set(config, client);
  return client;
}

export const isStripeTestKey = (key: string | undefined) => !!key && /^(sk|rk)_test_/.test(key);

/** Stripe Checkout: one session per top-up, `client_reference_id` = the top-up id. */
export function stripeProvider(config: Config): PaymentProvider {
  const stripe = stripeClient(config);
  return {
    name: 'stripe',
    async createCheckout(req) {
      const lifetime = Math.min(MAX_SESSION_SECONDS, Math.max(MIN_SESSION_SECONDS, req.expiresInSeconds));
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            client_reference_id: req.topUpId,
            line_items: [
              {
                quantity: 1,
                price_data: { currency: 'usd', unit_amount: Math.round(req.amountUsd * 100), product_data: { name: `${req.shortlists} shortlist credits` } },
              },
            ],
            metadata: { top_up_id: req.topUpId, workspace_id: req.workspaceId },
            success_url: `${config.appUrl}/checkout/stripe/success?top_up=${req.topUpId}`,
            cancel_url: `${config.appUrl}/checkout/stripe/cancelled?top_up=${req.topUpId}`,
            expires_at: Math.floor(Date.now() / 1000) + lifetime,
          },
          // A retried create (network failure) must not make a second session.
          { idempotencyKey: `topup-${req.topUpId}` },
        );
      } catch (err) {
        throw new AppError('provider_error', 502, `The payment provider could not create a checkout: ${(err as Error).message}; nothing was charged`);
      }
      if (!session.url) throw new AppError('provider_error', 502, 'The payment provider returned a checkout without a URL; nothing was charged');
      return { url: session.url, token: null, providerRef: session.id, testMode: isStripeTestKey(config.payments.stripe.secretKey) };
    },
  };
}
