/**
 * People Data Labs' names for our reference data, in one place: what a live search asks PDL for
 * (`personCriteriaQuery` in src/providers/peopledatalabs.ts) and how PDL's levels read back.
 * Values are PDL's canonical lower-case values; data/pdl-canonical.json lists the documented ones
 * with their sources, and the unit test checks every table against it and against our reference
 * data (every family, metro and industry has an entry).
 */
import pdlFamilyData from './data/pdl-role-families.json';
import pdlIndustryData from './data/pdl-industries.json';
import pdlMetroData from './data/pdl-metros.json';
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
