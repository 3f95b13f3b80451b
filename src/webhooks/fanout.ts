import type { Db } from '../db/knex';
import { webhookRepository, type UnstartedDelivery } from '../db/webhook.repository';
import type { DeliveryWorkflowInput } from './contract';

/** Starts the delivery workflow of one delivery; starting one that exists must be a no-op. */
export type StartDelivery = (delivery: UnstartedDelivery, input: DeliveryWorkflowInput) => Promise<void>;

export const FANOUT_BATCH = 200;
const START_CONCURRENCY = 32;

/**
 * Fans out one batch of undispatched outbox events: one delivery row per (event, subscribed
 * enabled endpoint), one workflow per delivery, then `dispatched_at`. Every step is idempotent,
 * so a crash anywhere leaves the events undispatched and the next sweep finishes the job without
 * doubling anything. Returns the number of events handled.
 */
export async function fanOutEvents(
  db: Db,
  start: StartDelivery,
  opts: { retryScheduleSeconds: number[]; limit?: number; eventIds?: string[]; taskQueue?: string },
): Promise<number> {
  const { events, pending } = await db.transaction(async (trx) => {
    const repo = webhookRepository(trx);
    const claimed = await repo.claimUndispatched(opts.limit ?? FANOUT_BATCH, opts.eventIds, opts.taskQueue);
    if (claimed.length === 0) return { events: [], pending: [] };
    const ids = claimed.map((e) => e.id);
    await repo.createDeliveries(ids);
    return { events: ids, pending: await repo.unstartedDeliveries(ids) };
  });
  if (events.length === 0) return 0;
  // Started after the commit: a workflow's first read must find its delivery row.
  await eachLimited(pending, START_CONCURRENCY, (d) =>
    start(d, { deliveryId: d.id, retryScheduleSeconds: d.event_type === 'webhook.test' ? [] : opts.retryScheduleSeconds }),
  );
  await webhookRepository(db).markDispatched(events);
  return events.length;
}

/** Fans out (the events of `taskQueue`) until nothing undispatched is left or a batch comes back short. */
export async function drainOutbox(db: Db, start: StartDelivery, retryScheduleSeconds: number[], taskQueue?: string): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await fanOutEvents(db, start, { retryScheduleSeconds, taskQueue });
    total += n;
    if (n < FANOUT_BATCH) return total;
  }
}

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}
