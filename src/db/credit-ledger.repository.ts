import type { FundingMode } from '../domain/api-keys';
import type { Db } from './knex';

export type CreditBucket = FundingMode;

export interface LedgerRow {
  id: number;
  workspace_id: string;
  bucket: CreditBucket;
  delta: number;
  reason: string;
  created_at: Date;
}

export const MAX_LEDGER_ENTRIES_LISTED = 200;

export interface LedgerEntry {
  workspaceId: string;
  bucket: CreditBucket;
  delta: number;
  reason: string;
  /** A second entry with the same key is ignored (retried reserve, refund or grant). */
  uniqueKey?: string;
}

/** The append-only credit ledger; a balance is the sum of a bucket's rows. */
export function creditLedgerRepository(db: Db) {
  return {
    /** Returns false when an entry with the same unique key already exists. */
    async append(entry: LedgerEntry): Promise<boolean> {
      const rows = await db('credit_ledger')
        .insert({ workspace_id: entry.workspaceId, bucket: entry.bucket, delta: entry.delta, reason: entry.reason, unique_key: entry.uniqueKey ?? null })
        .onConflict('unique_key')
        .ignore()
        .returning('id');
      return rows.length > 0;
    },
    /** Newest first; `before` (an entry id) reads older entries. */
    list(workspaceId: string, opts: { before?: number; limit?: number } = {}): Promise<LedgerRow[]> {
      const q = db('credit_ledger').where({ workspace_id: workspaceId });
      if (opts.before !== undefined) q.andWhere('id', '<', opts.before);
      return q
        .orderBy('id', 'desc')
        .limit(opts.limit ?? MAX_LEDGER_ENTRIES_LISTED)
        .select('id', 'workspace_id', 'bucket', 'delta', 'reason', 'created_at');
    },
    async findByUniqueKey(uniqueKey: string): Promise<{ bucket: CreditBucket; delta: number } | undefined> {
      return db('credit_ledger').where({ unique_key: uniqueKey }).first();
    },
    async balance(workspaceId: string, bucket: CreditBucket): Promise<number> {
      const row = await db('credit_ledger').where({ workspace_id: workspaceId, bucket }).sum({ total: 'delta' }).first();
      return Number(row?.total ?? 0);
    },
    async balances(workspaceId: string): Promise<Record<CreditBucket, number>> {
      const rows: { bucket: CreditBucket; total: string }[] = await db('credit_ledger')
        .where({ workspace_id: workspaceId })
        .groupBy('bucket')
        .select('bucket')
        .sum({ total: 'delta' });
      const result: Record<CreditBucket, number> = { workspace: 0, contract_pool: 0 };
      for (const r of rows) result[r.bucket] = Number(r.total);
      return result;
    },
  };
}
