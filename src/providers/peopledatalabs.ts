import { z } from 'zod';
import type { PersonProfile, Seniority } from '../domain/profile';
import { detectSeniority, findMetro } from '../reference/taxonomy';
import type { CompanyProfile, CompanyQuery, CompanySummary, PeopleQuery, ProfileDataProvider } from './capabilities';
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
  job_title_levels: list(z.string()),
  job_company_name: text,
  job_company_industry: text,
  location_name: text,
  location_metro: text,
  location_country: text,
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
const LEVELS: Record<string, Seniority> = {
  cxo: 'cxo',
  owner: 'cxo',
  vp: 'vp',
  director: 'director',
  partner: 'director',
  manager: 'manager',
  senior: 'senior',
  entry: 'junior',
  training: 'intern',
  unpaid: 'intern',
};

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

function personProfile(p: PdlPerson): PersonProfile {
  const summary = personSummary(p);
  const level = (p.job_title_levels ?? []).map((l) => LEVELS[l]).find(Boolean);
  const metroName = textOf(p.location_metro);
  return {
    id: p.id,
    first_name: summary.first_name,
    last_name: summary.last_name,
    title: summary.title,
    seniority: level ?? detectSeniority(summary.title) ?? 'mid',
    // PDL's job role (e.g. `engineering`), not one of our role families.
    family: textOf(p.job_title_role),
    company: summary.company,
    industry: capitalise(textOf(p.job_company_industry)),
    metro: (metroName && findMetro(metroName)?.id) || metroName,
    location: summary.location,
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

// --- Queries (PDL's Elasticsearch subset: bool, match, match_phrase, term).
export function personSearchQuery(q: PeopleQuery): Record<string, unknown> {
  const must: unknown[] = [{ bool: { should: [{ match: { job_title: q.search } }, { match: { skills: q.search } }] } }];
  if (q.location) must.push({ match: { location_name: q.location } });
  if (q.title) must.push({ match_phrase: { job_title: q.title } });
  if (q.company) must.push({ match: { job_company_name: q.company } });
  for (const skill of q.skills ?? []) must.push({ term: { skills: skill.toLowerCase() } });
  return { bool: { must } };
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
 * The People Data Labs adapter: person and company search (POST, Elasticsearch query body) and
 * enrichment (GET by `pdl_id`). Enrichment runs under the shared concurrency limit.
 */
export function peopleDataLabsProvider(s: VendorSettings): ProfileDataProvider {
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
