import type { Config } from '../../config';
import { stripeProvider } from './stripe-provider';
import { testProvider } from './test-provider';

export interface CheckoutRequest {
  topUpId: string;
  workspaceId: string;
  amountUsd: number;
  shortlists: number;
  expiresInSeconds: number;
}

export interface Checkout {
  /** Where the payer goes to pay. */
  url: string;
  /** The test provider's checkout token (the page's credential); null for other providers. */
  token: string | null;
  /** The provider's own id of the checkout (Stripe Checkout Session id). */
  providerRef: string | null;
  testMode: boolean;
}

/**
 * A way to take payment for a top-up (DESIGN.md §8). Creating a checkout charges nothing; the
 * provider later reports the payment, which the billing service records and signals.
 */
export interface PaymentProvider {
  name: 'test' | 'stripe';
  createCheckout(req: CheckoutRequest): Promise<Checkout>;
}

/** The provider chosen by PAYMENTS_PROVIDER. */
export function paymentProvider(config: Config): PaymentProvider {
  return config.payments.provider === 'stripe' ? stripeProvider(config) : testProvider(config);
}
