import type { ApiKey } from '../db/api-key.repository';
import { creditLedgerRepository } from '../db/credit-ledger.repository';
import type { Db } from '../db/knex';
import { planRepository } from '../db/plan.repository';
import type { Workspace } from '../db/workspace.repository';
import type { BalanceJson } from './billing.presenter';

/** GET /billing/balance (DESIGN.md §3): a sum of the ledger, never a stored number. */
export async function balanceOf(db: Db, workspace: Workspace, key: ApiKey): Promise<BalanceJson> {
  const [buckets, plan] = await Promise.all([
    creditLedgerRepository(db).balances(workspace.id),
    workspace.plan ? planRepository(db).find(workspace.plan) : undefined,
  ]);
  const active =
    !!workspace.plan &&
    workspace.plan_active &&
    (!workspace.plan_expires_at || new Date(workspace.plan_expires_at).getTime() > Date.now()) &&
    (plan?.active ?? true);
  return {
    credits: buckets[key.funding_mode],
    buckets,
    plan: { name: workspace.plan, active, usd_per_credit: plan?.usd_per_credit ? Number(plan.usd_per_credit) : null },
  };
}
