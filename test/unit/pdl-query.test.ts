import { parseCriteria, type Criteria, type ResolvedCriteria } from '../../src/domain/criteria';
import { personCriteriaQuery, personSearchQuery } from '../../src/providers/peopledatalabs';
import canonical from '../../src/reference/data/pdl-canonical.json';
import { PDL_FAMILY_ROLES, PDL_INDUSTRIES, PDL_LEVEL_SENIORITY, PDL_METROS, familyOfPdlRole, metroOfPdlPlace, pdlLevelsFor } from '../../src/reference/pdl';
import { INDUSTRIES, METROS, ROLE_FAMILIES, SENIORITIES } from '../../src/reference/taxonomy';

/** People Data Labs' names for our reference data, and the live search's query built from them. */
const criteria = (input: Criteria): ResolvedCriteria => {
  const parsed = parseCriteria(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.criteria;
};

describe('PDL reference tables', () => {
  it('map every role family to PDL roles and sub roles PDL documents', () => {
    expect(Object.keys(PDL_FAMILY_ROLES).sort()).toEqual(ROLE_FAMILIES.map((f) => f.id).sort());
    for (const [family, roles] of Object.entries(PDL_FAMILY_ROLES)) {
      expect([family, roles.job_title_role.length > 0, roles.job_title_sub_role.length > 0]).toEqual([family, true, true]);
      for (const role of roles.job_title_role) expect([family, canonical.job_title_role]).toEqual([family, expect.arrayContaining([role])]);
      for (const sub of roles.job_title_sub_role) expect([family, canonical.job_title_sub_role]).toEqual([family, expect.arrayContaining([sub])]);
    }
  });

  it('place every metro: US metros by PDL metro, the others by city spellings, all in their country', () => {
    expect(Object.keys(PDL_METROS).sort()).toEqual(METROS.map((m) => m.id).sort());
    for (const metro of METROS) {
      const pdl = PDL_METROS[metro.id];
      expect([metro.id, pdl.location_country]).toEqual([metro.id, metro.country.toLowerCase()]);
      if (metro.country === 'United States') {
        // PDL's metros are named "<principal city>, <state>" (the capital's is "district of columbia").
        expect([metro.id, 'location_metro' in pdl && /^([a-z. ]+, [a-z ]+|district of columbia)$/.test(pdl.location_metro)]).toEqual([metro.id, true]);
      } else {
        expect([metro.id, 'location_locality' in pdl && pdl.location_locality.length > 0]).toEqual([metro.id, true]);
        if ('location_locality' in pdl) for (const city of pdl.location_locality) expect(city).toBe(city.toLowerCase());
      }
    }
  });

  it('map every reference industry to PDL industries', () => {
    expect(Object.keys(PDL_INDUSTRIES).sort()).toEqual([...INDUSTRIES].sort());
    for (const [industry, values] of Object.entries(PDL_INDUSTRIES)) {
      expect([industry, values.length > 0]).toEqual([industry, true]);
      for (const v of values) expect([industry, canonical.industry]).toEqual([industry, expect.arrayContaining([v])]);
    }
  });

  it('read every PDL level as one of our seniorities, and say each seniority in PDL levels (mid has none)', () => {
    expect(Object.keys(PDL_LEVEL_SENIORITY).sort()).toEqual([...canonical.job_title_levels].sort());
    for (const s of Object.values(PDL_LEVEL_SENIORITY)) expect(SENIORITIES).toContain(s);
    expect(Object.fromEntries(SENIORITIES.map((s) => [s, pdlLevelsFor(s)]))).toEqual({
      intern: ['training', 'unpaid'],
      junior: ['entry'],
      mid: [],
      senior: ['senior'],
      lead: ['senior'],
      manager: ['manager'],
      director: ['director', 'partner'],
      vp: ['vp'],
      cxo: ['cxo', 'owner'],
    });
  });
});

describe('the live search query', () => {
  it('filters on the places, must-haves and excluded companies, and ranks by everything else', () => {
    const query = personCriteriaQuery(
      criteria({
        family: 'software_engineering',
        titles: ['Backend Engineer', 'Platform Engineer'],
        metro: 'SF',
        locations: ['London', 'Germany'],
        industries: ['Software Development', 'Financial Services'],
        years_experience: { min: 5, max: 12 },
        skills: ['TypeScript', 'PostgreSQL', 'Kubernetes', 'Go'],
        must_have_skills: ['golang'],
        seniority: ['senior', 'lead', 'mid'],
        exclude_companies: ['Acme Corp'],
      }),
    );
    expect(query).toEqual({
      bool: {
        filter: [
          {
            bool: {
              should: [
                { terms: { location_metro: ['san francisco, california'] } },
                { bool: { filter: [{ terms: { location_locality: ['london'] } }, { term: { location_country: 'united kingdom' } }] } },
                { terms: { location_country: ['germany'] } },
              ],
              minimum_should_match: 1,
            },
          },
          { term: { skills: 'go' } },
        ],
        must: [
          {
            bool: {
              should: [
                { terms: { job_title_sub_role: ['software', 'web'], boost: 5 } },
                { terms: { job_title_role: ['engineering'], boost: 2 } },
                { match_phrase: { 'job_title.text': { query: 'Backend Engineer', boost: 10 } } },
                { match_phrase: { 'job_title.text': { query: 'Platform Engineer', boost: 10 } } },
                { match: { 'job_title.text': { query: 'Backend Engineer Platform Engineer', boost: 5 } } },
                { term: { skills: { value: 'typescript', boost: 6.67 } } },
                { term: { skills: { value: 'postgresql', boost: 6.67 } } },
                { term: { skills: { value: 'kubernetes', boost: 6.67 } } },
                { terms: { job_company_industry: ['computer software', 'financial services'], boost: 10 } },
                { terms: { industry: ['computer software', 'financial services'], boost: 5 } },
              ],
              minimum_should_match: 1,
            },
          },
        ],
        should: [
          { terms: { job_title_levels: ['senior'], boost: 8 } },
          { range: { inferred_years_experience: { gte: 2, lte: 5, boost: 8 } } },
          { range: { inferred_years_experience: { gte: 5, lte: 12, boost: 15 } } },
        ],
        must_not: [{ terms: { job_company_name: ['acme corp'] } }],
      },
    });
  });

  it('a place abroad is its cities in its country; a lone criterion stays a lone clause', () => {
    expect(personCriteriaQuery(criteria({ must_have_skills: ['Python'], metro: 'Bengaluru' }))).toEqual({
      bool: {
        filter: [
          { bool: { filter: [{ terms: { location_locality: ['bengaluru', 'bangalore'] } }, { term: { location_country: 'india' } }] } },
          { term: { skills: 'python' } },
        ],
      },
    });
    expect(personCriteriaQuery(criteria({ family: 'recruiting', seniority: ['junior', 'intern'], years_experience: { max: 3 } }))).toEqual({
      bool: {
        must: [
          {
            bool: {
              should: [{ terms: { job_title_sub_role: ['recruiting'], boost: 5 } }, { terms: { job_title_role: ['human_resources'], boost: 2 } }],
              minimum_should_match: 1,
            },
          },
        ],
        should: [{ terms: { job_title_levels: ['entry', 'training', 'unpaid'], boost: 8 } }, { range: { inferred_years_experience: { lte: 3, boost: 15 } } }],
      },
    });
  });

  it("leaves the data endpoint's free-text query as it was", () => {
    expect(
      personSearchQuery({ search: 'backend', location: 'san francisco', title: 'Engineer', company: 'Acme', skills: ['TypeScript'], limit: 5, offset: 0 }),
    ).toEqual({
      bool: {
        must: [
          { bool: { should: [{ match: { job_title: 'backend' } }, { match: { skills: 'backend' } }] } },
          { match: { location_name: 'san francisco' } },
          { match_phrase: { job_title: 'Engineer' } },
          { match: { job_company_name: 'Acme' } },
          { term: { skills: 'typescript' } },
        ],
      },
    });
  });
});

describe('reading PDL people back in our terms', () => {
  it('maps PDL places to our metros', () => {
    expect(metroOfPdlPlace({ location_metro: 'san francisco, california', location_country: 'united states' })).toBe('san-francisco-bay-area');
    expect(metroOfPdlPlace({ location_locality: 'london', location_country: 'united kingdom' })).toBe('london');
    // London, Ontario is no London.
    expect(metroOfPdlPlace({ location_locality: 'london', location_country: 'canada' })).toBeUndefined();
    expect(metroOfPdlPlace({})).toBeUndefined();
  });

  it('maps a PDL role to a family only when one family claims it', () => {
    expect(familyOfPdlRole('engineering', 'data_engineering')).toBe('data_engineering');
    expect(familyOfPdlRole('engineering', undefined)).toBeUndefined();
  });
});
