import { ledgerEntryJson, topUpJson, topUpResultJson } from '../../src/billing/billing.presenter';
import { balanceResult, ledgerList, ledgerQuery, topUpBody, topUpList, topUpResult } from '../../src/billing/billing.schemas';
import { balanceOf } from '../../src/billing/billing.service';
import { paymentProvider } from '../../src/billing/payments/provider';
import { createTopUp } from '../../src/billing/top-up.service';
import { creditLedgerRepository, MAX_LEDGER_ENTRIES_LISTED } from '../../src/db/credit-ledger.repository';
import { MAX_TOP_UPS_LISTED, topUpRepository } from '../../src/db/top-up.repository';
import { authOf } from '../context';
import { sendData } from '../respond';
import { defineRoutes } from '../route-def';
import { parseWith } from '../validate';

const freeRead = { cost: 'free', costLine: 'Free: billing reads use no credits.' } as const;

export const billingRoutes = defineRoutes([
  {
    name: 'create_top_up',
    method: 'POST',
    path: '/billing/top-up',
    auth: 'any',
    cost: 'free',
    costLine: "Free: creates a checkout link and uses no credits; nothing is charged until someone pays there, and then the amount buys floor(amount_usd / the plan's usd_per_credit) credits.",
    summary: 'Start a credit top-up of amount_usd (10 to 10,000, two decimals at most): answers the checkout url, the credits it buys and test_mode.',
    proposable: true,
    body: topUpBody,
    response: topUpResult,
    async handler(ctx, { db, temporal, config, logger }) {
      const { workspace, key } = authOf(ctx);
      const body = parseWith(topUpBody, ctx.state.body ?? {});
      const topUp = await createTopUp(
        { db, temporal, provider: paymentProvider(config), expirySeconds: config.payments.topUpExpirySeconds, logger },
        { workspace, key, amountUsd: body.amount_usd, requestId: ctx.state.requestId },
      );
      sendData(ctx, topUpResultJson(topUp), { status: 201 });
    },
  },
  {
    name: 'get_balance',
    method: 'GET',
    path: '/billing/balance',
    auth: 'billing:read',
    ...freeRead,
    summary: "Credits of the bucket the calling key draws from, both buckets, and the workspace's plan.",
    proposable: false,
    response: balanceResult,
    async handler(ctx, { db }) {
      const { workspace, key } = authOf(ctx);
      sendData(ctx, await balanceOf(db, workspace, key));
    },
  },
  {
    name: 'list_top_ups',
    method: 'GET',
    path: '/billing/top-ups',
    auth: 'billing:read',
    ...freeRead,
    summary: `The newest ${MAX_TOP_UPS_LISTED} top-ups with status open, paid or expired; meta.total counts all.`,
    proposable: false,
    response: topUpList,
    async handler(ctx, { db }) {
      const { topUps, total } = await topUpRepository(db).listForWorkspace(authOf(ctx).workspace.id);
      sendData(ctx, topUps.map(topUpJson), { total });
    },
  },
  {
    name: 'list_ledger_entries',
    method: 'GET',
    path: '/billing/ledger',
    auth: 'billing:read',
    ...freeRead,
    summary: `The newest ${MAX_LEDGER_ENTRIES_LISTED} credit ledger entries of both buckets; ?before=<entry id> reads older ones.`,
    proposable: false,
    query: ledgerQuery,
    response: ledgerList,
    async handler(ctx, { db }) {
      const query = parseWith(ledgerQuery, ctx.query);
      const entries = await creditLedgerRepository(db).list(authOf(ctx).workspace.id, { before: query.before === undefined ? undefined : Number(query.before) });
      sendData(ctx, entries.map(ledgerEntryJson));
    },
  },
]);
