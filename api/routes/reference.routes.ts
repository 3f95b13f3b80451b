import { z } from 'zod';
import { searchIndustries } from '../../src/reference/taxonomy';
import { describeCriteria } from '../../src/domain/criteria';
import { AppError } from '../../src/domain/errors';
import { sendData } from '../respond';
import { defineRoutes } from '../route-def';

export const INDUSTRY_MATCH_LIMIT = 200;

export const referenceRoutes = defineRoutes([
  {
    name: 'get_criteria_reference',
    method: 'GET',
    path: '/reference/criteria',
    auth: 'any',
    cost: 'free',
    costLine: 'Free: reference reads use no credits.',
    summary: 'Every criteria field with its type, bounds, allowed values (or where to find them) and an example.',
    proposable: false,
    async handler(ctx) {
      sendData(ctx, describeCriteria());
    },
  },
  {
    name: 'list_industries',
    method: 'GET',
    path: '/reference/industries',
    auth: 'any',
    cost: 'free',
    costLine: 'Free: reference reads use no credits.',
    summary: 'Industry names matching q (case-insensitive), up to 200, no paging.',
    proposable: false,
    query: z.object({ q: z.string().optional().describe('part of an industry name') }),
    async handler(ctx) {
      const q = ctx.query.q;
      if (Array.isArray(q)) throw new AppError('invalid_request', 400, 'q must be given once', { parameter: 'q' });
      const industries = searchIndustries(q?.trim() || undefined, INDUSTRY_MATCH_LIMIT);
      sendData(ctx, industries, { total: industries.length });
    },
  },
]);
