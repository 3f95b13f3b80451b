import { z } from 'zod';

/** Request and response shapes of the billing and usage routes (DESIGN.md §3, §8): declared once. */

export const MIN_TOP_UP_USD = 10;
export const MAX_TOP_UP_USD = 10_000;

const twoDecimals = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

export const topUpBody = z
  .object({
    amount_usd: z
      .number({ error: 'amount_usd must be a number' })
      .min(MIN_TOP_UP_USD, `amount_usd must be at least ${MIN_TOP_UP_USD}`)
      .max(MAX_TOP_UP_USD, `amount_usd must be at most ${MAX_TOP_UP_USD}`)
      .refine(twoDecimals, 'amount_usd may have at most two decimals')
      .describe(`US dollars to pay, ${MIN_TOP_UP_USD} to ${MAX_TOP_UP_USD}, at most two decimals`),
  })
  .strict()
  .describe('A credit top-up');

export const topUpResult = z.object({
  id: z.string().describe('top-up id'),
  url: z.string().describe('checkout link; nothing is charged until someone pays there'),
  amount_usd: z.number(),
  shortlists: z.number().int().describe("credits the amount buys at the plan's rate"),
  test_mode: z.boolean(),
  status: z.enum(['open', 'paid', 'expired']),
  expires_at: z.string(),
});

export const topUpResource = topUpResult.extend({
  bucket: z.enum(['workspace', 'contract_pool']),
  provider: z.enum(['test', 'stripe']),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  granted_at: z.string().nullable(),
});
export const topUpList = z.array(topUpResource);

export const balanceResult = z.object({
  credits: z.number().int().describe('balance of the bucket the calling key draws from'),
  buckets: z.object({ workspace: z.number().int(), contract_pool: z.number().int() }),
  plan: z.object({ name: z.string().nullable(), active: z.boolean(), usd_per_credit: z.number().nullable() }),
});

const digits = z.string().regex(/^\d{1,18}$/, 'must be a ledger entry id');
export const ledgerQuery = z.object({ before: digits.optional().describe('only entries older than this entry id') }).strict();
export const ledgerEntry = z.object({ id: z.string(), bucket: z.enum(['workspace', 'contract_pool']), delta: z.number().int(), reason: z.string(), created_at: z.string() });
export const ledgerList = z.array(ledgerEntry);

const isoTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp, e.g. 2026-11-01T00:00:00Z' });

export const costsQuery = z
  .object({
    request_id: z.string().min(1).max(128).optional().describe('the X-Request-Id of a call'),
    action: z.string().min(1).max(64).optional().describe('operation name, e.g. launch_search, expand_project, search_refund'),
    from: isoTime.optional().describe('inclusive'),
    to: isoTime.optional().describe('exclusive; pass the oldest created_at seen to read older rows'),
  })
  .strict();
export const costEvent = z.object({
  id: z.string(),
  request_id: z.string().nullable(),
  action: z.string(),
  key_id: z.string().nullable(),
  credits: z.number().int(),
  usd: z.number(),
  units: z.number().int(),
  provider: z.string().nullable(),
  created_at: z.string(),
});
export const costList = z.array(costEvent);

export const usageQuery = z
  .object({
    from: isoTime.optional().describe('inclusive; default the start of the current UTC month'),
    to: isoTime.optional().describe('exclusive; default the start of the next UTC month'),
  })
  .strict();
export const usageReport = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  requests: z.object({ total: z.number().int(), by_action: z.record(z.string(), z.number().int()) }),
  credits: z.object({ used: z.number().int(), refunded: z.number().int(), granted: z.number().int() }),
  usd: z.object({ total: z.number(), by_action: z.record(z.string(), z.number()) }),
  searches: z.object({ launched: z.number().int(), complete: z.number().int(), failed: z.number().int() }),
  by_day: z.array(z.object({ date: z.string(), requests: z.number().int(), credits_used: z.number().int(), usd: z.number() })),
});

export type TopUpBody = z.infer<typeof topUpBody>;
export type CostsQuery = z.infer<typeof costsQuery>;
export type UsageQuery = z.infer<typeof usageQuery>;
