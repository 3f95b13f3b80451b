import type { Db } from './knex';

/** What a request under an Idempotency-Key did, to answer its replays the same way. */
export interface IdempotencyRecord {
  workspace_id: string;
  key: string;
  route: string;
  project_id: string | null;
  body_hash: string;
  search_id: string | null;
}

/** A data call's record: `pending` while the first call works (until `locked_until`), then `done` with its answer. */
export interface StoredCall extends IdempotencyRecord {
  state: 'pending' | 'done';
  locked_until: Date | null;
  response_status: number | null;
  response: unknown;
}

export function idempotencyKeyRepository(db: Db) {
  return {
    async find(workspaceId: string, key: string): Promise<StoredCall | undefined> {
      return db('idempotency_keys').where({ workspace_id: workspaceId, key }).first();
    },
    async insert(record: IdempotencyRecord): Promise<void> {
      await db('idempotency_keys').insert(record);
    },
    /** Takes the key for a data call (a pending row, leased for `leaseMs`); false when it exists. */
    async claim(record: Omit<IdempotencyRecord, 'project_id' | 'search_id'>, leaseMs: number): Promise<boolean> {
      const rows = await db('idempotency_keys')
        .insert({ ...record, state: 'pending', locked_until: db.raw(`clock_timestamp() + make_interval(secs => ?)`, [leaseMs / 1000]) })
        .onConflict(['workspace_id', 'key'])
        .ignore()
        .returning('key');
      return rows.length > 0;
    },
    /** Takes over a pending key whose lease ended (its caller died mid-call). */
    async takeOver(workspaceId: string, key: string, leaseMs: number): Promise<boolean> {
      const rows = await db('idempotency_keys')
        .where({ workspace_id: workspaceId, key, state: 'pending' })
        .andWhere('locked_until', '<', db.raw('clock_timestamp()'))
        .update({ locked_until: db.raw(`clock_timestamp() + make_interval(secs => ?)`, [leaseMs / 1000]) })
        .returning('key');
      return rows.length > 0;
    },
    /** Stores the answer of the call that holds the key (in the transaction of its cost event). */
    async complete(workspaceId: string, key: string, responseStatus: number, response: unknown): Promise<void> {
      await db('idempotency_keys')
        .where({ workspace_id: workspaceId, key, state: 'pending' })
        .update({ state: 'done', locked_until: null, response_status: responseStatus, response: JSON.stringify(response) });
    },
    /** A failed call gives its key back, so a retry with the same key can try again. */
    async release(workspaceId: string, key: string): Promise<void> {
      await db('idempotency_keys').where({ workspace_id: workspaceId, key, state: 'pending' }).delete();
    },
  };
}
