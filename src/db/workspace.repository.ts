import { randomUUID } from 'node:crypto';
import { creditLedgerRepository } from './credit-ledger.repository';
import { roleFamilyRepository } from './role-family.repository';
import type { Db } from './knex';

export interface Workspace {
  id: string;
  name: string;
  plan: string | null;
  plan_active: boolean;
  plan_expires_at: Date | null;
  api_access_enabled: boolean;
  frozen: boolean;
  rate_limit_per_minute: number;
  /** This workspace's own concurrent search limit; null: its plan's (plans.max_concurrent_searches). */
  max_concurrent_searches: number | null;
  created_at: Date;
  updated_at: Date;
}

export type WorkspaceChanges = Partial<
  Pick<Workspace, 'name' | 'plan' | 'plan_active' | 'plan_expires_at' | 'api_access_enabled' | 'frozen' | 'rate_limit_per_minute' | 'max_concurrent_searches'>
>;

export function workspaceRepository(db: Db) {
  return {
    /** A workspace, its initial credits (workspace bucket) and its role families, in one transaction. */
    async create(fields: { name: string; plan: string | null; credits?: number } & WorkspaceChanges): Promise<Workspace> {
      const { credits = 0, ...columns } = fields;
      return db.transaction(async (trx) => {
        const [row] = await trx('workspaces')
          .insert({ id: randomUUID(), ...columns })
          .returning('*');
        if (credits > 0) await creditLedgerRepository(trx).append({ workspaceId: row.id, bucket: 'workspace', delta: credits, reason: 'grant:initial' });
        await roleFamilyRepository(trx).seedDefaults(row.id);
        return row;
      });
    },
    async find(id: string): Promise<Workspace | undefined> {
      return db('workspaces').where({ id }).first();
    },
    /**
     * Locks the workspace row until the transaction ends: launches and slot claims serialise on it.
     * FOR NO KEY UPDATE, not FOR UPDATE: rows that merely reference the workspace (ledger entries,
     * events) can still be written meanwhile, so a transaction holding a project lock that writes
     * one cannot deadlock with a launch (found by the fuzz test).
     */
    async lock(id: string): Promise<Workspace> {
      return db('workspaces').where({ id }).forNoKeyUpdate().first();
    },
    async update(id: string, changes: WorkspaceChanges): Promise<Workspace | undefined> {
      const [row] = await db('workspaces')
        .where({ id })
        .update({ ...changes, updated_at: db.fn.now() })
        .returning('*');
      return row;
    },
  };
}
