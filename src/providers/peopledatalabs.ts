import { z } from 'zod';
import type { ResolvedCriteria } from '../domain/criteria';
import type { PersonLocation, PersonOccupation, PersonProfile } from '../domain/profile';
import { occupations, ONET_CODE, socOf } from '../reference/occupations';
import { distanceKm, gazetteer, placeKey } from '../reference/gazetteer';
import { PLACE_RADIUS, placeFacts, type ResolvedPlace } from '../reference/place-resolution';
import { placesOf } from '../ranking/location';
import { canonicalRoles } from '../ranking/title-match';
import {
  PDL_FAMILY_ROLES,
  PDL_INDUSTRIES,
  PDL_LEVEL_SENIORITY,
  countryOfPdl,
  familyOfPdlRole,
  metroOfPdlPlace,
  pdlCountryNames,
  pdlLevelsFor,
  pdlLocalitySpellings,
  pdlMetroOfPlace,
  pdlSpellings,
} from '../reference/pdl';
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
 * so PDL's order approximates our score rather than computing it. A wanted O*NET occupation weighs
 * as much as a wanted title said whole (PDL derives the code from the title): the code itself, its
 * SOC occupation ("29-1141" of "29-1141.01", O*NET's specialities) and its SOC broad occupation (the
 * first five digits, "29-105") each add their part, so the same code sums to 10, another speciality
 * of its SOC occupation to 7.5 and a neighbour in its broad occupation to 5, as the occupation
 * criterion counts them (1, 0.75, 0.5). Being within a city place's radius rather than only within
 * twice it weighs as much as a title.
 */
const BOOST = {
  title: 10,
  titleWords: 5,
  occupation: 2.5,
  socOccupation: 2.5,
  broadOccupation: 5,
  subRole: 5,
  role: 2,
  seniority: 8,
  skills: 20,
  years: 15,
  currentIndustry: 10,
  industry: 5,
  near: 10,
} as const;

/** PDL refuses a request whose `terms` (or any) array holds more than 1000 values. */
export const PDL_MAX_TERMS = 1000;

const anyOf = (clauses: Clause[]): Clause | null =>
  clauses.length === 0 ? null : clauses.length === 1 ? clauses[0] : { bool: { should: clauses, minimum_should_match: 1 } };
const unique = (values: string[]) => [...new Set(values)];
/** One value a `term`, several a `terms` (Côte d'Ivoire has two spellings). */
const oneOf = (field: string, values: string[]): Clause => (values.length === 1 ? { term: { [field]: values[0] } } : { terms: { [field]: values } });

/** A locality as PDL may write it, in its country (ISO2), at its distance from the wanted place. */
interface Locality {
  country: string;
  spelling: string;
  km: number;
}

/**
 * Localities in a country, for a filter: `{bool: {filter: [locality terms, country]}}`; with a
 * boost, for ranking: the locality terms score (a filter clause does not), the country still filters.
 */
function localitiesClauses(localities: readonly Locality[], boost?: number): Clause[] {
  const byCountry = new Map<string, string[]>();
  for (const l of localities) byCountry.set(l.country, [...(byCountry.get(l.country) ?? []), l.spelling]);
  const out: Clause[] = [];
  for (const [country, spellings] of byCountry) {
    const names = pdlCountryNames(country);
    if (names.length === 0) continue; // a country PDL has no value for has no PDL people
    const terms = { location_locality: unique(spellings) };
    out.push(
      boost === undefined
        ? { bool: { filter: [{ terms }, oneOf('location_country', names)] } }
        : { bool: { must: [{ terms: { ...terms, boost } }], filter: [oneOf('location_country', names)] } },
    );
  }
  return out;
}

/**
 * A city (or point) place: the localities within twice its radius, where the location signal
 * still gives credit (PDL cannot search by distance, see placeClauses), and those within the
 * radius, which rank first. Localities are the gazetteer's cities (15,000+ people; its nearest city
 * when none is that close), nearest first, at most PDL_MAX_TERMS of them. The city an old metro is
 * named after adds that metro's PDL place: abroad its usual spellings ("bengaluru", "bangalore"),
 * each placed where the gazetteer puts it (and left out beyond twice the radius); in the US its
 * `location_metro` (the census MSA), when the place covers the metro's radius.
 */
function cityClauses(place: ResolvedPlace): { within2r: Clause[]; withinR: Clause[] } {
  const radius = place.radius_km ?? PLACE_RADIUS.defaultCityKm;
  const found = new Map<string, Locality>();
  const add = (country: string, spellings: string[], km: number) => {
    for (const spelling of spellings) {
      const key = `${country}|${spelling}`;
      const known = found.get(key);
      if (!known || km < known.km) found.set(key, { country, spelling, km });
    }
  };
  const g = gazetteer();
  for (const city of g.cities()) {
    // A cheap latitude test first: a degree of latitude is 111 km.
    if (Math.abs(city.lat - place.lat) * 111 > 2 * radius) continue;
    const km = distanceKm(place.lat, place.lon, city.lat, city.lon);
    if (km <= 2 * radius) add(city.country, pdlLocalitySpellings(city), km);
  }
  if (found.size === 0) {
    const nearest = g.nearestCity(place.lat, place.lon, 300);
    if (nearest) add(nearest.country, pdlLocalitySpellings(nearest), distanceKm(place.lat, place.lon, nearest.lat, nearest.lon));
  }
  const metro = pdlMetroOfPlace(place);
  const country = g.byId(place.id)?.country;
  let usMetro: string | undefined;
  if (metro && 'location_locality' in metro.pdl && country) {
    for (const spelling of metro.pdl.location_locality) {
      const city = g.named(spelling).find((c) => c.kind === 'city' && c.country === country);
      const km = city ? distanceKm(place.lat, place.lon, city.lat, city.lon) : 0;
      // Abu Dhabi is in Dubai's metro (100 km), not within 80 km of Dubai.
      if (km <= 2 * radius) add(country, [spelling], km);
    }
  } else if (metro && 'location_metro' in metro.pdl && radius >= metro.radiusKm) {
    usMetro = metro.pdl.location_metro;
  }
  const localities = [...found.values()].sort((a, b) => a.km - b.km).slice(0, PDL_MAX_TERMS);
  const near = localities.filter((l) => l.km <= radius);
  const metroClause = (boost?: number): Clause[] =>
    usMetro === undefined ? [] : [{ term: { location_metro: boost === undefined ? usMetro : { value: usMetro, boost } } }];
  return {
    within2r: [...metroClause(), ...localitiesClauses(localities)],
    // Nothing to rank when every locality is within the radius.
    withinR: near.length === localities.length ? [] : [...metroClause(BOOST.near), ...localitiesClauses(near, BOOST.near)],
  };
}

/**
 * Where people must be, from the search's places (placesOf: `places`, or for older criteria their
 * `metro` and `locations`), and what ranks the nearer ones up.
 *
 * PDL cannot search by distance: its query subset (term, terms, exists, bool, match, range,
 * match_phrase, wildcard, prefix, match_all) has no geo_distance, and `location_geo` can only be
 * read back. So a city's radius is approximated by naming its localities (cityClauses), each with
 * its country (names repeat across countries); the scorer then ranks everyone read by the true
 * distance from `location_geo`. A region is its `location_region` in its country (region names
 * repeat too: georgia, punjab, limburg); a country is its `location_country`. Values are PDL's:
 * lower case, countries by their English names.
 */
function placeClauses(c: ResolvedCriteria): { filter: Clause | null; near: Clause | null } {
  const anywhere: Clause[] = [];
  const near: Clause[] = [];
  const countries: string[] = [];
  for (const place of placesOf(c)) {
    const facts = placeFacts(place);
    if (place.kind === 'country') countries.push(...pdlCountryNames(facts.country));
    else if (place.kind === 'region') {
      const names = pdlCountryNames(facts.country);
      const region = pdlSpellings(facts.regionName ?? place.name.split(',')[0]);
      if (names.length) anywhere.push({ bool: { filter: [oneOf('location_region', region), oneOf('location_country', names)] } });
    } else {
      const { within2r, withinR } = cityClauses(place);
      anywhere.push(...within2r);
      near.push(...withinR);
    }
  }
  if (countries.length) anywhere.push({ terms: { location_country: unique(countries) } });
  // Places PDL cannot name (a point far from any town, Antarctica) find nobody, not everybody.
  const nowhere = { bool: { must_not: [{ match_all: {} }] } };
  return { filter: anywhere.length ? anyOf(anywhere) : placesOf(c).length ? nowhere : null, near: anyOf(near) };
}

/**
 * A live search pass's query: every criterion PDL can filter or rank on, so PDL's relevance order
 * puts the people our scoring will rank highest on the first pages (a pass reads pages in order
 * until its read budget or target).
 *
 * Filters (no score) are what a person cannot lack and still be wanted, as before: the places
 * (anywhere the location signal gives credit, placeClauses; a pass searches where the search is)
 * and each must-have skill (scoring caps anyone missing one at 40, below the default threshold of
 * 70); people at an excluded company score 0, so they are left out too. Everything else only ranks
 * (`should`, with boosts): a PDL profile often lacks a level, role, industry, O*NET code or
 * inferred years, and a filter on one would drop a good person for a missing optional field where
 * a should clause only moves them down. At least one of the occupation, family, title, skill and
 * industry clauses (what the search looks for) must match, so the pages never fill with people who
 * merely live in the place; being within a city's radius, seniority and years rank among those.
 *
 * Seniority is PDL's `job_title_levels` (pdlLevelsFor: lead counts as senior); `mid` has no PDL
 * level, so it ranks by mid's typical years instead. Titles match PDL's analysed `job_title.text`
 * (`job_title` itself is an exact keyword), whole (phrase) above some of their words.
 */
export function personCriteriaQuery(c: ResolvedCriteria): Record<string, unknown> {
  const mustHave = c.must_have_skills ?? [];
  const places = placeClauses(c);
  const filter = [places.filter, ...mustHave.map((s) => ({ term: { skills: s.toLowerCase() } }))].filter((x): x is Clause => x !== null);

  const what: Clause[] = [];
  // The occupation (O*NET-SOC, as PDL's job_onet_code) finds a role outside every family too.
  const codes = c.occupations ?? [];
  if (codes.length) {
    what.push({ terms: { job_onet_code: codes, boost: BOOST.occupation } });
    for (const soc of unique(codes.map(socOf))) what.push({ prefix: { job_onet_code: { value: soc, boost: BOOST.socOccupation } } });
    for (const broad of unique(codes.map((code) => code.slice(0, 6)))) what.push({ prefix: { job_onet_code: { value: broad, boost: BOOST.broadOccupation } } });
  }
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
  if (places.near) rank.push(places.near);
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
