import { z } from 'zod';
import { searchIndustries } from '../../src/reference/taxonomy';
import { describeCriteria } from '../../src/domain/criteria-reference';
import { gazetteer } from '../../src/reference/gazetteer';
import { occupations } from '../../src/reference/occupations';
import {
  criteriaReference,
  industries,
  industriesQuery,
  occupationsQuery,
  placesQuery,
  referenceOccupation,
  referencePlace,
} from '../../src/reference/reference.schemas';
import { AppError } from '../../src/domain/errors';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

export const INDUSTRY_MATCH_LIMIT = 200;
export const PLACE_MATCH_LIMIT = 20;
export const OCCUPATION_MATCH_LIMIT = 200;

const freeRead = { cost: 'free', costLine: 'Free: reference reads use no credits.' } as const;

export const referenceRoutes = [
  defineRoute({
    name: 'get_criteria_reference',
    method: 'GET',
    path: '/reference/criteria',
    auth: 'any',
    ...freeRead,
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
    ...freeRead,
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
  defineRoute({
    name: 'list_places',
    method: 'GET',
    path: '/reference/places',
    auth: 'any',
    ...freeRead,
    summary:
      'Gazetteer places (GeoNames cities of 15,000+ people, first-level regions, countries) whose name starts with q, most populous first, up to 20; or the places of the given ids, in their order (unknown ids left out).',
    tag: 'Reference',
    proposable: false,
    query: placesQuery,
    response: { kind: 'json', status: 200, data: z.array(referencePlace), total: true, description: 'Matching places' },
    async handler(ctx, { query }) {
      const g = gazetteer();
      const ids = query.ids?.split(',').map((id) => id.trim());
      if (ids && ids.length > PLACE_MATCH_LIMIT) throw new AppError('invalid_request', 400, `ids: at most ${PLACE_MATCH_LIMIT} places at once`);
      const places = ids ? ids.map((id) => g.byId(id)).filter((p) => p !== undefined) : g.search(query.q!, PLACE_MATCH_LIMIT);
      const found = places.map((p) => ({ id: p.id, name: p.fullName, kind: p.kind, country: p.country, lat: p.lat, lon: p.lon, population: p.population }));
      sendData(ctx, found, { total: found.length });
    },
  }),
  defineRoute({
    name: 'list_occupations',
    method: 'GET',
    path: '/reference/occupations',
    auth: 'any',
    ...freeRead,
    summary: 'O*NET-SOC occupations whose title or job titles hold the words of q, best first, up to 200; each with its role family or null.',
    tag: 'Reference',
    proposable: false,
    query: occupationsQuery,
    response: { kind: 'json', status: 200, data: z.array(referenceOccupation), total: true, description: 'Matching occupations' },
    async handler(ctx, { query }) {
      const found = occupations()
        .search(query.q ?? '', OCCUPATION_MATCH_LIMIT)
        .map((o) => ({ code: o.code, title: o.title, family: o.family }));
      sendData(ctx, found, { total: found.length });
    },
  }),
];
