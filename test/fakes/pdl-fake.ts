import { startVendorServer, tokens, type FakeRequest, type VendorServer } from './vendor-server';

/**
 * A local People Data Labs (v5) on 127.0.0.1: `POST /v5/person/search` and `/v5/company/search`
 * (Elasticsearch query body: bool must/should, match, match_phrase, term; `size`, `from`; 404
 * when nothing matched), `GET /v5/person/enrich` and `/v5/company/enrich` by `pdl_id` (404 when
 * unknown; company records at the top level), `GET /v5/autocomplete`. The key is `X-Api-Key`.
 * Records follow PDL's field names (lower-case values, profile URLs without a scheme).
 */
export const PDL_PEOPLE = [
  person(
    'pdl-ada-0001',
    'ada',
    'quinn',
    'senior backend engineer',
    'acme robotics',
    'computer software',
    'san francisco, california, united states',
    'san francisco, california',
    ['typescript', 'postgresql', 'kubernetes'],
    9,
    ['senior'],
  ),
  person(
    'pdl-bo-0002',
    'bo',
    'lindqvist',
    'backend engineer',
    'northwind data',
    'information technology and services',
    'stockholm, stockholm county, sweden',
    'stockholm',
    ['go', 'postgresql'],
    4,
    [],
  ),
  person(
    'pdl-cy-0003',
    'cy',
    'okafor',
    'engineering manager',
    'acme robotics',
    'computer software',
    'new york, new york, united states',
    'new york, new york',
    ['leadership', 'typescript'],
    12,
    ['manager'],
  ),
  person(
    'pdl-di-0004',
    'di',
    'moreau',
    'data scientist',
    'lumen analytics',
    'information services',
    'paris, île-de-france, france',
    'paris',
    ['python', 'machine learning'],
    6,
    ['senior'],
  ),
  person(
    'pdl-ed-0005',
    'ed',
    'santos',
    'frontend engineer',
    'acme robotics',
    'computer software',
    'san francisco, california, united states',
    'san francisco, california',
    ['typescript', 'react'],
    3,
    ['entry'],
  ),
];

export const PDL_COMPANIES = [
  company(
    'pdl-co-acme',
    'acme robotics',
    'Acme Robotics',
    'acmerobotics.com',
    'computer software',
    '201-500',
    2012,
    340,
    'san francisco, california, united states',
    ['robotics', 'automation'],
  ),
  company(
    'pdl-co-northwind',
    'northwind data',
    'Northwind Data',
    'northwind.io',
    'information technology and services',
    '51-200',
    2016,
    120,
    'stockholm, stockholm county, sweden',
    ['data', 'analytics'],
  ),
  company('pdl-co-lumen', 'lumen analytics', 'Lumen Analytics', 'lumen.ai', 'information services', '11-50', 2020, 35, 'paris, île-de-france, france', [
    'analytics',
    'machine learning',
  ]),
];

export const PDL_GOOD_KEY = 'pdl-fake-good-key-0001';

/** A person record in PDL's shape (tests build their own with it). */
export function person(
  id: string,
  first: string,
  last: string,
  title: string,
  companyName: string,
  industry: string,
  location: string,
  metro: string,
  skills: string[],
  years: number,
  levels: string[],
) {
  return {
    id,
    full_name: `${first} ${last}`,
    first_name: first,
    last_name: last,
    job_title: title,
    job_title_role: 'engineering',
    job_title_levels: levels,
    job_company_name: companyName,
    job_company_industry: industry,
    location_name: location,
    location_metro: metro,
    location_country: location.split(', ').at(-1),
    linkedin_url: `linkedin.com/in/${first}-${last}`,
    linkedin_connections: 500,
    headline: null as string | null,
    summary: `${title} at ${companyName}.`,
    skills,
    inferred_years_experience: years,
    job_last_updated: '2026-10-01',
    experience: [
      { company: { name: companyName, industry }, title: { name: title }, start_date: '2022-03', end_date: null, summary: 'Builds things.', is_primary: true },
      { company: { name: 'previous co', industry }, title: { name: 'engineer' }, start_date: '2018-01', end_date: '2022-02', summary: null, is_primary: false },
    ],
    education: [{ school: { name: 'state university' }, degrees: ['bachelors'], majors: ['computer science'], start_date: '2010', end_date: '2014' }],
    certifications: [{ name: 'aws certified developer' }],
    languages: [{ name: 'english', proficiency: 5 }],
  };
}

function company(
  id: string,
  name: string,
  display: string,
  website: string,
  industry: string,
  size: string,
  founded: number,
  employees: number,
  location: string,
  tags: string[],
) {
  return {
    id,
    name,
    display_name: display,
    website,
    industry,
    size,
    founded,
    employee_count: employees,
    summary: `${display} builds ${tags.join(' and ')} products.`,
    linkedin_url: `linkedin.com/company/${name.replace(/ /g, '-')}`,
    tags,
    location: { name: location, metro: location.split(', ')[0], country: location.split(', ').at(-1) },
  };
}

/** Field value by dotted path (`location.name`). */
const field = (record: any, path: string): unknown => path.split('.').reduce((v, k) => (v == null ? v : v[k]), record);

/** PDL's Elasticsearch subset, evaluated over one record. */
function matches(record: unknown, clause: any): boolean {
  if (!clause || typeof clause !== 'object') return true;
  if (clause.bool) {
    const must: any[] = clause.bool.must ?? [];
    const should: any[] = clause.bool.should ?? [];
    return must.every((c) => matches(record, c)) && (should.length === 0 || should.some((c) => matches(record, c)));
  }
  const [[kind, spec]] = Object.entries<Record<string, unknown>>(clause);
  const [[path, wanted]] = Object.entries(spec);
  const value = field(record, path);
  const haystack = Array.isArray(value) ? value.join(' ') : value;
  if (kind === 'match') return tokens(wanted).some((t) => tokens(haystack).includes(t));
  if (kind === 'match_phrase') return typeof haystack === 'string' && haystack.toLowerCase().includes(String(wanted).toLowerCase());
  if (kind === 'term') return Array.isArray(value) ? value.includes(wanted) : value === wanted;
  throw new Error(`unsupported query clause ${kind}`);
}

const notFound = (message: string) => ({ status: 404, body: { status: 404, error: { type: 'not_found', message } } });

function search(records: unknown[], req: FakeRequest) {
  const { query, size = 10, from = 0 } = req.body ?? {};
  if (!query) return { status: 400, body: { status: 400, error: { type: 'invalid_request_error', message: 'query or sql is required' } } };
  const hits = records.filter((r) => matches(r, query));
  if (hits.length === 0) return notFound('No records were found matching your search');
  return { status: 200, body: { status: 200, data: hits.slice(from, from + size), scroll_token: `scroll-${from + size}`, total: hits.length } };
}

export type PdlFake = VendorServer;

export function startPdlFake(opts: { acceptedKey?: string; people?: ReturnType<typeof person>[] } = {}): Promise<PdlFake> {
  const { acceptedKey = PDL_GOOD_KEY, people = PDL_PEOPLE } = opts;
  return startVendorServer({
    errorBody: (status, message) => ({ status, error: { type: status === 429 ? 'rate_limit_error' : 'server_error', message } }),
    rejects: (req) =>
      req.headers['x-api-key'] === acceptedKey
        ? null
        : { status: 401, body: { status: 401, error: { type: 'authentication_error', message: 'Invalid API key' } } },
    route(req) {
      const id = req.query.get('pdl_id');
      if (req.method === 'POST' && req.path === '/v5/person/search') return search(people, req);
      if (req.method === 'POST' && req.path === '/v5/company/search') return search(PDL_COMPANIES, req);
      if (req.method === 'GET' && req.path === '/v5/person/enrich') {
        const found = people.find((p) => p.id === id);
        return found ? { status: 200, body: { status: 200, likelihood: 10, data: found } } : notFound('No records were found matching your request');
      }
      if (req.method === 'GET' && req.path === '/v5/company/enrich') {
        const found = PDL_COMPANIES.find((c) => c.id === id);
        return found ? { status: 200, body: { status: 200, likelihood: 10, ...found } } : notFound('No records were found matching your request');
      }
      if (req.method === 'GET' && req.path === '/v5/autocomplete') return { status: 200, body: { status: 200, data: [{ name: 'engineer', count: 1 }] } };
      return notFound(`No route ${req.method} ${req.path}`);
    },
  });
}
