/**
 * Names and shapes shared by the top-up workflow (deterministic code) and the code that starts or
 * signals it. Pure: no Node or I/O imports, so workflows may import it. The workflow's type, id
 * (`topup-<id>`) and task queue are in src/temporal/catalog.ts.
 */

/** Sent when a payment was recorded for the top-up (test checkout or Stripe webhook). */
export const TOPUP_PAID_SIGNAL = 'paid';

/** The ledger key of a top-up's grant: a second grant of the same top-up is ignored. */
export const topUpLedgerKey = (topUpId: string) => `topup:${topUpId}`;

export interface TopUpWorkflowInput {
  topUpId: string;
  /** How long the top-up waits for payment (config TOPUP_EXPIRY); the workflow's durable timer. */
  expiresInMs: number;
}

export type TopUpOutcome = 'paid' | 'expired';

export interface GrantResult {
  /** `open`: a signal came without a recorded payment (stray or forged); the workflow keeps waiting. */
  status: 'paid' | 'open' | 'expired';
  /** True only for the call that wrote the ledger entry. */
  granted: boolean;
}
