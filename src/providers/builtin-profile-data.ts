import { companiesRepository } from '../db/companies.repository';
import type { Db } from '../db/knex';
import { peopleDataRepository } from '../db/people-data.repository';
import { canonicalIndustry, canonicalSkill, COUNTRIES, findMetro } from '../reference/taxonomy';
import { gazetteer } from '../reference/gazetteer';
import type { CompanyRecord } from '../corpus/company-directory';
import type { CompanyProfile, CompanySummary, ProfileDataProvider } from './capabilities';

/** A free-text place as filters: a known metro, else a known country (name and ISO code), else a substring of the location. */
export function placeFilter(location: string | undefined): { metros: string[]; countries: string[]; locationLike: string | null } {
  const place = location?.trim();
  if (!place) return { metros: [], countries: [], locationLike: null };
  const metro = findMetro(place);
  if (metro) return { metros: [metro.id], countries: [], locationLike: null };
  // Companies name their country ("United Kingdom"), people carry its ISO code ("GB"): both are matched.
  const country = gazetteer().country(place);
  if (country)
    return {
      metros: [],
      countries: [...new Set([COUNTRIES.find((c) => c.toLowerCase() === place.toLowerCase()) ?? country.name, country.country])],
      locationLike: null,
    };
  return { metros: [], countries: [], locationLike: `%${place.replace(/[\\%_]/g, '\\$&')}%` };
}

/** A company of the built-in directory as a search result (and the head of its profile). */
const companySummary = ({ id, name, industry, website, location, size, founded }: Omit<CompanyRecord, 'metro' | 'country'>): CompanySummary => ({
  company_id: id,
  name,
  industry,
  website,
  location,
  size,
  founded,
});

/** The embedded default: people and companies from our own database (DESIGN.md §9). */
export function builtinProfileData(db: Db): ProfileDataProvider {
  const people = peopleDataRepository(db);
  const companies = companiesRepository(db);
  return {
    source: 'builtin',
    async searchPeople(q) {
      const { rows, total, totalExact } = await people.search(
        {
          text: q.search,
          titlePhrase: q.title?.trim() || null,
          skills: (q.skills ?? []).map((s) => canonicalSkill(s) ?? s),
          ...placeFilter(q.location),
          company: q.company?.trim().toLowerCase() || null,
        },
        q.limit,
        q.offset,
      );
      return { results: rows, total, totalExact };
    },
    async enrichPerson(profileId) {
      return (await people.profile(profileId)) ?? null;
    },
    async searchCompanies(q) {
      const { rows, total } = await companies.search(
        {
          text: q.search,
          ...placeFilter(q.location),
          industry: q.industry ? (canonicalIndustry(q.industry) ?? q.industry).toLowerCase() : null,
        },
        q.limit,
        q.offset,
      );
      return {
        results: rows.map(companySummary),
        total,
      };
    },
    async enrichCompany(companyId): Promise<CompanyProfile | null> {
      const c = await companies.find(companyId);
      if (!c) return null;
      return {
        ...companySummary(c),
        employee_count: c.employee_count,
        summary: c.description,
        network_url: null,
        tags: c.tags,
      };
    },
  };
}
