import type { CostsQuery, UsageQuery } from '../billing/billing.schemas';
import { costEventRepository } from '../db/cost-event.repository';
import type { Db } from '../db/knex';
import { usageRepository, type Period } from '../db/usage.repository';
import { invalidRequest } from '../domain/errors';
import { costEventJson, usageReportJson } from './usage.presenter';

/** Longest period one GET /usage answers (its by_day list has a row per day). */
export const MAX_USAGE_DAYS = 366;

/** The current UTC month, the default period of GET /usage. */
export function currentMonth(now = new Date()): Period {
  return { from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

function periodOf(q: UsageQuery): Period {
  const month = currentMonth();
  const to = q.to ? new Date(q.to) : month.to;
  const from = q.from ? new Date(q.from) : q.to ? new Date(to.getTime() - 31 * 86_400_000) : month.from;
  if (to.getTime() <= from.getTime()) throw invalidRequest('to must be after from', { from: from.toISOString(), to: to.toISOString() });
  if (to.getTime() - from.getTime() > MAX_USAGE_DAYS * 86_400_000) throw invalidRequest(`A usage period can span at most ${MAX_USAGE_DAYS} days`, { max_days: MAX_USAGE_DAYS });
  return { from, to };
}

export async function usageReport(db: Db, workspaceId: string, q: UsageQuery) {
  const period = periodOf(q);
  return usageReportJson(period, await usageRepository(db).figures(workspaceId, period));
}

export async function listCosts(db: Db, workspaceId: string, q: CostsQuery) {
  const { events, total } = await costEventRepository(db).list(workspaceId, { requestId: q.request_id, action: q.action, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined });
  return { costs: events.map(costEventJson), total };
}
