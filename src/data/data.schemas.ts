import { z } from 'zod';
import { trimmedText } from '../domain/text';
import { IDEMPOTENCY_KEY, resultPageFields } from '../searches/searches.schemas';

/** Request and response schemas of the data endpoints (DESIGN.md §9). */

const idempotencyKey = z.string().regex(IDEMPOTENCY_KEY, 'must be 8 to 160 printable characters, not starting or ending with a space');
const text = (max: number) => trimmedText(max);

/** The header form of the idempotency key (the body's `idempotencyKey` is the other; the header wins). */
export const dataHeaders = z.object({
  'Idempotency-Key': idempotencyKey.optional().describe('8 to 160 printable characters; a replay answers the first response and bills nothing'),
});

const bodyKey = idempotencyKey.optional().describe('The idempotency key, when the Idempotency-Key header cannot be sent');

/** Vendor search pages reach at most 10,000 records deep (People Data Labs' limit), so do we. */
export const MAX_OFFSET = 9_999;
const limit = z.int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(10).describe('1 to 100, default 10');
const offset = z.int('must be a whole number').min(0, 'must be 0 or more').max(MAX_OFFSET, `must be at most ${MAX_OFFSET}`).default(0);

export const webSearchBody = z.strictObject({
  query: text(400).describe('What to search the web for'),
  count: z.int('must be a whole number').min(1, 'must be at least 1').max(20, 'must be at most 20').default(10).describe('1 to 20, default 10'),
  idempotencyKey: bodyKey,
});

export const peopleSearchBody = z.strictObject({
  search: text(200).describe('Free text over titles and skills (e.g. "backend engineer")'),
  location: text(200).optional().describe('A metro, city, country or place name'),
  title: text(200).optional().describe('A phrase the title must contain'),
  company: text(200).optional().describe('Current company name'),
  skills: z.array(text(100)).max(20, 'at most 20 skills').optional().describe('Skills every result has'),
  limit,
  offset,
  idempotencyKey: bodyKey,
});

export const companySearchBody = z.strictObject({
  search: text(200).describe('Free text over names, industries and descriptions'),
  location: text(200).optional().describe('A metro, city, country or place name'),
  industry: text(200).optional().describe('An industry name'),
  limit,
  offset,
  idempotencyKey: bodyKey,
});

const DATA_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
export const profileParams = z.object({ profileId: z.string().regex(DATA_ID).describe('A profile id from a people search') });
export const companyParams = z.object({ companyId: z.string().regex(DATA_ID).describe('A company id from a company search') });

export type WebSearchBody = z.output<typeof webSearchBody>;
export type PeopleSearchBody = z.output<typeof peopleSearchBody>;
export type CompanySearchBody = z.output<typeof companySearchBody>;

export const source = z
  .enum(['builtin', 'peopledatalabs', 'brave'])
  .describe('What answered: `builtin` (our own database) or the vendor')
  .meta({ id: 'DataSource' });

export const personSummary = z
  .strictObject({
    person_id: z.string().describe('Profile id for GET /data/people/{profileId}'),
    ...resultPageFields,
  })
  .meta({ id: 'PersonSummary' });

export const personProfile = z
  .strictObject({
    id: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    title: z.string(),
    seniority: z.string(),
    family: z.string().describe('Role family id (built-in) or the vendor’s job role'),
    company: z.string(),
    industry: z.string(),
    metro: z.string(),
    location: z.string().describe('Where the person is, as a name: "Leeds, England, United Kingdom"'),
    place: z
      .strictObject({
        locality: z.string(),
        region: z.string(),
        country: z.string().describe('ISO 3166-1 alpha-2'),
        lat: z.number().nullable(),
        lon: z.number().nullable(),
      })
      .nullable()
      .describe('The same place with its parts and coordinates (WGS84), when known'),
    occupation: z
      .strictObject({ onet_code: z.string().describe('O*NET-SOC 2019 code'), title: z.string() })
      .nullable()
      .describe('The occupation of the current position, when known'),
    network_url: z.string(),
    open_profile: z.boolean(),
    premium: z.boolean(),
    summary: z.string(),
    about: z.string(),
    years_experience: z.number(),
    experience: z.array(
      z.strictObject({ title: z.string(), company: z.string(), industry: z.string(), start: z.string(), end: z.string().nullable(), description: z.string() }),
    ),
    education: z.array(z.strictObject({ school: z.string(), degree: z.string(), field: z.string(), start_year: z.int(), end_year: z.int() })),
    skills: z.array(z.string()),
    certifications: z.array(z.string()),
    languages: z.array(z.string()),
    projects: z.array(z.strictObject({ name: z.string(), description: z.string() })),
    connections: z.int(),
    updated_at: z.string(),
    source,
  })
  .meta({ id: 'PersonProfile' });

export const companySummary = z
  .strictObject({
    company_id: z.string().describe('Company id for GET /data/companies/{companyId}'),
    name: z.string(),
    industry: z.string(),
    website: z.string().nullable(),
    location: z.string().nullable(),
    size: z.string().nullable().describe('Employee range, e.g. 51-200'),
    founded: z.int().nullable(),
  })
  .meta({ id: 'CompanySummary' });

export const companyProfile = companySummary
  .extend({
    employee_count: z.int().nullable(),
    summary: z.string().nullable(),
    network_url: z.string().nullable(),
    tags: z.array(z.string()),
    source,
  })
  .meta({ id: 'CompanyProfile' });

export const webResults = z
  .strictObject({
    results: z.array(
      z.strictObject({
        title: z.string(),
        url: z.string(),
        snippet: z.string(),
        published_at: z.string().nullable().describe('ISO timestamp, null when undated'),
      }),
    ),
    source,
  })
  .meta({ id: 'WebResults' });

export const peopleResults = z
  .strictObject({
    results: z.array(personSummary),
    total: z.int().describe('Matches at the source, whatever the offset (the built-in source stops counting at 10,000)'),
    total_exact: z
      .boolean()
      .describe('false when the source stopped counting at 10,000: there are at least `total` matches (also `meta.total`); true: `total` is the count'),
    source,
  })
  .meta({ id: 'PeopleResults' });

export const companyResults = z
  .strictObject({ results: z.array(companySummary), total: z.int().describe('Matches at the source'), source })
  .meta({ id: 'CompanyResults' });

/** Errors every billed data call can answer beyond validation and authentication. */
export const DATA_ERRORS = ['provider_unavailable', 'network_busy', 'provider_error', 'idempotency_key_reused'] as const;
