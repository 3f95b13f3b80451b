import { costList, costsQuery, usageQuery, usageReport as usageReportSchema } from '../../src/billing/billing.schemas';
import { MAX_COST_EVENTS_LISTED } from '../../src/db/cost-event.repository';
import { listCosts, usageReport } from '../../src/usage/usage.service';
import { authOf } from '../context';
import { sendData } from '../respond';
import { defineRoutes } from '../route-def';
import { parseWith } from '../validate';

export const usageRoutes = defineRoutes([
  {
    name: 'get_usage',
    method: 'GET',
    path: '/usage',
    auth: 'usage:read',
    cost: 'free',
    costLine: 'Free: usage reads use no credits.',
    summary: 'Requests, credits, dollars and searches of a period (default the current UTC month), in total and per UTC day.',
    proposable: false,
    query: usageQuery,
    response: usageReportSchema,
    async handler(ctx, { db }) {
      sendData(ctx, await usageReport(db, authOf(ctx).workspace.id, parseWith(usageQuery, ctx.query)));
    },
  },
  {
    name: 'list_cost_events',
    method: 'GET',
    path: '/usage/costs',
    auth: 'usage:read',
    cost: 'free',
    costLine: 'Free: usage reads use no credits.',
    summary: `Cost events, newest first (at most ${MAX_COST_EVENTS_LISTED}; meta.total counts all matches), by request_id, action, from and to; each carries the request id of the call that caused it.`,
    proposable: false,
    query: costsQuery,
    response: costList,
    async handler(ctx, { db }) {
      const { costs, total } = await listCosts(db, authOf(ctx).workspace.id, parseWith(costsQuery, ctx.query));
      sendData(ctx, costs, { total });
    },
  },
]);
