import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { ApiKey } from '../db/api-key.repository';
import { creditLedgerRepository } from '../db/credit-ledger.repository';
import type { Db } from '../db/knex';
import { planRepository } from '../db/plan.repository';
import { topUpRepository, type TopUpRow } from '../db/top-up.repository';
import type { Workspace } from '../db/workspace.repository';
import { AppError } from '../domain/errors';
import { writeEvent } from '../events/outbox';
import type { Logger } from '../logger';
import { planCheck } from '../searches/launch.service';
import { catalog, startWorkflow, type TemporalTarget } from '../temporal/catalog';
import { WorkspaceIdAttr } from '../temporal/search-attributes';
import { toppedUpEventData } from './billing.presenter';
import type { PaymentProvider } from './payments/provider';
import { TOPUP_PAID_SIGNAL, topUpLedgerKey, type GrantResult, type TopUpWorkflowInput } from './topup.contract';

export const TOPUP_LEDGER_REASON = 'billing:topup';

export interface TopUpDeps {
  db: Db;
  temporal: TemporalTarget;
  provider: PaymentProvider;
  expirySeconds: number;
  logger: Logger;
}

/** Credits an amount buys: whole credits at the plan's rate, computed in cents (no float drift). */
export function creditsFor(amountUsd: number, usdPerCredit: number): number {
  return Math.floor(Math.round(amountUsd * 100) / Math.round(usdPerCredit * 100));
}

/** The plan's credit price, or the 402 that explains why this workspace cannot buy credits. */
async function creditPrice(db: Db, workspace: Workspace): Promise<{ plan: string; usdPerCredit: number }> {
  planCheck(workspace);
  const plan = await planRepository(db).find(workspace.plan!);
  if (!plan || plan.usd_per_credit === null) {
    throw new AppError('plan_required', 402, `The ${workspace.plan} plan cannot buy credits; choose a paid plan (starter, growth or enterprise)`, {
      plan: workspace.plan,
    });
  }
  if (!plan.active) throw new AppError('no_active_plan', 402, `The ${plan.name} plan is not available any more`, { plan: plan.name });
  return { plan: plan.name, usdPerCredit: Number(plan.usd_per_credit) };
}

/**
 * POST /billing/top-up: a checkout at the provider, the open top-up row, and its workflow
 * `topup-<id>` that waits for payment. Charges nothing and uses no credits.
 */
export async function createTopUp(deps: TopUpDeps, req: { workspace: Workspace; key: ApiKey; amountUsd: number; requestId: string }): Promise<TopUpRow> {
  const { plan, usdPerCredit } = await creditPrice(deps.db, req.workspace);
  const shortlists = creditsFor(req.amountUsd, usdPerCredit);
  const id = randomUUID();
  const checkout = await deps.provider.createCheckout({
    topUpId: id,
    workspaceId: req.workspace.id,
    amountUsd: req.amountUsd,
    shortlists,
    expiresInSeconds: deps.expirySeconds,
  });
  const topUps = topUpRepository(deps.db);
  const topUp = await topUps.insert({
    id,
    workspace_id: req.workspace.id,
    api_key_id: req.key.id,
    request_id: req.requestId,
    plan,
    amount_usd: req.amountUsd.toFixed(2),
    usd_per_credit: usdPerCredit.toFixed(2),
    shortlists,
    bucket: req.key.funding_mode,
    provider: deps.provider.name,
    test_mode: checkout.testMode,
    checkout_url: checkout.url,
    checkout_token: checkout.token,
    provider_ref: checkout.providerRef,
    workflow_id: catalog.topUp.id(id),
    expiresInSeconds: deps.expirySeconds,
  });
  const input: TopUpWorkflowInput = { topUpId: id, expiresInMs: deps.expirySeconds * 1000 };
  try {
    await startWorkflow(deps.temporal, catalog.topUp, {
      workflowId: topUp.workflow_id,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: new TypedSearchAttributes([{ key: WorkspaceIdAttr, value: req.workspace.id }]),
    });
  } catch (err) {
    // Without its workflow nobody would grant a payment: close the checkout before anyone pays.
    deps.logger.warn({ err, top_up_id: id }, 'could not start the top-up workflow');
    await topUps.expire(id);
    throw new AppError(
      'service_unavailable',
      503,
      'The top-up could not be started; nothing was charged; retry',
      { retry_after_seconds: 5 },
      { 'Retry-After': '5' },
    );
  }
  return topUp;
}

/**
 * Tells the top-up's workflow that a payment was recorded. A lost signal is healed by the
 * workflow's expiry timer, which finds the recorded payment and grants then.
 */
async function signalPaid(deps: Pick<TopUpDeps, 'temporal' | 'logger'>, topUp: TopUpRow): Promise<void> {
  try {
    await deps.temporal.client.workflow.getHandle(topUp.workflow_id).signal(TOPUP_PAID_SIGNAL);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError))
      deps.logger.warn({ err, top_up_id: topUp.id }, 'could not signal the top-up workflow; its expiry timer grants the payment');
  }
}

export type PaymentOutcome = 'paid' | 'already_paid' | 'expired' | 'not_found';

/**
 * Records a payment once: open → paid while the top-up has not expired, then signals its
 * workflow. Paying again, or after expiry, changes nothing.
 */
export async function recordPayment(
  deps: Pick<TopUpDeps, 'db' | 'temporal' | 'logger'>,
  topUp: TopUpRow | undefined,
  trx: Db = deps.db,
): Promise<{ outcome: PaymentOutcome; topUp?: TopUpRow; signal?: () => Promise<void> }> {
  if (!topUp) return { outcome: 'not_found' };
  const paid = await topUpRepository(trx).markPaid(topUp.id);
  if (paid) return { outcome: 'paid', topUp: paid, signal: () => signalPaid(deps, paid) };
  const now = (await topUpRepository(trx).find(topUp.id))!;
  return { outcome: now.status === 'paid' ? 'already_paid' : 'expired', topUp: now };
}

/** The test checkout's "Pay (test mode)" button. */
export async function payTestCheckout(
  deps: Pick<TopUpDeps, 'db' | 'temporal' | 'logger'>,
  token: string,
): Promise<{ outcome: PaymentOutcome; topUp?: TopUpRow }> {
  const result = await recordPayment(deps, await topUpRepository(deps.db).findByToken(token));
  await result.signal?.();
  return { outcome: result.outcome, topUp: result.topUp };
}

/** Waits briefly for the grant of a just-paid top-up, so the payer can be told the credits are in. */
export async function waitForGrant(db: Db, topUpId: string, timeoutMs = 3000): Promise<TopUpRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = (await topUpRepository(db).find(topUpId))!;
    if (row.granted_at || Date.now() >= deadline) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The workflow's grant: the top-up's credits with ledger key `topup:<id>` and `billing.topped_up`
 * in one transaction, exactly once whatever is replayed. Only a recorded payment is granted.
 */
export async function grantTopUp(db: Db, topUpId: string, baseUrl: string): Promise<GrantResult> {
  return db.transaction(async (trx) => {
    const topUp = await topUpRepository(trx).findForUpdate(topUpId);
    if (!topUp) throw new AppError('top_up_not_found', 404, `Top-up ${topUpId} not found`);
    if (topUp.status !== 'paid') return { status: topUp.status, granted: false };
    const ledger = creditLedgerRepository(trx);
    const granted = await ledger.append({
      workspaceId: topUp.workspace_id,
      bucket: topUp.bucket,
      delta: topUp.shortlists,
      reason: TOPUP_LEDGER_REASON,
      uniqueKey: topUpLedgerKey(topUp.id),
    });
    if (granted) {
      await topUpRepository(trx).markGranted(topUp.id);
      const credits = await ledger.balance(topUp.workspace_id, topUp.bucket);
      await writeEvent(trx, {
        workspaceId: topUp.workspace_id,
        type: 'billing.topped_up',
        data: toppedUpEventData(topUp, credits, baseUrl),
        dedupeKey: `billing.topped_up:${topUp.id}`,
      });
    }
    return { status: 'paid', granted };
  });
}

/** The expiry timer fired: open → expired, unless a payment was recorded meanwhile (then it is granted). */
export async function expireTopUp(db: Db, topUpId: string): Promise<{ status: TopUpRow['status'] }> {
  const row = await topUpRepository(db).expire(topUpId);
  if (!row) throw new AppError('top_up_not_found', 404, `Top-up ${topUpId} not found`);
  return { status: row.status };
}
