import type { Db } from './knex';

export interface UsageCount {
  workspaceId: string;
  /** UTC date, YYYY-MM-DD. */
  day: string;
  action: string;
  requests: number;
}

export interface Period {
  from: Date;
  /** Exclusive. */
  to: Date;
}

export interface UsageFigures {
  requestsByAction: { action: string; requests: number }[];
  requestsByDay: { day: string; requests: number }[];
  costsByAction: { action: string; used: number; refunded: number; usd: number }[];
  costsByDay: { day: string; credits_used: number; usd: number }[];
  granted: number;
  searches: { launched: number; complete: number; failed: number };
}

const utcDay = (column: string) => `to_char((${column} at time zone 'utc')::date, 'YYYY-MM-DD')`;

/** Request counts (batched writes from the API processes) and the usage report's aggregates. */
export function usageRepository(db: Db) {
  return {
    /** Adds a batch of counts in one statement; concurrent flushes of several processes add up. */
    async addCounts(counts: UsageCount[]): Promise<void> {
      if (counts.length === 0) return;
      await db('usage_counts')
        .insert(counts.map((c) => ({ workspace_id: c.workspaceId, day: c.day, action: c.action, requests: c.requests })))
        .onConflict(['workspace_id', 'day', 'action'])
        .merge({ requests: db.raw('usage_counts.requests + excluded.requests') });
    },
    /** Everything GET /usage reports for a workspace and period, read in parallel. */
    async figures(workspaceId: string, p: Period): Promise<UsageFigures> {
      const fromDay = p.from.toISOString().slice(0, 10);
      const toDay = p.to.toISOString().slice(0, 10);
      // Days are whole UTC days: a period's partial first or last day counts whole for requests.
      const counts = () =>
        db('usage_counts')
          .where({ workspace_id: workspaceId })
          .andWhere('day', '>=', fromDay)
          .andWhere((q) => (p.to.getTime() % 86_400_000 === 0 ? q.where('day', '<', toDay) : q.where('day', '<=', toDay)));
      const costs = () => db('cost_events').where({ workspace_id: workspaceId }).andWhere('created_at', '>=', p.from).andWhere('created_at', '<', p.to);
      const [requestsByAction, requestsByDay, costsByAction, costsByDay, [{ granted }], [searches]] = await Promise.all([
        counts().groupBy('action').orderBy('action').select('action').sum({ requests: 'requests' }),
        counts().groupBy('day').orderBy('day').select(db.raw(`to_char(day, 'YYYY-MM-DD') as day`)).sum({ requests: 'requests' }),
        costs()
          .groupBy('action')
          .orderBy('action')
          .select(
            'action',
            db.raw('coalesce(sum(credits) filter (where credits > 0), 0)::int as used'),
            db.raw('coalesce(-sum(credits) filter (where credits < 0), 0)::int as refunded'),
            db.raw('coalesce(sum(usd), 0)::float8 as usd'),
          ),
        costs()
          .groupByRaw(utcDay('created_at'))
          .orderByRaw(utcDay('created_at'))
          .select(
            db.raw(`${utcDay('created_at')} as day`),
            db.raw('coalesce(sum(credits) filter (where credits > 0), 0)::int as credits_used'),
            db.raw('coalesce(sum(usd), 0)::float8 as usd'),
          ),
        // Credits that came in: grants and top-ups (refunds give back used credits; they are not grants).
        db('credit_ledger')
          .where({ workspace_id: workspaceId })
          .andWhere('delta', '>', 0)
          .andWhereNot('reason', 'search:refund')
          .andWhere('created_at', '>=', p.from)
          .andWhere('created_at', '<', p.to)
          .select(db.raw('coalesce(sum(delta), 0)::int as granted')),
        db('searches')
          .where({ workspace_id: workspaceId })
          .andWhere('created_at', '>=', p.from)
          .andWhere('created_at', '<', p.to)
          .select(
            db.raw('count(*)::int as launched'),
            db.raw(`count(*) filter (where status = 'complete')::int as complete`),
            db.raw(`count(*) filter (where status = 'failed')::int as failed`),
          ),
      ]);
      return {
        requestsByAction: (requestsByAction as unknown as { action: string; requests: string | number }[]).map((r) => ({
          action: r.action,
          requests: Number(r.requests),
        })),
        requestsByDay: (requestsByDay as unknown as { day: string; requests: string | number }[]).map((r) => ({ day: r.day, requests: Number(r.requests) })),
        costsByAction,
        costsByDay,
        granted: Number(granted),
        searches,
      };
    },
  };
}
