import { startVendorServer, tokens, type FakeRequest, type VendorServer } from './vendor-server';

/**
 * A local People Data Labs (v5) on 127.0.0.1: `POST /v5/person/search` and `/v5/company/search`
 * (Elasticsearch query body in PDL's subset: bool must/filter/should/must_not with
 * minimum_should_match, match, match_phrase, term, terms, range, prefix, wildcard, exists,
 * match_all, each with an optional boost; `size`, `from`; hits in order of a simple relevance, the
 * summed boosts of the scoring clauses matched, ties in record order; 404 when nothing matched; 400
 * for a query type PDL does not accept, such as geo_distance, and for an array of more than 1000
 * values), `GET /v5/person/enrich` and `/v5/company/enrich` by `pdl_id` (404 when unknown; company
 * records at the top level), `GET /v5/autocomplete`. The key is `X-Api-Key`. Records follow PDL's
 * field names and values (lower case, canonical roles and levels, countries by PDL's English
 * names, `location_metro` for US metros only, `location_geo` "lat,lon" of the city centre,
 * `job_onet_code` O*NET-SOC, profile URLs without a scheme); keyword fields (`term`, `terms`,
 * `prefix`, `wildcard`) compare exactly, case included, as Elasticsearch keywords do; `job_title`
 * is an exact keyword whose analysed form is `job_title.text`. The fake answers lower case even
 * when asked for `titlecase`.
 */
export const PDL_PEOPLE = [
  person({
    id: 'pdl-ada-0001',
    name: ['ada', 'quinn'],
    title: ['senior backend engineer', 'engineering', 'software', ['senior']],
    company: ['acme robotics', 'computer software'],
    location: ['san francisco, california, united states', 'san francisco, california'],
    skills: ['typescript', 'postgresql', 'kubernetes'],
    years: 9,
  }),
  person({
    id: 'pdl-bo-0002',
    name: ['bo', 'lindqvist'],
    title: ['backend engineer', 'engineering', 'software', []],
    company: ['northwind data', 'information technology and services'],
    location: ['stockholm, stockholm county, sweden', null],
    skills: ['go', 'postgresql'],
    years: 4,
  }),
  person({
    id: 'pdl-cy-0003',
    name: ['cy', 'okafor'],
    title: ['engineering manager', 'engineering', 'software', ['manager']],
    company: ['acme robotics', 'computer software'],
    location: ['new york, new york, united states', 'new york, new york'],
    skills: ['leadership', 'typescript'],
    years: 12,
  }),
  person({
    id: 'pdl-di-0004',
    name: ['di', 'moreau'],
    title: ['data scientist', 'research', 'data_science', ['senior']],
    company: ['lumen analytics', 'information services'],
    location: ['paris, île-de-france, france', null],
    skills: ['python', 'machine learning'],
    years: 6,
  }),
  person({
    id: 'pdl-ed-0005',
    name: ['ed', 'santos'],
    title: ['frontend engineer', 'engineering', 'web', ['entry']],
    company: ['acme robotics', 'computer software'],
    location: ['san francisco, california, united states', 'san francisco, california'],
    skills: ['typescript', 'react'],
    years: 3,
  }),
  // Web developers around Seattle, for the relevance order: a junior one first in storage order,
  // a senior one outside the metro, the best match (senior, in Seattle, the skills) last.
  person({
    id: 'pdl-fay-0006',
    name: ['fay', 'ito'],
    title: ['web developer', 'engineering', 'web', ['entry']],
    company: ['cascade apps', 'internet'],
    location: ['seattle, washington, united states', 'seattle, washington'],
    skills: ['javascript', 'vue.js'],
    years: 1,
  }),
  person({
    id: 'pdl-gil-0007',
    name: ['gil', 'novak'],
    title: ['senior web developer', 'engineering', 'web', ['senior']],
    company: ['rainier labs', 'computer software'],
    location: ['portland, oregon, united states', 'portland, oregon'],
    skills: ['javascript', 'vue.js', 'graphql'],
    years: 8,
  }),
  person({
    id: 'pdl-hal-0008',
    name: ['hal', 'berg'],
    title: ['senior web developer', 'engineering', 'web', ['senior']],
    company: ['rainier labs', 'computer software'],
    location: ['seattle, washington, united states', 'seattle, washington'],
    skills: ['javascript', 'vue.js', 'graphql'],
    years: 8,
  }),
];

/**
 * People PDL places by `location_geo` and classes by `job_onet_code`, over several cities and
 * occupations: pharmacists in and around Leeds (one on a free plan, whose `location_geo` is only
 * `true`), in Manchester (58 km away) and in Boston, a pharmacy technician and a nurse in Leeds,
 * truck drivers around Dallas. Beside PDL_PEOPLE in the fake's default records; none of them
 * matches the engineering searches other tests make.
 */
export const PDL_PLACED_PEOPLE = [
  person({
    id: 'pdl-ivy-0101',
    name: ['ivy', 'sharma'],
    title: ['pharmacist', 'health', 'pharmacy', []],
    company: ['boots', 'retail'],
    location: ['leeds, england, united kingdom', null],
    geo: '53.80,-1.55',
    onet: '29-1051.00',
    skills: ['patient counseling', 'medication therapy management'],
    years: 7,
  }),
  person({
    id: 'pdl-jon-0102',
    name: ['jon', 'pickles'],
    title: ['community pharmacist', 'health', 'pharmacy', []],
    company: ['well pharmacy', 'retail'],
    location: ['morley, england, united kingdom', null],
    geo: '53.74,-1.60',
    onet: '29-1051.00',
    skills: ['dispensing', 'patient counseling'],
    years: 11,
  }),
  person({
    id: 'pdl-kit-0103',
    name: ['kit', 'barker'],
    title: ['pharmacist', 'health', 'pharmacy', []],
    company: ['asda', 'retail'],
    location: ['leeds, england, united kingdom', null],
    geo: true,
    onet: '29-1051.00',
    skills: ['dispensing'],
    years: 3,
  }),
  person({
    id: 'pdl-lou-0104',
    name: ['lou', 'whitworth'],
    title: ['clinical pharmacist', 'health', 'pharmacy', ['senior']],
    company: ['nhs', 'hospital & health care'],
    location: ['manchester, england, united kingdom', null],
    geo: '53.48,-2.24',
    onet: '29-1051.00',
    skills: ['clinical pharmacy', 'patient counseling'],
    years: 14,
  }),
  person({
    id: 'pdl-max-0105',
    name: ['max', 'feeney'],
    title: ['pharmacist', 'health', 'pharmacy', []],
    company: ['cvs health', 'retail'],
    location: ['boston, massachusetts, united states', 'boston, massachusetts'],
    geo: '42.36,-71.06',
    onet: '29-1051.00',
    skills: ['patient counseling', 'immunizations'],
    years: 6,
  }),
  person({
    id: 'pdl-nia-0106',
    name: ['nia', 'okoro'],
    title: ['pharmacy technician', 'health', 'pharmacy', []],
    company: ['boots', 'retail'],
    location: ['leeds, england, united kingdom', null],
    geo: '53.80,-1.55',
    onet: '29-2052.00',
    skills: ['dispensing'],
    years: 4,
  }),
  person({
    id: 'pdl-oz-0107',
    name: ['oz', 'hale'],
    title: ['registered nurse', 'health', 'nursing', []],
    company: ['leeds teaching hospitals', 'hospital & health care'],
    location: ['leeds, england, united kingdom', null],
    geo: '53.80,-1.55',
    onet: '29-1141.00',
    skills: ['patient care'],
    years: 8,
  }),
  person({
    id: 'pdl-pam-0108',
    name: ['pam', 'delgado'],
    title: ['truck driver', 'trade', 'transport', []],
    company: ['lone star freight', 'transportation/trucking/railroad'],
    location: ['dallas, texas, united states', 'dallas, texas'],
    geo: '32.78,-96.81',
    onet: '53-3032.00',
    skills: ['commercial driving', 'logistics'],
    years: 12,
  }),
  person({
    id: 'pdl-rex-0109',
    name: ['rex', 'tanner'],
    title: ['cdl driver', 'trade', 'transport', []],
    company: ['lone star freight', 'transportation/trucking/railroad'],
    location: ['fort worth, texas, united states', 'dallas, texas'],
    geo: '32.73,-97.32',
    onet: '53-3032.00',
    skills: ['commercial driving'],
    years: 5,
  }),
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
export function person(p: {
  id: string;
  name: [string, string];
  /** Title, PDL role, sub role and levels. */
  title: [string, string, string, string[]];
  /** Current company and its industry. */
  company: [string, string];
  /** `location_name` ("locality, region, country") and PDL's metro (US only, else null). */
  location: [string, string | null];
  /** `location_geo`: "lat,lon" of the city centre, `true` on a free plan, null when PDL has none. */
  geo?: string | boolean | null;
  /** `job_onet_code`, O*NET-SOC ("29-1051.00"), or null. */
  onet?: string | null;
  skills: string[];
  years: number;
}) {
  const [first, last] = p.name;
  const [title, role, subRole, levels] = p.title;
  const [companyName, industry] = p.company;
  const [location, metro] = p.location;
  const [locality, region, country] = location.split(', ');
  return {
    id: p.id,
    full_name: `${first} ${last}`,
    first_name: first,
    last_name: last,
    job_title: title,
    job_title_role: role,
    job_title_sub_role: subRole,
    job_title_levels: levels,
    job_company_name: companyName,
    job_company_industry: industry,
    industry,
    location_name: location,
    location_locality: locality,
    location_metro: metro,
    location_region: region,
    location_country: country,
    location_geo: p.geo ?? null,
    job_onet_code: p.onet ?? null,
    linkedin_url: `linkedin.com/in/${first}-${last}`,
    linkedin_connections: 500,
    headline: null as string | null,
    summary: `${title} at ${companyName}.`,
    skills: p.skills,
    inferred_years_experience: p.years,
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

/** Field value by dotted path (`location.name`); `<field>.text` is the analysed form of a keyword field. */
const field = (record: any, path: string): unknown =>
  (path.endsWith('.text') ? path.slice(0, -'.text'.length) : path).split('.').reduce((v, k) => (v == null ? v : v[k]), record);

class UnsupportedQuery extends Error {}

/** A leaf clause's field and options: `{field: value}` or `{field: {query | value, boost}}`. */
function leafSpec(spec: Record<string, unknown>): { path: string; opts: Record<string, any> } {
  const [[path, raw]] = Object.entries(spec);
  const opts = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, any>) : { query: raw, value: raw };
  return { path, opts };
}

const BOOL_KEYS = new Set(['must', 'filter', 'should', 'must_not', 'minimum_should_match', 'boost']);

/** PDL: "Any array in a query (such as a terms array) will have a hard limit of 1000 elements". */
const MAX_ARRAY = 1000;
function checkArrays(value: unknown): void {
  if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY) throw new UnsupportedQuery(`an array of ${value.length} values; the limit is ${MAX_ARRAY}`);
    value.forEach(checkArrays);
  } else if (value !== null && typeof value === 'object') Object.values(value).forEach(checkArrays);
}

/** A keyword wildcard pattern (`*` any run, `?` one character) as a RegExp over the whole value. */
const wildcard = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/**
 * PDL's Elasticsearch subset over one record: null when the record does not match, else its
 * relevance, the boosts (default 1) of the scoring clauses it matched (`filter` and `must_not`
 * only select). As in Elasticsearch, a bool's should clauses are optional beside must or filter
 * clauses and at least one must match otherwise, unless `minimum_should_match` says.
 */
function relevance(record: unknown, clause: any): number | null {
  if (clause?.bool) {
    const unknown = Object.keys(clause.bool).filter((k) => !BOOL_KEYS.has(k));
    if (unknown.length) throw new UnsupportedQuery(`unsupported bool key ${unknown[0]}`);
    const { must = [], filter = [], should = [], must_not: mustNot = [], minimum_should_match: minimum } = clause.bool;
    let score = 0;
    for (const c of must) {
      const s = relevance(record, c);
      if (s === null) return null;
      score += s;
    }
    if (filter.some((c: unknown) => relevance(record, c) === null)) return null;
    if (mustNot.some((c: unknown) => relevance(record, c) !== null)) return null;
    let matched = 0;
    for (const c of should) {
      const s = relevance(record, c);
      if (s !== null) [matched, score] = [matched + 1, score + s];
    }
    const needed = minimum ?? (must.length || filter.length || !should.length ? 0 : 1);
    return matched >= needed ? score * Number(clause.bool.boost ?? 1) : null;
  }
  const [[kind, spec]] = Object.entries<Record<string, unknown>>(clause);
  if (kind === 'match_all') return Number(spec?.boost ?? 1);
  if (kind === 'exists') {
    const value = field(record, String(spec.field));
    return value === null || value === undefined || (Array.isArray(value) && value.length === 0) ? null : Number(spec.boost ?? 1);
  }
  if (kind === 'terms') {
    const { boost = 1, ...fields } = spec;
    const [[path, wanted]] = Object.entries(fields);
    const value = field(record, path);
    const have = Array.isArray(value) ? value : [value];
    return (wanted as unknown[]).some((w) => have.includes(w)) ? Number(boost) : null;
  }
  const { path, opts } = leafSpec(spec);
  const boost = Number(opts.boost ?? 1);
  const value = field(record, path);
  const text = Array.isArray(value) ? value.join(' ') : value;
  if (kind === 'match') return tokens(opts.query).some((t) => tokens(text).includes(t)) ? boost : null;
  if (kind === 'match_phrase') {
    const phrase = tokens(opts.query).join(' ');
    return ` ${tokens(text).join(' ')} `.includes(` ${phrase} `) ? boost : null;
  }
  if (kind === 'term') return (Array.isArray(value) ? value.includes(opts.value) : value === opts.value) ? boost : null;
  // Keyword semantics: exact characters, case included.
  const keywords = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  if (kind === 'prefix') return keywords.some((v) => v.startsWith(String(opts.value))) ? boost : null;
  if (kind === 'wildcard') return keywords.some((v) => wildcard(String(opts.value)).test(v)) ? boost : null;
  if (kind === 'range') {
    if (typeof value !== 'number') return null;
    const { gte = -Infinity, lte = Infinity, gt = -Infinity, lt = Infinity } = opts;
    return value >= gte && value <= lte && value > gt && value < lt ? boost : null;
  }
  throw new UnsupportedQuery(`unsupported query clause ${kind}`);
}

const notFound = (message: string) => ({ status: 404, body: { status: 404, error: { type: 'not_found', message } } });
const invalid = (message: string) => ({ status: 400, body: { status: 400, error: { type: 'invalid_request_error', message } } });

function search(records: unknown[], req: FakeRequest) {
  const { query, size = 10, from = 0 } = req.body ?? {};
  if (!query) return invalid('query or sql is required');
  let scored: { record: unknown; score: number }[];
  try {
    checkArrays(query);
    scored = records.map((record) => ({ record, score: relevance(record, query) })).filter((h): h is { record: unknown; score: number } => h.score !== null);
  } catch (err) {
    if (err instanceof UnsupportedQuery) return invalid(err.message);
    throw err;
  }
  if (scored.length === 0) return notFound('No records were found matching your search');
  // Best first; Array.prototype.sort is stable, so ties keep the records' order.
  const hits = scored.sort((a, b) => b.score - a.score).map((h) => h.record);
  return { status: 200, body: { status: 200, data: hits.slice(from, from + size), scroll_token: `scroll-${from + size}`, total: hits.length } };
}

export type PdlFake = VendorServer;

export function startPdlFake(opts: { acceptedKey?: string; people?: ReturnType<typeof person>[] } = {}): Promise<PdlFake> {
  const { acceptedKey = PDL_GOOD_KEY, people = [...PDL_PEOPLE, ...PDL_PLACED_PEOPLE] } = opts;
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
