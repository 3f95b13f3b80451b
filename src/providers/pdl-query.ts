/**
 * People Data Labs queries (its Elasticsearch subset: bool, term, terms, match, match_phrase,
 * prefix, range; no geo_distance): the data endpoint's free-text search and a live pass's criteria,
 * with places as locality lists and occupations as job_onet_code clauses. The adapter that sends
 * them is peopledatalabs.ts.
 */
import type { ResolvedCriteria } from '../domain/criteria';
import { socOf } from '../reference/occupations';
import { distanceKm, gazetteer } from '../reference/gazetteer';
import { PLACE_RADIUS, placeFacts, type ResolvedPlace } from '../reference/place-resolution';
import { placesOf } from '../ranking/location';
import { PDL_FAMILY_ROLES, PDL_INDUSTRIES, pdlCountryNames, pdlLevelsFor, pdlLocalitySpellings, pdlMetroOfPlace, pdlSpellings } from '../reference/pdl';
import { SENIORITY_YEARS } from '../reference/taxonomy';
import type { CompanyQuery, PeopleQuery } from './capabilities';

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
 * How much each matched criterion lifts a person in PDL's relevance order: in the proportions of
 * the ranking signals (src/ranking/signals.ts), so the first pages hold the people who will score
 * best. Elasticsearch weighs a phrase or word match by term statistics times its boost,
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
