/**
 * Shapes shared by the webhook workflows (deterministic code) and the code that starts or signals
 * them (workflow names, ids and queues: src/temporal/catalog.ts). Pure: no Node or I/O imports,
 * so workflows may import it.
 */

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'abandoned'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** 1 attempt + one per retry step: the seventh failure abandons the delivery. */
export const SPEC_RETRY_SCHEDULE_SECONDS = [30, 120, 600, 3600, 21600, 86400] as const;

/** Sent to a running delivery workflow: make the next attempt now instead of after its timer. */
export const REDELIVER_SIGNAL = 'redeliverNow';

export type AttemptTrigger = 'scheduled' | 'redeliver';

export interface DeliveryWorkflowInput {
  deliveryId: string;
  /** Seconds to wait after each failed attempt; empty for a test or a manual redelivery (one attempt). */
  retryScheduleSeconds: number[];
  /** `redeliver`: a one-attempt manual redelivery of a finished delivery. */
  trigger?: AttemptTrigger;
}

export interface AttemptInput {
  deliveryId: string;
  /** `<workflow id>#<step>`: makes a retried attempt activity idempotent. */
  attemptKey: string;
  /** Seconds until the next attempt when this one fails; null when this is the last one. */
  retryInSeconds: number | null;
  trigger: AttemptTrigger;
  /** A manual redelivery outside the retry schedule: a failure leaves the delivery's status as it was. */
  manualRedelivery: boolean;
}

export interface AttemptOutcome {
  /** The delivery's status afterwards; `stopped` when the endpoint is gone or off. */
  status: DeliveryStatus | 'stopped';
  /** True when the workflow should wait `retryInSeconds` and attempt again. */
  retry: boolean;
}

export interface OutboxSweepInput {
  /** How long one dispatcher run listens before the workflow ends (the schedule starts the next). */
  runSeconds: number;
}
