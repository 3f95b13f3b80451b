import type { z } from 'zod';
import type { LedgerRow } from '../db/credit-ledger.repository';
import type { TopUpRow } from '../db/top-up.repository';
import type { balanceResult, ledgerEntry, toppedUpData, topUpResource, topUpResult } from './billing.schemas';

/** JSON shapes of billing sent to clients and in events. */

/** The spec's top-up result (`url`, `amount_usd`, `shortlists`, `test_mode`) plus id, status and expiry. */
export function topUpResultJson(t: TopUpRow): z.infer<typeof topUpResult> {
  return {
    id: t.id,
    url: t.checkout_url,
    amount_usd: Number(t.amount_usd),
    shortlists: t.shortlists,
    test_mode: t.test_mode,
    status: t.status,
    expires_at: t.expires_at.toISOString(),
  };
}

export function topUpJson(t: TopUpRow): z.infer<typeof topUpResource> {
  return {
    ...topUpResultJson(t),
    bucket: t.bucket,
    provider: t.provider,
    created_at: t.created_at.toISOString(),
    paid_at: t.paid_at?.toISOString() ?? null,
    granted_at: t.granted_at?.toISOString() ?? null,
  };
}

export const ledgerEntryJson = (e: LedgerRow): z.infer<typeof ledgerEntry> => ({
  id: String(e.id),
  bucket: e.bucket,
  delta: e.delta,
  reason: e.reason,
  created_at: e.created_at.toISOString(),
});

export type BalanceJson = z.infer<typeof balanceResult>;

/** `billing.topped_up` event data: ids, counts and links, as every event. */
export function toppedUpEventData(t: TopUpRow, credits: number, baseUrl: string): z.infer<typeof toppedUpData> {
  return {
    top_up_id: t.id,
    amount_usd: Number(t.amount_usd),
    shortlists: t.shortlists,
    bucket: t.bucket,
    credits,
    test_mode: t.test_mode,
    paid_at: t.paid_at?.toISOString() ?? null,
    links: { balance: `${baseUrl}/billing/balance`, top_ups: `${baseUrl}/billing/top-ups`, ledger: `${baseUrl}/billing/ledger` },
  };
}
