import { z } from 'zod';
import type { PersonLocation, PersonOccupation, PersonProfile } from '../domain/profile';
import { occupations, ONET_CODE, socOf } from '../reference/occupations';
import { gazetteer, placeKey } from '../reference/gazetteer';
import { canonicalRoles } from '../ranking/title-match';
import { PDL_LEVEL_SENIORITY, countryOfPdl, familyOfPdlRole, metroOfPdlPlace } from '../reference/pdl';
import { detectSeniority, findMetro } from '../reference/taxonomy';
import type { CompanyProfile, CompanySummary, LiveProfileDataProvider } from './capabilities';
import type { DownstreamLimiter } from './downstream-limiter';
import type { CandidateSummary } from './profile-source';
import { companySearchQuery, personCriteriaQuery, personSearchQuery } from './pdl-query';
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

/** PDL's `location_geo`: "lat,lon" (two decimals, the city centre); `true`/`false` on free plans, or absent. */
function pdlGeo(value: string | boolean | null | undefined): { lat: number; lon: number } | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(textOf(value));
  if (!m) return null;
  const [lat, lon] = [Number(m[1]), Number(m[2])];
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null;
}

/**
 * PDL's location fields in our shape: its lower-case country name as ISO 3166-1 alpha-2 (PDL's
 * country table, then the gazetteer's names and aliases), `location_geo` ("37.87,-122.27") as the
 * point. Without a usable `location_geo` (free plans answer `true`), the point is the centre of the
 * gazetteer city its locality names in its country (and region, when the name repeats): what PDL's
 * geo would have said, so the scorer can still measure the distance.
 */
function pdlLocation(p: PdlPerson, name: string): PersonLocation {
  const locality = textOf(p.location_locality);
  const region = textOf(p.location_region);
  const country = countryOfPdl(textOf(p.location_country));
  const point = pdlGeo(p.location_geo) ?? (locality && country ? localityCentre(locality, region, country) : null);
  return {
    name,
    locality: capitalise(locality),
    region: capitalise(region),
    country,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
  };
}

function localityCentre(locality: string, region: string, country: string): { lat: number; lon: number } | null {
  const cities = gazetteer()
    .named(locality)
    .filter((c) => c.kind === 'city' && c.country === country);
  const inRegion = region ? cities.filter((c) => c.regionName !== null && placeKey(c.regionName) === placeKey(region)) : [];
  // `named` lists the places whose own name it is first, most populous first.
  const city = inRegion[0] ?? cities[0];
  return city ? { lat: city.lat, lon: city.lon } : null;
}

/**
 * PDL's `job_onet_code` as our occupation (its O*NET title from the reference data). A code our
 * O*NET data lacks falls back to its SOC occupation ("NN-NNNN.00") when that has data; else null.
 */
function pdlOccupation(code: string): PersonOccupation | null {
  const c = code.trim();
  if (!ONET_CODE.test(c)) return null;
  const known = occupations().byCode(c) ?? occupations().byCode(`${socOf(c)}.00`);
  return known ? { onet_code: known.code, title: known.title } : null;
}

function personProfile(p: PdlPerson): PersonProfile {
  const summary = personSummary(p);
  const level = (p.job_title_levels ?? []).map((l) => PDL_LEVEL_SENIORITY[l]).find(Boolean);
  const metroName = textOf(p.location_metro);
  const occupation = pdlOccupation(textOf(p.job_onet_code));
  return {
    id: p.id,
    first_name: summary.first_name,
    last_name: summary.last_name,
    title: summary.title,
    seniority: level ?? detectSeniority(summary.title) ?? 'mid',
    // Our family from the title as the brief reader knows titles ("iOS Developer" is software
    // engineering), else from the O*NET occupation when PDL gives a known one (most map to no
    // family: a pharmacist is in none, not in nursing for PDL's role "health"), else from PDL's
    // (sub) role when only one family claims it.
    family:
      canonicalRoles(summary.title)?.phrases[0]?.family ??
      (occupation ? (occupations().byCode(occupation.onet_code)?.family ?? '') : undefined) ??
      familyOfPdlRole(textOf(p.job_title_role), textOf(p.job_title_sub_role)) ??
      textOf(p.job_title_role),
    occupation,
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
