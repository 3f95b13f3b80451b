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

export function idempotencyKeyRepository(db: Db) {
  return {
    async find(workspaceId: string, key: string): Promise<IdempotencyRecord | undefined> {
      return db('idempotency_keys').where({ workspace_id: workspaceId, key }).first();
    },
    async insert(record: IdempotencyRecord): Promise<void> {
      await db('idempotency_keys').insert(record);
    },
  };
}
