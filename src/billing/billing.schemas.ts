import { z } from 'zod';
import type { Period } from '../db/usage.repository';
import { FUNDING_MODES } from '../domain/api-keys';

/** Request and response shapes of the billing and usage routes (DESIGN.md §3, §8): declared once. */

export const MIN_TOP_UP_USD = 10;
export const MAX_TOP_UP_USD = 10_000;

export const topUpBody = z
  .strictObject({
    amount_usd: z
      .number({ error: 'amount_usd must be a number' })
      .min(MIN_TOP_UP_USD, `amount_usd must be at least ${MIN_TOP_UP_USD}`)
      .max(MAX_TOP_UP_USD, `amount_usd must be at most ${MAX_TOP_UP_USD}`)
      .multipleOf(0.01, 'amount_usd may have at most two decimals')
      .describe(`US dollars to pay, ${MIN_TOP_UP_USD} to ${MAX_TOP_UP_USD}, at most two decimals`),
  })
  .meta({ id: 'TopUpRequest', description: 'A credit top-up' });

const digits = z.string().regex(/^\d{1,18}$/, 'must be a ledger entry id');
export const ledgerQuery = z.strictObject({ before: digits.transform(Number).optional().describe('only entries older than this entry id') });

const isoTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp, e.g. 2026-11-01T00:00:00Z' });

// Strict: a misspelt filter is a 400, not a silently unfiltered list.
export const costsQuery = z.strictObject({
  request_id: z.string().min(1).max(128).optional().describe('the X-Request-Id of a call'),
  action: z.string().min(1).max(64).optional().describe('operation name, e.g. launch_search, expand_project, search_refund'),
  from: isoTime.optional().describe('inclusive'),
  to: isoTime.optional().describe('exclusive; pass the oldest created_at seen to read older rows'),
});

/** Longest period one GET /usage answers (its by_day list has a row per day). */
export const MAX_USAGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** The current UTC month, the default period of GET /usage. */
export function currentMonth(now = new Date()): Period {
  return { from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

/** The period a usage query asks for: the current UTC month by default; `to` alone means the 31 days before it. */
export function usagePeriod(q: { from?: string; to?: string }, now = new Date()): Period {
  const month = currentMonth(now);
  const to = q.to ? new Date(q.to) : month.to;
  const from = q.from ? new Date(q.from) : q.to ? new Date(to.getTime() - 31 * DAY_MS) : month.from;
  return { from, to };
}

export const usageQuery = z
  .strictObject({
    from: isoTime.optional().describe('inclusive; default the start of the current UTC month'),
    to: isoTime.optional().describe(`exclusive; default the start of the next UTC month; at most ${MAX_USAGE_DAYS} days after from`),
  })
  .superRefine((q, ctx) => {
    if (q.from === undefined && q.to === undefined) return;
    if (q.from !== undefined && !isoTime.safeParse(q.from).success) return;
    if (q.to !== undefined && !isoTime.safeParse(q.to).success) return;
    const { from, to } = usagePeriod(q);
    if (to.getTime() <= from.getTime()) ctx.addIssue({ code: 'custom', path: ['to'], message: `must be after from (${from.toISOString()})` });
    else if (to.getTime() - from.getTime() > MAX_USAGE_DAYS * DAY_MS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `a usage period can span at most ${MAX_USAGE_DAYS} days`, params: { max_days: MAX_USAGE_DAYS } });
  });

// ---- responses ----

const datetime = z.iso.datetime();
const TOP_UP_STATUSES = ['open', 'paid', 'expired'] as const;

export const topUpResult = z
  .strictObject({
    id: z.uuid().describe('top-up id'),
    url: z.string().describe('checkout link; nothing is charged until someone pays there'),
    amount_usd: z.number(),
    shortlists: z.int().describe("credits the amount buys at the plan's rate"),
    test_mode: z.boolean(),
    status: z.enum(TOP_UP_STATUSES),
    expires_at: datetime,
  })
  .meta({ id: 'TopUpCheckout' });

export const topUpResource = topUpResult
  .extend({
    bucket: z.enum(FUNDING_MODES),
    provider: z.enum(['test', 'stripe']),
    created_at: datetime,
    paid_at: datetime.nullable(),
    granted_at: datetime.nullable(),
  })
  .meta({ id: 'TopUp' });

export const balanceResult = z
  .strictObject({
    credits: z.int().describe('balance of the bucket the calling key draws from'),
    buckets: z.strictObject({ workspace: z.int(), contract_pool: z.int() }),
    plan: z.strictObject({ name: z.string().nullable(), active: z.boolean(), usd_per_credit: z.number().nullable() }),
  })
  .meta({ id: 'Balance' });

export const ledgerEntry = z
  .strictObject({
    id: z.string().describe('entry id (pass as ?before= to read older entries)'),
    bucket: z.enum(FUNDING_MODES),
    delta: z.int(),
    reason: z.string(),
    created_at: datetime,
  })
  .meta({ id: 'LedgerEntry' });

export const costEvent = z
  .strictObject({
    id: z.uuid(),
    request_id: z.string().nullable().describe('X-Request-Id of the call that caused it'),
    action: z.string(),
    key_id: z.uuid().nullable(),
    credits: z.int().describe('credits used; negative for a refund'),
    usd: z.number(),
    units: z.int(),
    provider: z.string().nullable(),
    created_at: datetime,
  })
  .meta({ id: 'CostEvent' });

const ymd = z.iso.date();
export const usageReport = z
  .strictObject({
    period: z.strictObject({ from: datetime, to: datetime }),
    requests: z.strictObject({ total: z.int(), by_action: z.record(z.string(), z.int()) }),
    credits: z.strictObject({ used: z.int(), refunded: z.int(), granted: z.int() }),
    usd: z.strictObject({ total: z.number(), by_action: z.record(z.string(), z.number()) }),
    searches: z.strictObject({ launched: z.int(), complete: z.int(), failed: z.int() }),
    by_day: z.array(z.strictObject({ date: ymd, requests: z.int(), credits_used: z.int(), usd: z.number() })),
  })
  .meta({ id: 'UsageReport' });

/** `billing.topped_up` event data: ids, counts and links, as every event. */
export const toppedUpData = z
  .strictObject({
    top_up_id: z.uuid(),
    amount_usd: z.number(),
    shortlists: z.int(),
    bucket: z.enum(FUNDING_MODES),
    credits: z.int().describe('balance of the bucket after the grant'),
    test_mode: z.boolean(),
    paid_at: datetime.nullable(),
    links: z.strictObject({ balance: z.string(), top_ups: z.string(), ledger: z.string() }),
  })
  .meta({ id: 'ToppedUpData' });

export type TopUpBody = z.infer<typeof topUpBody>;
export type CostsQuery = z.output<typeof costsQuery>;
export type UsageQuery = z.output<typeof usageQuery>;
