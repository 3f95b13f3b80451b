import { z } from 'zod';
import { ledgerEntryJson, topUpJson, topUpResultJson } from '../../src/billing/billing.presenter';
import { balanceResult, ledgerEntry, ledgerQuery, topUpBody, topUpResource, topUpResult } from '../../src/billing/billing.schemas';
import { balanceOf } from '../../src/billing/billing.service';
import { paymentProvider } from '../../src/billing/payments/provider';
import { createTopUp } from '../../src/billing/top-up.service';
import { creditLedgerRepository, MAX_LEDGER_ENTRIES_LISTED } from '../../src/db/credit-ledger.repository';
import { MAX_TOP_UPS_LISTED, topUpRepository } from '../../src/db/top-up.repository';
import { authOf } from '../context';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

const freeRead = { cost: 'free', costLine: 'Free: billing reads use no credits.', tag: 'Billing' } as const;

export const billingRoutes = [
  defineRoute({
    name: 'create_top_up',
    method: 'POST',
    path: '/billing/top-up',
    auth: 'any',
    cost: 'free',
    costLine:
      "Free: creates a checkout link and uses no credits; nothing is charged until someone pays there, and then the amount buys floor(amount_usd / the plan's usd_per_credit) credits.",
    summary: 'Start a credit top-up of amount_usd (10 to 10,000, two decimals at most): answers the checkout url, the credits it buys and test_mode.',
    tag: 'Billing',
    proposable: true,
    body: topUpBody,
    errors: ['plan_required', 'no_active_plan', 'provider_error', 'service_unavailable'],
    example: { amount_usd: 50 },
    response: { kind: 'json', status: 201, data: topUpResult, description: 'The open top-up and its checkout link' },
    async handler(ctx, { body }, { db, temporal, config, logger }) {
      const { workspace, key } = authOf(ctx);
      const topUp = await createTopUp(
        { db, temporal, provider: paymentProvider(config), expirySeconds: config.payments.topUpExpirySeconds, logger },
        { workspace, key, amountUsd: body.amount_usd, requestId: ctx.state.requestId },
      );
      sendData(ctx, topUpResultJson(topUp), { status: 201 });
    },
  }),
  defineRoute({
    name: 'get_balance',
    method: 'GET',
    path: '/billing/balance',
    auth: 'billing:read',
    ...freeRead,
    summary: "Credits of the bucket the calling key draws from, both buckets, and the workspace's plan.",
    proposable: false,
    response: { kind: 'json', status: 200, data: balanceResult, description: 'The balance' },
    async handler(ctx, _input, { db }) {
      const { workspace, key } = authOf(ctx);
      sendData(ctx, await balanceOf(db, workspace, key));
    },
  }),
  defineRoute({
    name: 'list_top_ups',
    method: 'GET',
    path: '/billing/top-ups',
    auth: 'billing:read',
    ...freeRead,
    summary: `The newest ${MAX_TOP_UPS_LISTED} top-ups with status open, paid or expired; meta.total counts all.`,
    proposable: false,
    response: { kind: 'json', status: 200, data: z.array(topUpResource), total: true, description: 'The newest top-ups' },
    async handler(ctx, _input, { db }) {
      const { topUps, total } = await topUpRepository(db).listForWorkspace(authOf(ctx).workspace.id);
      sendData(ctx, topUps.map(topUpJson), { total });
    },
  }),
  defineRoute({
    name: 'list_ledger_entries',
    method: 'GET',
    path: '/billing/ledger',
    auth: 'billing:read',
    ...freeRead,
    summary: `The newest ${MAX_LEDGER_ENTRIES_LISTED} credit ledger entries of both buckets; ?before=<entry id> reads older ones.`,
    proposable: false,
    query: ledgerQuery,
    response: { kind: 'json', status: 200, data: z.array(ledgerEntry), description: 'Ledger entries, newest first' },
    async handler(ctx, { query }, { db }) {
      const entries = await creditLedgerRepository(db).list(authOf(ctx).workspace.id, { before: query.before });
      sendData(ctx, entries.map(ledgerEntryJson));
    },
  }),
];
