import { z } from 'zod';
import type { ResolvedCriteria } from '../domain/criteria';
import type { PersonLocation, PersonOccupation, PersonProfile } from '../domain/profile';
import { occupations, ONET_CODE } from '../reference/occupations';
import { gazetteer } from '../reference/gazetteer';
import { canonicalRoles } from '../ranking/title-match';
import { PDL_FAMILY_ROLES, PDL_INDUSTRIES, PDL_LEVEL_SENIORITY, PDL_METROS, familyOfPdlRole, metroOfPdlPlace, pdlLevelsFor } from '../reference/pdl';
import { detectSeniority, findMetro, SENIORITY_YEARS } from '../reference/taxonomy';
import type { CompanyProfile, CompanyQuery, CompanySummary, LiveProfileDataProvider, PeopleQuery } from './capabilities';
import type { DownstreamLimiter } from './downstream-limiter';
import type { CandidateSummary } from './profile-source';
import { verifyByGet, type VerifyResult } from './verification';
import { callVendor } from './vendor-http';

/**
 * People Data Labs (profile data). The cheapest authenticated call is the v5 autocomplete
 * endpoint with size 1; the key goes in the `X-Api-Key` header.
 */
export function verifyPeopleDataLabsKey(baseUrl: string, apiKey: string): Promise<VerifyResult> {
  return verifyByGet('peopledatalabs', `${baseUrl}/v5/autocomplete?field=title&text=engineer&size=1`, { 'X-Api-Key': apiKey, Accept: 'application/json' });
}

// --- Wire format (https://docs.peopledatalabs.com/docs, v5). Only the fields we map; the rest pass.
// Free-tier keys answer `true` in place of a masked value, so every field also accepts a boolean.
const text = z.union([z.string(), z.boolean()]).nullish();
const textOf = (v: string | boolean | null | undefined): string => (typeof v === 'string' ? v : '');
const list = <T extends z.ZodType>(item: T) => z.array(item).nullish();

const pdlPerson = z.looseObject({
  id: z.string(),
  full_name: text,
  first_name: text,
  last_name: text,
  job_title: text,
  job_title_role: text,
  job_title_sub_role: text,
  job_title_levels: list(z.string()),
  job_company_name: text,
  job_company_industry: text,
  location_name: text,
  location_metro: text,
  location_locality: text,
  location_region: text,
  location_country: text,
  /** "lat,lon" of the city centre of the person's address (two decimals). */
  location_geo: text,
  /** The 8-digit O*NET-SOC code of the current job (2018 SOC), e.g. "15-1252.00". */
  job_onet_code: text,
  linkedin_url: text,
  linkedin_connections: z.number().nullish(),
  headline: text,
  summary: text,
  skills: list(z.string()),
  inferred_years_experience: z.number().nullish(),
  job_last_updated: text,
  experience: list(
    z.looseObject({
      company: z.looseObject({ name: text, industry: text }).nullish(),
      title: z.looseObject({ name: text }).nullish(),
      start_date: text,
      end_date: text,
      summary: text,
      is_primary: z.boolean().nullish(),
    }),
  ),
  education: list(
    z.looseObject({
      school: z.looseObject({ name: text }).nullish(),
      degrees: list(z.string()),
      majors: list(z.string()),
      start_date: text,
      end_date: text,
    }),
  ),
  certifications: list(z.looseObject({ name: text })),
  languages: list(z.looseObject({ name: text, proficiency: z.number().nullish() })),
});
type PdlPerson = z.infer<typeof pdlPerson>;

const pdlCompany = z.looseObject({
  id: z.string(),
  name: text,
  display_name: text,
  website: text,
  industry: text,
  size: text,
  founded: z.number().nullish(),
  employee_count: z.number().nullish(),
  summary: text,
  linkedin_url: text,
  tags: list(z.string()),
  location: z.looseObject({ name: text, metro: text, country: text }).nullish(),
});
type PdlCompany = z.infer<typeof pdlCompany>;

const searchAnswer = <T extends z.ZodType>(record: T) => z.looseObject({ status: z.number().optional(), data: z.array(record), total: z.number().int() });
const personEnrichAnswer = z.looseObject({ status: z.number().optional(), data: pdlPerson });
// Company enrichment answers the record at the top level (with status and likelihood beside it).
const companyEnrichAnswer = pdlCompany;

// --- Mapping to our shapes.
const capitalise = (s: string) => s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
/** PDL writes profile URLs without a scheme (`linkedin.com/in/…`). */
const absoluteUrl = (u: string) => (u === '' ? '' : /^https?:\/\//.test(u) ? u : `https://${u}`);
const yearMonth = (d: string) => (/^\d{4}-\d{2}/.test(d) ? d.slice(0, 7) : /^\d{4}$/.test(d) ? `${d}-01` : '');
const yearOf = (d: string) => (/^\d{4}/.test(d) ? Number(d.slice(0, 4)) : 0);

function personSummary(p: PdlPerson): CandidateSummary {
  const title = capitalise(textOf(p.job_title));
  const company = capitalise(textOf(p.job_company_name));
  return {
    person_id: p.id,
    first_name: capitalise(textOf(p.first_name)),
    last_name: capitalise(textOf(p.last_name)),
    title,
    company,
    location: capitalise(textOf(p.location_name)),
    network_url: absoluteUrl(textOf(p.linkedin_url)),
    // PDL does not know the network's open-profile and premium flags.
    open_profile: false,
    premium: false,
    summary: textOf(p.headline) || [title, company].filter(Boolean).join(' at '),
  };
}

/**
 * PDL's location fields in our shape: its lower-case country name as ISO 3166-1 alpha-2 (through
 * the gazetteer's names and aliases), `location_geo` ("37.87,-122.27") as the point.
 */
function pdlLocation(p: PdlPerson, name: string): PersonLocation {
  const geo = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(textOf(p.location_geo));
  const country = textOf(p.location_country);
  return {
    name,
    locality: capitalise(textOf(p.location_locality)),
    region: capitalise(textOf(p.location_region)),
    country: (country && gazetteer().country(country)?.country) || '',
    lat: geo ? Number(geo[1]) : null,
    lon: geo ? Number(geo[2]) : null,
  };
}

/** PDL's `job_onet_code` as our occupation (its O*NET title from the reference data), when it is one. */
function pdlOccupation(code: string): PersonOccupation | null {
  const known = ONET_CODE.test(code) ? occupations().byCode(code) : undefined;
  return known ? { onet_code: known.code, title: known.title } : null;
}

function personProfile(p: PdlPerson): PersonProfile {
  const summary = personSummary(p);
  const level = (p.job_title_levels ?? []).map((l) => PDL_LEVEL_SENIORITY[l]).find(Boolean);
  const metroName = textOf(p.location_metro);
  return {
    id: p.id,
    first_name: summary.first_name,
    last_name: summary.last_name,
    title: summary.title,
    seniority: level ?? detectSeniority(summary.title) ?? 'mid',
    // Our family from the title as the brief reader knows titles ("iOS Developer" is software
    // engineering), else from PDL's (sub) role when only one family claims it.
    family:
      canonicalRoles(summary.title)?.phrases[0]?.family ?? familyOfPdlRole(textOf(p.job_title_role), textOf(p.job_title_sub_role)) ?? textOf(p.job_title_role),
    occupation: pdlOccupation(textOf(p.job_onet_code)),
    company: summary.company,
    industry: capitalise(textOf(p.job_company_industry)),
    metro:
      metroOfPdlPlace({ location_metro: metroName, location_locality: textOf(p.location_locality), location_country: textOf(p.location_country) }) ??
      ((metroName && findMetro(metroName)?.id) || metroName),
    location: pdlLocation(p, summary.location),
    network_url: summary.network_url,
    open_profile: false,
    premium: false,
    summary: summary.summary,
    about: textOf(p.summary),
    years_experience: p.inferred_years_experience ?? 0,
    experience: [...(p.experience ?? [])]
      .sort((a, b) => Number(Boolean(b.is_primary)) - Number(Boolean(a.is_primary)) || textOf(b.start_date).localeCompare(textOf(a.start_date)))
      .map((e) => ({
        title: capitalise(textOf(e.title?.name)),
        company: capitalise(textOf(e.company?.name)),
        industry: capitalise(textOf(e.company?.industry)),
        start: yearMonth(textOf(e.start_date)),
        end: yearMonth(textOf(e.end_date)) || null,
        description: textOf(e.summary),
      })),
    education: (p.education ?? []).map((e) => ({
      school: capitalise(textOf(e.school?.name)),
      degree: (e.degrees ?? []).join(', '),
      field: (e.majors ?? []).join(', '),
      start_year: yearOf(textOf(e.start_date)),
      end_year: yearOf(textOf(e.end_date)),
    })),
    skills: (p.skills ?? []).map(capitalise),
    certifications: (p.certifications ?? []).map((c) => textOf(c.name)).filter(Boolean),
    languages: (p.languages ?? []).map((l) => capitalise(textOf(l.name))).filter(Boolean),
    projects: [],
    connections: p.linkedin_connections ?? 0,
    updated_at: textOf(p.job_last_updated) ? new Date(textOf(p.job_last_updated)).toISOString() : new Date(0).toISOString(),
  };
}

function companySummary(c: PdlCompany): CompanySummary {
  return {
    company_id: c.id,
    name: textOf(c.display_name) || capitalise(textOf(c.name)),
    industry: capitalise(textOf(c.industry)),
    website: textOf(c.website) ? absoluteUrl(textOf(c.website)) : null,
    location: textOf(c.location?.name) ? capitalise(textOf(c.location?.name)) : null,
    size: textOf(c.size) || null,
    founded: c.founded ?? null,
  };
}

function companyProfile(c: PdlCompany): CompanyProfile {
  return {
    ...companySummary(c),
    employee_count: c.employee_count ?? null,
    summary: textOf(c.summary) || null,
    network_url: textOf(c.linkedin_url) ? absoluteUrl(textOf(c.linkedin_url)) : null,
    tags: c.tags ?? [],
  };
}

// --- Queries (PDL's Elasticsearch subset: bool, match, match_phrase, term, terms, range).

/** The data endpoint's free-text person search. */
export function personSearchQuery(q: PeopleQuery): Record<string, unknown> {
  const must: unknown[] = [{ bool: { should: [{ match: { job_title: q.search } }, { match: { skills: q.search } }] } }];
  if (q.location) must.push({ match: { location_name: q.location } });
  if (q.title) must.push({ match_phrase: { job_title: q.title } });
  if (q.company) must.push({ match: { job_company_name: q.company } });
  for (const skill of q.skills ?? []) must.push({ term: { skills: skill.toLowerCase() } });
  return { bool: { must } };
}

type Clause = Record<string, unknown>;

/**
 * How much each matched criterion lifts a person in PDL's relevance order: about our scoring
 * weights (src/domain/scoring.ts: title 30, shared by the titles, the family and the seniority;
 * skills 20, shared by the skills; years 15; industry 15), so the first pages hold the people who
 * will score best. Elasticsearch weighs a phrase or word match by term statistics times its boost,
 * so PDL's order approximates our score rather than computing it.
 */
const BOOST = { title: 10, titleWords: 5, subRole: 5, role: 2, seniority: 8, skills: 20, years: 15, currentIndustry: 10, industry: 5 } as const;

const anyOf = (clauses: Clause[]): Clause | null =>
  clauses.length === 0 ? null : clauses.length === 1 ? clauses[0] : { bool: { should: clauses, minimum_should_match: 1 } };
const unique = (values: string[]) => [...new Set(values)];

/** In the metro or one of the further locations (metro ids or countries, as criteria.ts resolves them). */
function placeClause(c: ResolvedCriteria): Clause | null {
  const usMetros: string[] = [];
  const abroad: Clause[] = [];
  const countries: string[] = [];
  for (const place of [c.metro, ...(c.locations ?? [])]) {
    if (!place) continue;
    const pdl = PDL_METROS[place];
    if (!pdl) countries.push(place.toLowerCase());
    else if ('location_metro' in pdl) usMetros.push(pdl.location_metro);
    else abroad.push({ bool: { filter: [{ terms: { location_locality: pdl.location_locality } }, { term: { location_country: pdl.location_country } }] } });
  }
  return anyOf([
    ...(usMetros.length ? [{ terms: { location_metro: unique(usMetros) } }] : []),
    ...abroad,
    ...(countries.length ? [{ terms: { location_country: unique(countries) } }] : []),
  ]);
}

/**
 * A live search pass's query: every criterion PDL can filter or rank on, so PDL's relevance order
 * puts the people our scoring will rank highest on the first pages (a pass reads pages in order
 * until its read budget or target).
 *
 * Filters (no score) are what a person cannot lack and still be wanted, as before: the place
 * (the metro or a further location; a pass searches where the search is) and each must-have skill
 * (scoring caps anyone missing one at 40, below the default threshold of 70); people at an excluded
 * company score 0, so they are left out too. Everything else only ranks (`should`, with boosts):
 * a PDL profile often lacks a level, role, industry or inferred years, and a filter on one would
 * drop a good person for a missing optional field where a should clause only moves them down. At
 * least one of the family, title, skill and industry clauses (what the search looks for) must
 * match, so the pages never fill with people who merely live in the place; seniority and years
 * rank among those.
 *
 * Seniority is PDL's `job_title_levels` (pdlLevelsFor: lead counts as senior); `mid` has no PDL
 * level, so it ranks by mid's typical years instead. Titles match PDL's analysed `job_title.text`
 * (`job_title` itself is an exact keyword), whole (phrase) above some of their words.
 */
export function personCriteriaQuery(c: ResolvedCriteria): Record<string, unknown> {
  const mustHave = c.must_have_skills ?? [];
  const filter = [placeClause(c), ...mustHave.map((s) => ({ term: { skills: s.toLowerCase() } }))].filter((x): x is Clause => x !== null);

  const what: Clause[] = [];
  const roles = c.family ? PDL_FAMILY_ROLES[c.family] : undefined;
  if (roles) {
    what.push({ terms: { job_title_sub_role: roles.job_title_sub_role, boost: BOOST.subRole } });
    what.push({ terms: { job_title_role: roles.job_title_role, boost: BOOST.role } });
  }
  const titles = c.titles ?? [];
  for (const title of titles) what.push({ match_phrase: { 'job_title.text': { query: title, boost: BOOST.title } } });
  if (titles.length) what.push({ match: { 'job_title.text': { query: titles.join(' '), boost: BOOST.titleWords } } });
  // Every result has the must-haves: only the other skills tell people apart.
  const skills = (c.skills ?? []).filter((s) => !mustHave.includes(s));
  const perSkill = Math.round((BOOST.skills / skills.length) * 100) / 100;
  for (const s of skills) what.push({ term: { skills: { value: s.toLowerCase(), boost: perSkill } } });
  const industries = unique((c.industries ?? []).flatMap((i) => PDL_INDUSTRIES[i] ?? []));
  if (industries.length) {
    what.push({ terms: { job_company_industry: industries, boost: BOOST.currentIndustry } });
    what.push({ terms: { industry: industries, boost: BOOST.industry } });
  }

  const rank: Clause[] = [];
  const seniority = c.seniority ?? [];
  const levels = unique(seniority.flatMap(pdlLevelsFor));
  if (levels.length) rank.push({ terms: { job_title_levels: levels, boost: BOOST.seniority } });
  if (seniority.includes('mid')) {
    const [gte, lte] = SENIORITY_YEARS.mid;
    rank.push({ range: { inferred_years_experience: { gte, lte, boost: BOOST.seniority } } });
  }
  const years = c.years_experience;
  if (years) {
    rank.push({
      range: {
        inferred_years_experience: {
          ...(years.min !== undefined ? { gte: years.min } : {}),
          ...(years.max !== undefined ? { lte: years.max } : {}),
          boost: BOOST.years,
        },
      },
    });
  }

  const bool: Clause = {};
  if (filter.length) bool.filter = filter;
  if (what.length) bool.must = [{ bool: { should: what, minimum_should_match: 1 } }];
  if (rank.length) bool.should = rank;
  if (c.exclude_companies?.length) bool.must_not = [{ terms: { job_company_name: unique(c.exclude_companies.map((x) => x.toLowerCase())) } }];
  return { bool };
}

export function companySearchQuery(q: CompanyQuery): Record<string, unknown> {
  const must: unknown[] = [{ bool: { should: [{ match: { name: q.search } }, { match: { tags: q.search } }, { match: { industry: q.search } }] } }];
  if (q.location) must.push({ match: { 'location.name': q.location } });
  if (q.industry) must.push({ term: { industry: q.industry.toLowerCase() } });
  return { bool: { must } };
}

export interface VendorSettings {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  limiter: DownstreamLimiter;
}

/**
 * The People Data Labs adapter: person and company search (POST, Elasticsearch query body: the
 * data endpoint's free text, or a live pass's criteria) and enrichment (GET by `pdl_id`).
 * Enrichment runs under the shared concurrency limit.
 */
export function peopleDataLabsProvider(s: VendorSettings): LiveProfileDataProvider {
  const headers = { 'X-Api-Key': s.apiKey };
  const call = <S extends z.ZodType>(method: 'GET' | 'POST', path: string, schema: S, body?: unknown, notFoundIsNull = false) =>
    callVendor({ provider: 'peopledatalabs', method, url: `${s.baseUrl}${path}`, headers, body, schema, timeoutMs: s.timeoutMs, notFoundIsNull });
  // PDL answers a search that matched nothing with 404.
  const search = async <S extends z.ZodType>(path: string, schema: S, query: unknown, limit: number, offset: number) =>
    (await call('POST', path, searchAnswer(schema), { query, size: limit, from: offset, titlecase: true }, true)) ?? { data: [], total: 0 };

  return {
    source: 'peopledatalabs',
    async searchPeople(q) {
      const answer = await search('/v5/person/search', pdlPerson, personSearchQuery(q), q.limit, q.offset);
      return { results: answer.data.map(personSummary), total: answer.total };
    },
    async searchPeopleByCriteria(q) {
      const answer = await search('/v5/person/search', pdlPerson, personCriteriaQuery(q.criteria), q.limit, q.offset);
      return { results: answer.data.map(personSummary), total: answer.total };
    },
    async enrichPerson(profileId) {
      const answer = await s.limiter.withSlot('peopledatalabs', () =>
        call('GET', `/v5/person/enrich?pdl_id=${encodeURIComponent(profileId)}&titlecase=true`, personEnrichAnswer, undefined, true),
      );
      return answer ? personProfile(answer.data) : null;
    },
    async searchCompanies(q) {
      const answer = await search('/v5/company/search', pdlCompany, companySearchQuery(q), q.limit, q.offset);
      return { results: answer.data.map(companySummary), total: answer.total };
    },
    async enrichCompany(companyId) {
      const answer = await s.limiter.withSlot('peopledatalabs', () =>
        call('GET', `/v5/company/enrich?pdl_id=${encodeURIComponent(companyId)}&titlecase=true`, companyEnrichAnswer, undefined, true),
      );
      return answer ? companyProfile(answer) : null;
    },
  };
}
