import { z } from 'zod';
import { costEvent, costsQuery, usageQuery, usageReport as usageReportSchema } from '../../src/billing/billing.schemas';
import { MAX_COST_EVENTS_LISTED } from '../../src/db/cost-event.repository';
import { listCosts, usageReport } from '../../src/usage/usage.service';
import { authOf } from '../context';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

const free = { cost: 'free', costLine: 'Free: usage reads use no credits.', tag: 'Usage' } as const;

export const usageRoutes = [
  defineRoute({
    name: 'get_usage',
    method: 'GET',
    path: '/usage',
    auth: 'usage:read',
    ...free,
    summary: 'Requests, credits, dollars and searches of a period (default the current UTC month), in total and per UTC day.',
    proposable: false,
    query: usageQuery,
    response: { kind: 'json', status: 200, data: usageReportSchema, description: 'The usage of the period' },
    async handler(ctx, { query }, { db }) {
      sendData(ctx, await usageReport(db, authOf(ctx).workspace.id, query));
    },
  }),
  defineRoute({
    name: 'list_cost_events',
    method: 'GET',
    path: '/usage/costs',
    auth: 'usage:read',
    ...free,
    summary: `Cost events, newest first (at most ${MAX_COST_EVENTS_LISTED}; meta.total counts all matches), by request_id, action, from and to; each carries the request id of the call that caused it.`,
    proposable: false,
    query: costsQuery,
    response: { kind: 'json', status: 200, data: z.array(costEvent), total: true, description: 'Cost events, newest first' },
    async handler(ctx, { query }, { db }) {
      const { costs, total } = await listCosts(db, authOf(ctx).workspace.id, query);
      sendData(ctx, costs, { total });
    },
  }),
];
