import type { FundingMode } from '../domain/api-keys';
import type { Db } from './knex';

export type CreditBucket = FundingMode;

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
