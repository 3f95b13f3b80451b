import { randomUUID } from 'node:crypto';
import { DEFAULT_DATA_PRICES, type PriceName } from '../billing/data-prices';
import type { Db } from './knex';

export interface CostEventRow {
  id: string;
  workspace_id: string;
  request_id: string | null;
  action: string;
  key_id: string | null;
  credits: number;
  /** Decimal string. */
  usd: string;
  units: number;
  provider: string | null;
  unique_key: string | null;
  created_at: Date;
}

export interface NewCostEvent {
  workspaceId: string;
  requestId: string | null;
  action: string;
  keyId: string | null;
  credits?: number;
  /** USD, or the named price of the workspace's plan (read in the insert itself, no extra round trip). */
  usd?: number | { plan: string | null; price: PriceName };
  units?: number;
  provider?: string | null;
  /** The ledger key of the billed effect: a retried write is a no-op. */
  uniqueKey?: string;
}

export interface CostEventFilter {
  requestId?: string;
  action?: string;
  from?: Date;
  /** Exclusive, so `to` = the oldest created_at seen reads the next older rows. */
  to?: Date;
}

export const MAX_COST_EVENTS_LISTED = 500;

/** The plan's price for one data call, else the default (DESIGN.md §9), as an SQL expression. */
const planPrice = (db: Db, plan: string | null, price: PriceName) =>
  db.raw(`coalesce((select (data_prices ->> ?)::numeric from plans where name = ?), ?)`, [price, plan, DEFAULT_DATA_PRICES[price]]);

/** Cost events: written inside the transaction of the effect they bill (DESIGN.md §8). */
export function costEventRepository(db: Db) {
  const filtered = (workspaceId: string, f: CostEventFilter) => {
    const q = db('cost_events').where({ workspace_id: workspaceId });
    if (f.requestId !== undefined) q.andWhere({ request_id: f.requestId });
    if (f.action !== undefined) q.andWhere({ action: f.action });
    if (f.from) q.andWhere('created_at', '>=', f.from);
    if (f.to) q.andWhere('created_at', '<', f.to);
    return q;
  };
  return {
    async record(e: NewCostEvent): Promise<boolean> {
      const rows = await db('cost_events')
        .insert({
          id: randomUUID(),
          workspace_id: e.workspaceId,
          request_id: e.requestId,
          action: e.action,
          key_id: e.keyId,
          credits: e.credits ?? 0,
          usd: typeof e.usd === 'object' ? planPrice(db, e.usd.plan, e.usd.price) : (e.usd ?? 0),
          units: e.units ?? 1,
          provider: e.provider ?? null,
          unique_key: e.uniqueKey ?? null,
        })
        .onConflict('unique_key')
        .ignore()
        .returning('id');
      return rows.length > 0;
    },
    findByUniqueKey(uniqueKey: string): Promise<CostEventRow | undefined> {
      return db('cost_events').where({ unique_key: uniqueKey }).first();
    },
    async list(workspaceId: string, f: CostEventFilter, limit = MAX_COST_EVENTS_LISTED): Promise<{ events: CostEventRow[]; total: number }> {
      const [events, [{ total }]] = await Promise.all([
        filtered(workspaceId, f)
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(limit),
        filtered(workspaceId, f).count({ total: '*' }),
      ]);
      return { events, total: Number(total) };
    },
  };
}
