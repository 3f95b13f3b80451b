import { usagePeriod, type CostsQuery, type UsageQuery } from '../billing/billing.schemas';
import { costEventRepository } from '../db/cost-event.repository';
import type { Db } from '../db/knex';
import { usageRepository } from '../db/usage.repository';
import { costEventJson, usageReportJson } from './usage.presenter';

export { currentMonth } from '../billing/billing.schemas';

/** GET /usage for a validated query (the route's schema has checked the period's order and span). */
export async function usageReport(db: Db, workspaceId: string, q: UsageQuery) {
  const period = usagePeriod(q);
  return usageReportJson(period, await usageRepository(db).figures(workspaceId, period));
}

export async function listCosts(db: Db, workspaceId: string, q: CostsQuery) {
  const { events, total } = await costEventRepository(db).list(workspaceId, {
    requestId: q.request_id,
    action: q.action,
    from: q.from ? new Date(q.from) : undefined,
    to: q.to ? new Date(q.to) : undefined,
  });
  return { costs: events.map(costEventJson), total };
}
