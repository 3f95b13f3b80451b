import type { PersonLocation, PersonProfile } from '../domain/profile';
import type { CompanyProfile, CompanySummary, Page, SourceName, WebResult } from '../providers/capabilities';
import type { CandidateSummary } from '../providers/profile-source';

/** JSON shapes of the data endpoints (data.schemas.ts); fields are picked, never passed through. */

export const webResultsJson = (results: WebResult[], source: SourceName) => ({
  results: results.map(({ title, url, snippet, published_at }) => ({ title, url, snippet, published_at })),
  source,
});

const personSummaryJson = (p: CandidateSummary) => ({
  person_id: p.person_id,
  first_name: p.first_name,
  last_name: p.last_name,
  title: p.title,
  company: p.company,
  location: p.location,
  network_url: p.network_url,
  open_profile: p.open_profile,
  premium: p.premium,
  summary: p.summary,
});

export const peopleResultsJson = (page: Page<CandidateSummary>, source: SourceName) => ({
  results: page.results.map(personSummaryJson),
  total: page.total,
  total_exact: page.totalExact ?? true,
  source,
});

/** A profile's location as a name; profiles stored before structured locations hold a string. */
const locationName = (l: PersonLocation | string | null | undefined) => (typeof l === 'string' ? l : (l?.name ?? ''));
const placeOf = (l: PersonLocation | string | null | undefined) =>
  l && typeof l === 'object' ? { locality: l.locality, region: l.region, country: l.country, lat: l.lat, lon: l.lon } : null;

export const personProfileJson = (p: PersonProfile, source: SourceName) => ({
  id: p.id,
  first_name: p.first_name,
  last_name: p.last_name,
  title: p.title,
  seniority: p.seniority,
  family: p.family,
  company: p.company,
  industry: p.industry,
  metro: p.metro,
  // `location` stays the place's name (a string, as before); the structured place is `place`.
  location: locationName(p.location),
  place: placeOf(p.location),
  occupation: p.occupation ? { onet_code: p.occupation.onet_code, title: p.occupation.title } : null,
  network_url: p.network_url,
  open_profile: p.open_profile,
  premium: p.premium,
  summary: p.summary,
  about: p.about,
  years_experience: p.years_experience,
  experience: p.experience.map(({ title, company, industry, start, end, description }) => ({ title, company, industry, start, end, description })),
  education: p.education.map(({ school, degree, field, start_year, end_year }) => ({ school, degree, field, start_year, end_year })),
  skills: p.skills,
  certifications: p.certifications,
  languages: p.languages,
  projects: p.projects.map(({ name, description }) => ({ name, description })),
  connections: p.connections,
  updated_at: p.updated_at,
  source,
});

const companySummaryJson = (c: CompanySummary) => ({
  company_id: c.company_id,
  name: c.name,
  industry: c.industry,
  website: c.website,
  location: c.location,
  size: c.size,
  founded: c.founded,
});

export const companyResultsJson = (page: Page<CompanySummary>, source: SourceName) => ({
  results: page.results.map(companySummaryJson),
  total: page.total,
  source,
});

export const companyProfileJson = (c: CompanyProfile, source: SourceName) => ({
  ...companySummaryJson(c),
  employee_count: c.employee_count,
  summary: c.summary,
  network_url: c.network_url,
  tags: c.tags,
  source,
});
