/**
 * People Data Labs' names for our reference data, in one place: what a live search asks PDL for
 * (`personCriteriaQuery` in src/providers/peopledatalabs.ts) and how PDL's levels and countries
 * read back. Values are PDL's canonical lower-case values; data/pdl-canonical.json lists the
 * documented ones with their sources (data/pdl-countries.json the countries), and the unit test
 * checks every table against it and against our reference data (every family, metro and industry
 * has an entry).
 */
import pdlCountryData from './data/pdl-countries.json';
import pdlFamilyData from './data/pdl-role-families.json';
import pdlIndustryData from './data/pdl-industries.json';
import pdlMetroData from './data/pdl-metros.json';
import { gazetteer, placeKey, type GazetteerPlace } from './gazetteer';
import type { ResolvedPlace } from './place-resolution';
import type { Seniority } from './taxonomy';

/** A role family in PDL's job title taxonomy: the broad roles and the narrower sub roles it covers. */
export interface PdlRoles {
  job_title_role: string[];
  job_title_sub_role: string[];
}

/**
 * Where a metro's people are in PDL. PDL's metros (`location_metro`, "san francisco, california")
 * are US metro areas only; elsewhere a metro is its cities (`location_locality`, with the usual
 * spellings) inside its country, the country telling London, England from London, Ontario.
 */
export type PdlPlace = { location_metro: string; location_country: string } | { location_locality: string[]; location_country: string };

/** Role family id → PDL roles. */
export const PDL_FAMILY_ROLES: Record<string, PdlRoles> = pdlFamilyData;
/** Metro id → PDL location fields. */
export const PDL_METROS: Record<string, PdlPlace> = pdlMetroData;
/** Reference industry name → PDL's (v1) industry values. */
export const PDL_INDUSTRIES: Record<string, string[]> = pdlIndustryData;
/**
 * ISO 3166-1 alpha-2 → PDL's `location_country` values (lower-case English names since v28.0:
 * "czechia", "eswatini", "the gambia", "kosovo"), the canonical one first.
 */
export const PDL_COUNTRIES: Record<string, string[]> = pdlCountryData.countries;

/** PDL country names compare in lower case with one apostrophe ("côte d’ivoire" is also written "côte d'ivoire"). */
const countryNameKey = (name: string) => name.trim().toLowerCase().replace(/[’‘`]/g, "'");
let isoByPdlCountry: Map<string, string> | undefined;

/** PDL's names for a country (ISO2), for a query; none for a country PDL has no value for (Antarctica). */
export function pdlCountryNames(iso2: string): string[] {
  return PDL_COUNTRIES[iso2.toUpperCase()] ?? [];
}

/**
 * A PDL `location_country` (any case: responses asked with `titlecase` say "United Kingdom") as
 * ISO2: by PDL's own table, else by the gazetteer's names and aliases; '' when neither knows it.
 */
export function countryOfPdl(name: string): string {
  if (name.trim() === '') return '';
  isoByPdlCountry ??= new Map(Object.entries(PDL_COUNTRIES).flatMap(([iso, names]) => names.map((n): [string, string] => [countryNameKey(n), iso])));
  const known = isoByPdlCountry.get(countryNameKey(name)) ?? gazetteer().country(name)?.country;
  return known ?? '';
}

/**
 * How PDL may write a place's name: its values are lower case, and accented names appear both
 * ways (PDL's own metros list "montréal" and "montreal", "münchen" beside "munich").
 */
export function pdlSpellings(name: string): string[] {
  const lower = name.trim().toLowerCase();
  const plain = lower.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return lower === plain ? [lower] : [lower, plain];
}

/**
 * The spellings PDL may use for a gazetteer city's locality: its name (pdlSpellings), and the
 * shortenings the gazetteer counts as the city's own ("frankfurt" of Frankfurt am Main, "new york"
 * of New York City), which is how people and PDL usually write them.
 */
export function pdlLocalitySpellings(city: GazetteerPlace): string[] {
  const g = gazetteer();
  const words = placeKey(city.name).split(' ');
  const shortenings: string[] = [];
  for (let n = words.length - 1; n >= 1; n--) {
    const key = words.slice(0, n).join(' ');
    if (g.isOwnName(key, city)) shortenings.push(key);
  }
  return [...new Set([...pdlSpellings(city.name), ...shortenings])];
}

let metroByCity: Map<string, { metroId: string; pdl: PdlPlace; radiusKm: number }> | undefined;

/**
 * The old metro a city place stands for, when the place is that metro's main city (criteria
 * `metro`/`locations` resolve so, and "Seattle" in `places` is the same city): with its PDL place
 * and the radius that covers the metro.
 */
export function pdlMetroOfPlace(place: Pick<ResolvedPlace, 'id' | 'kind'>): { metroId: string; pdl: PdlPlace; radiusKm: number } | undefined {
  if (place.kind !== 'city') return undefined;
  if (!metroByCity) {
    metroByCity = new Map();
    for (const [metroId, pdl] of Object.entries(PDL_METROS)) {
      const metro = gazetteer().metro(metroId);
      if (metro) metroByCity.set(metro.place.id, { metroId, pdl, radiusKm: metro.radiusKm });
    }
  }
  return metroByCity.get(place.id);
}

/** A PDL `job_title_levels` value → our seniority (how a PDL profile's level reads back). */
export const PDL_LEVEL_SENIORITY: Readonly<Record<string, Seniority>> = {
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

/**
 * Our seniority → the PDL levels that say it (the inverse of PDL_LEVEL_SENIORITY). PDL has no
 * level for `mid` (a plain title carries none), so mid has none here; nor for `lead`, whose
 * nearest PDL level is `senior`.
 */
export function pdlLevelsFor(seniority: Seniority): string[] {
  if (seniority === 'lead') return ['senior'];
  return Object.keys(PDL_LEVEL_SENIORITY).filter((level) => PDL_LEVEL_SENIORITY[level] === seniority);
}

/**
 * Our metro for a PDL person's place: the metro whose PDL `location_metro` it is (US), else the
 * metro whose cities hold its `location_locality` in its country; undefined elsewhere.
 */
export function metroOfPdlPlace(place: { location_metro?: string; location_locality?: string; location_country?: string }): string | undefined {
  const metro = place.location_metro?.toLowerCase();
  const locality = place.location_locality?.toLowerCase();
  const country = place.location_country?.toLowerCase();
  for (const [id, p] of Object.entries(PDL_METROS)) {
    if (
      'location_metro' in p
        ? metro !== undefined && p.location_metro === metro
        : locality !== undefined && p.location_locality.includes(locality) && p.location_country === country
    ) {
      return id;
    }
  }
  return undefined;
}

/** Our role family for a PDL sub role (then role) when exactly one family claims it. */
export function familyOfPdlRole(role: string | undefined, subRole: string | undefined): string | undefined {
  const claims = (field: keyof PdlRoles, value: string | undefined) =>
    value ? Object.entries(PDL_FAMILY_ROLES).filter(([, r]) => r[field].includes(value.toLowerCase())) : [];
  const bySub = claims('job_title_sub_role', subRole);
  if (bySub.length === 1) return bySub[0][0];
  const byRole = claims('job_title_role', role);
  return byRole.length === 1 ? byRole[0][0] : undefined;
}
