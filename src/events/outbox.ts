import { randomBytes } from 'node:crypto';
import type { Db } from '../db/knex';
import { outboxRepository } from '../db/outbox.repository';
import { currentTraceCarrier } from '../tracing/trace-context';

/** Date-form version of the event envelope (spec "Versioning"); changes only on breaking shape changes. */
export const API_VERSION = '2026-11-20';

export const EVENT_TYPES = [
  'search.queued',
  'search.started',
  'search.completed',
  'search.failed',
  'shortlist.changed',
  'webhook.test',
  'billing.topped_up',
  'monitor.matched',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const newEventId = () => `evt_${randomBytes(16).toString('hex')}`;

export interface OutboxEvent {
  workspaceId: string;
  type: EventType;
  data: Record<string, unknown>;
  /** One event per fact: e.g. `search.completed:<searchId>:<pass>`; a retried write is a no-op. */
  dedupeKey: string;
}

/**
 * Writes an event in the caller's transaction, so it exists exactly when the state change does,
 * with the caller's trace context, so its webhook deliveries show up in the trace of the request
 * that caused it. Returns the event id, or null when an event with the same dedupe key was
 * already written.
 */
export async function writeEvent(trx: Db, event: OutboxEvent): Promise<string | null> {
  const id = newEventId();
  const written = await outboxRepository(trx).insert({
    id,
    workspace_id: event.workspaceId,
    type: event.type,
    data: event.data,
    dedupe_key: event.dedupeKey,
    trace_context: currentTraceCarrier(),
  });
  return written ? id : null;
}
