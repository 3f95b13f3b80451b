import { searchIndustries } from '../../src/reference/taxonomy';
import { describeCriteria } from '../../src/domain/criteria';
import { criteriaReference, industries, industriesQuery } from '../../src/reference/reference.schemas';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

export const INDUSTRY_MATCH_LIMIT = 200;

export const referenceRoutes = [
  defineRoute({
    name: 'get_criteria_reference',
    method: 'GET',
    path: '/reference/criteria',
    auth: 'any',
    cost: 'free',
    costLine: 'Free: reference reads use no credits.',
    summary: 'Every criteria field with its type, bounds, allowed values (or where to find them) and an example.',
    tag: 'Reference',
    proposable: false,
    response: { kind: 'json', status: 200, data: criteriaReference, description: 'The criteria reference' },
    async handler(ctx) {
      sendData(ctx, describeCriteria());
    },
  }),
  defineRoute({
    name: 'list_industries',
    method: 'GET',
    path: '/reference/industries',
    auth: 'any',
    cost: 'free',
    costLine: 'Free: reference reads use no credits.',
    summary: 'Industry names matching q (case-insensitive), up to 200, no paging.',
    tag: 'Reference',
    proposable: false,
    query: industriesQuery,
    response: { kind: 'json', status: 200, data: industries, total: true, description: 'Matching industry names' },
    async handler(ctx, { query }) {
      const found = searchIndustries(query.q?.trim() || undefined, INDUSTRY_MATCH_LIMIT);
      sendData(ctx, found, { total: found.length });
    },
  }),
];
