import { DEFAULT_DATA_PRICES, type PriceName } from '../../src/billing/data-prices';
import {
  companyParams,
  companyProfile,
  companyResults,
  companySearchBody,
  DATA_ERRORS,
  dataHeaders,
  peopleResults,
  peopleSearchBody,
  personProfile,
  profileParams,
  webResults,
  webSearchBody,
} from '../../src/data/data.schemas';
import { readCompany, readPerson, searchCompanies, searchPeople, searchWeb, type DataAnswer, type DataCaller } from '../../src/data/data.service';
import { authOf, type ApiContext } from '../context';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

const common = { tag: 'Data', cost: 'usd', proposable: false, headers: dataHeaders, errors: DATA_ERRORS } as const;
const priced = (price: PriceName) =>
  `Billed ${DEFAULT_DATA_PRICES[price]} USD per call (the plan's price), as a cost event with the request id; an idempotent replay and a failed call are not billed.`;

/** The caller; the Idempotency-Key header wins over the body's idempotencyKey. */
function callerOf(ctx: ApiContext, headers: { 'Idempotency-Key'?: string }, body?: { idempotencyKey?: string }): DataCaller {
  const { workspace, key, credentialProviders } = authOf(ctx);
  return { workspace, keyId: key.id, credentialProviders, requestId: ctx.state.requestId, idempotencyKey: headers['Idempotency-Key'] ?? body?.idempotencyKey };
}

function send(ctx: ApiContext, { data, replayed }: DataAnswer<object>, total?: number): void {
  if (replayed) ctx.set('Idempotent-Replayed', 'true');
  sendData(ctx, data, { total });
}

export const dataRoutes = [
  defineRoute({
    ...common,
    name: 'search_web',
    method: 'POST',
    path: '/data/search/web',
    auth: 'data:search:web',
    costLine: priced('web_search'),
    summary: 'Web search (Brave with a key, else the built-in page index); QPS-limited downstream.',
    body: webSearchBody,
    example: { query: 'Acme Robotics engineering blog', count: 5 },
    response: { kind: 'json', status: 200, data: webResults, description: 'Results and the source that answered' },
    async handler(ctx, { headers, body }, { db, config }) {
      send(ctx, await searchWeb(db, config, callerOf(ctx, headers, body), body));
    },
  }),
  defineRoute({
    ...common,
    name: 'search_people',
    method: 'POST',
    path: '/data/people/search',
    auth: 'data:people:search',
    costLine: priced('people_search'),
    summary: 'People search (People Data Labs with a key, else the built-in people database).',
    body: peopleSearchBody,
    example: { search: 'backend engineer', location: 'San Francisco', skills: ['TypeScript'], limit: 10 },
    response: { kind: 'json', status: 200, data: peopleResults, total: true, description: 'A page of person summaries, the match count and the source' },
    async handler(ctx, { headers, body }, { db, config }) {
      const answer = await searchPeople(db, config, callerOf(ctx, headers, body), body);
      send(ctx, answer, answer.data.total);
    },
  }),
  defineRoute({
    ...common,
    name: 'get_person',
    method: 'GET',
    path: '/data/people/{profileId}',
    auth: 'data:people:read',
    costLine: priced('people_read'),
    summary: 'A full profile (enrichment); concurrency-limited downstream. An unknown id is 404 and not billed.',
    params: profileParams,
    response: { kind: 'json', status: 200, data: personProfile, description: 'The profile and the source' },
    async handler(ctx, { headers, params }, { db, config }) {
      send(ctx, await readPerson(db, config, callerOf(ctx, headers), params.profileId));
    },
  }),
  defineRoute({
    ...common,
    name: 'search_companies',
    method: 'POST',
    path: '/data/companies/search',
    auth: 'data:companies:search',
    costLine: priced('company_search'),
    summary: 'Company search (People Data Labs with a key, else the built-in company directory).',
    body: companySearchBody,
    example: { search: 'robotics', location: 'San Francisco', limit: 10 },
    response: { kind: 'json', status: 200, data: companyResults, total: true, description: 'A page of companies, the match count and the source' },
    async handler(ctx, { headers, body }, { db, config }) {
      const answer = await searchCompanies(db, config, callerOf(ctx, headers, body), body);
      send(ctx, answer, answer.data.total);
    },
  }),
  defineRoute({
    ...common,
    name: 'get_company',
    method: 'GET',
    path: '/data/companies/{companyId}',
    auth: 'data:companies:read',
    costLine: priced('company_read'),
    summary: 'A company (enrichment); concurrency-limited downstream. An unknown id is 404 and not billed.',
    params: companyParams,
    response: { kind: 'json', status: 200, data: companyProfile, description: 'The company and the source' },
    async handler(ctx, { headers, params }, { db, config }) {
      send(ctx, await readCompany(db, config, callerOf(ctx, headers), params.companyId));
    },
  }),
];
