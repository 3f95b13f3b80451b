import type { z } from 'zod';
import type { costEvent, usageReport } from '../billing/billing.schemas';
import type { CostEventRow } from '../db/cost-event.repository';
import type { Period, UsageFigures } from '../db/usage.repository';

export const costEventJson = (e: CostEventRow): z.infer<typeof costEvent> => ({
  id: e.id,
  request_id: e.request_id,
  action: e.action,
  key_id: e.key_id,
  credits: e.credits,
  usd: Number(e.usd),
  units: e.units,
  provider: e.provider,
  created_at: e.created_at.toISOString(),
});

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** GET /usage (DESIGN.md §8), with one by_day row per UTC day of the period up to today. */
export function usageReportJson(p: Period, f: UsageFigures, today = new Date()): z.infer<typeof usageReport> {
  const days = new Map<string, { date: string; requests: number; credits_used: number; usd: number }>();
  const last = Math.min(p.to.getTime() - 1, Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  for (let t = Date.UTC(p.from.getUTCFullYear(), p.from.getUTCMonth(), p.from.getUTCDate()); t <= last; t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.set(date, { date, requests: 0, credits_used: 0, usd: 0 });
  }
  const dayOf = (date: string) => days.get(date) ?? days.set(date, { date, requests: 0, credits_used: 0, usd: 0 }).get(date)!;
  for (const r of f.requestsByDay) dayOf(r.day).requests = r.requests;
  for (const c of f.costsByDay) Object.assign(dayOf(c.day), { credits_used: c.credits_used, usd: round4(c.usd) });
  return {
    period: { from: p.from.toISOString(), to: p.to.toISOString() },
    requests: {
      total: f.requestsByAction.reduce((s, r) => s + r.requests, 0),
      by_action: Object.fromEntries(f.requestsByAction.map((r) => [r.action, r.requests])),
    },
    credits: { used: f.costsByAction.reduce((s, c) => s + c.used, 0), refunded: f.costsByAction.reduce((s, c) => s + c.refunded, 0), granted: f.granted },
    usd: {
      total: round4(f.costsByAction.reduce((s, c) => s + c.usd, 0)),
      by_action: Object.fromEntries(f.costsByAction.filter((c) => c.usd !== 0).map((c) => [c.action, round4(c.usd)])),
    },
    searches: f.searches,
    by_day: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
  };
}
