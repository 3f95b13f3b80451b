import type { Db } from './knex';

export interface OutboxRow {
  id: string;
  workspace_id: string;
  type: string;
  data: Record<string, unknown>;
  dedupe_key: string;
  /** The writer's trace context; its deliveries continue that trace. */
  trace_context: Record<string, string> | null;
}

/** The transactional outbox (outbox_events); fan-out reads it through the webhook repository. */
export function outboxRepository(db: Db) {
  return {
    /** Returns false when an event with the same dedupe key exists (a retried write). */
    async insert(event: OutboxRow): Promise<boolean> {
      const rows = await db('outbox_events')
        // clock_timestamp, not now(): a transaction that waited for a lock writes a later created_at,
        // so created_at follows the order in which changes really happened (receivers sort by it).
        .insert({ ...event, created_at: db.raw('clock_timestamp()') })
        .onConflict('dedupe_key')
        .ignore()
        .returning('id');
      return rows.length > 0;
    },
  };
}
