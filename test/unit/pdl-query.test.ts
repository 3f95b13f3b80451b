import fs from 'node:fs';
import path from 'node:path';
import { parseCriteria, type Criteria, type ResolvedCriteria } from '../../src/domain/criteria';
import { PDL_MAX_TERMS, personCriteriaQuery, personSearchQuery } from '../../src/providers/pdl-query';
import canonical from '../../src/reference/data/pdl-canonical.json';
import { distanceKm, gazetteer } from '../../src/reference/gazetteer';
import {
  PDL_COUNTRIES,
  PDL_FAMILY_ROLES,
  PDL_INDUSTRIES,
  PDL_LEVEL_SENIORITY,
  PDL_METROS,
  countryOfPdl,
  familyOfPdlRole,
  metroOfPdlPlace,
  pdlCountryNames,
  pdlLevelsFor,
  pdlSpellings,
} from '../../src/reference/pdl';
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

  it("name every country PDL has, in PDL's lower-case English (v28.0 names), by its ISO code", () => {
    const names = Object.values(PDL_COUNTRIES).flat();
    expect(names.length).toBe(251); // PDL's 249 values, Côte d'Ivoire with both apostrophes
    expect(new Set(names).size).toBe(names.length);
    for (const [iso, values] of Object.entries(PDL_COUNTRIES)) {
      expect(iso).toMatch(/^[A-Z]{2}$/);
      for (const v of values) expect(v).toBe(v.toLowerCase().trim());
    }
    // Every country of the gazetteer has its PDL name, but the two PDL has none for.
    const tsv = fs.readFileSync(path.join(__dirname, '../../src/reference/data/gazetteer/countries.tsv'), 'utf8').trim().split('\n').slice(1);
    const missing = tsv.map((line) => line.split('\t')[0]).filter((iso) => pdlCountryNames(iso).length === 0);
    expect(missing.sort()).toEqual(['AQ', 'CS']); // Antarctica (deleted in v28.0), Serbia and Montenegro (gone)
    // Metros abroad are in PDL's countries.
    for (const pdl of Object.values(PDL_METROS)) expect(names).toContain(pdl.location_country);
    expect(pdlCountryNames('gb')).toEqual(['united kingdom']);
    expect(pdlCountryNames('CI')).toEqual(['côte d’ivoire', "côte d'ivoire"]);
  });

  it('read PDL country names back as ISO codes, its special names too', () => {
    const read = (names: string[]) => Object.fromEntries(names.map((n) => [n, countryOfPdl(n)]));
    expect(
      read([
        'united kingdom',
        'United States',
        'czechia',
        'eswatini',
        'swaziland',
        'the gambia',
        'kosovo',
        'north macedonia',
        'côte d’ivoire',
        "Côte D'ivoire",
        'caribbean netherlands',
        'vatican city',
        'macau',
        'south korea',
        'palestine',
        'cape verde',
        'curaçao',
        'atlantis',
        '',
      ]),
    ).toEqual({
      'united kingdom': 'GB',
      'United States': 'US',
      czechia: 'CZ',
      eswatini: 'SZ',
      swaziland: '', // PDL's name before v28.0, which neither PDL nor GeoNames uses now
      'the gambia': 'GM',
      kosovo: 'XK',
      'north macedonia': 'MK',
      'côte d’ivoire': 'CI',
      "Côte D'ivoire": 'CI',
      'caribbean netherlands': 'BQ',
      'vatican city': 'VA',
      macau: 'MO',
      'south korea': 'KR',
      palestine: 'PS',
      'cape verde': 'CV',
      curaçao: 'CW',
      atlantis: '',
      '': '',
    });
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

/** The localities a place clause names and the country it pairs them with (`{bool: {filter|must: [locality terms], filter: [country]}}`). */
function localities(clause: any): { country: unknown; names: string[]; boost?: number } {
  const terms = clause.bool.filter.length === 2 ? clause.bool.filter[0].terms : clause.bool.must[0].terms;
  const country = clause.bool.filter.at(-1);
  return { country, names: terms.location_locality, ...(terms.boost !== undefined ? { boost: terms.boost } : {}) };
}

/** Every array in a query, to check PDL's limit of 1000 values. */
const arrays = (v: unknown): unknown[][] =>
  Array.isArray(v) ? [v, ...v.flatMap(arrays)] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(arrays) : [];

/** Distance (km) from a place to the gazetteer city a locality names in that country. */
const kmTo = (from: { lat: number; lon: number }, locality: string, country: string) => {
  const city = gazetteer()
    .named(locality)
    .filter((c) => c.kind === 'city' && c.country === country)
    .map((c) => distanceKm(from.lat, from.lon, c.lat, c.lon))
    .sort((a, b) => a - b)[0];
  return city ?? Infinity;
};

describe('the live search query', () => {
  it('filters on the places, must-haves and excluded companies, and ranks by everything else', () => {
    const query: any = personCriteriaQuery(
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
    const { filter, should, ...rest } = query.bool;
    expect(rest).toEqual({
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
      must_not: [{ terms: { job_company_name: ['acme corp'] } }],
    });

    // The places (the metro and the further locations, one path: each resolved to a place): the
    // Bay Area is PDL's metro and the towns within twice its radius; London its towns in its
    // country; Germany the country.
    expect(filter).toHaveLength(2);
    expect(filter[1]).toEqual({ term: { skills: 'go' } });
    const [sfMetro, sfTowns, london, germany, ...none] = filter[0].bool.should;
    expect([filter[0].bool.minimum_should_match, none]).toEqual([1, []]);
    expect(sfMetro).toEqual({ term: { location_metro: 'san francisco, california' } });
    expect(localities(sfTowns)).toEqual({
      country: { term: { location_country: 'united states' } },
      names: expect.arrayContaining(['san francisco', 'oakland', 'berkeley', 'palo alto', 'san jose']),
    });
    expect(localities(sfTowns).names[0]).toBe('san francisco');
    expect(localities(sfTowns).names).not.toContain('sacramento'); // 121 km: beyond twice the 40 km
    expect(localities(london)).toEqual({
      country: { term: { location_country: 'united kingdom' } },
      names: expect.arrayContaining(['london', 'croydon', 'watford']),
    });
    expect(germany).toEqual({ terms: { location_country: ['germany'] } });

    // Within the radius ranks above between it and twice it; then seniority and years as before.
    const [near, ...rank] = should;
    expect(near.bool.should.map((c: any) => ('term' in c ? c : localities(c).country))).toEqual([
      { term: { location_metro: { value: 'san francisco, california', boost: 10 } } },
      { term: { location_country: 'united states' } },
      { term: { location_country: 'united kingdom' } },
    ]);
    expect(localities(near.bool.should[1]).boost).toBe(10);
    expect(localities(near.bool.should[1]).names).toContain('oakland');
    expect(localities(near.bool.should[1]).names).not.toContain('san jose'); // 67 km: beyond 40
    expect(rank).toEqual([
      { terms: { job_title_levels: ['senior'], boost: 8 } },
      { range: { inferred_years_experience: { gte: 2, lte: 5, boost: 8 } } },
      { range: { inferred_years_experience: { gte: 5, lte: 12, boost: 15 } } },
    ]);
  });

  it('a city is the localities within twice its radius, each with its country, nearest first; those within the radius rank first', () => {
    const leeds = gazetteer().byId('geonames:2644688')!;
    const query: any = personCriteriaQuery(criteria({ places: ['Leeds'], titles: ['Pharmacist'] }));
    const everywhere = localities(query.bool.filter[0]);
    const near = localities(query.bool.should[0]);
    expect(everywhere.country).toEqual({ term: { location_country: 'united kingdom' } });
    expect(everywhere.names.slice(0, 3)).toEqual(['leeds', 'chapel allerton', 'morley']);
    expect(everywhere.names).toEqual(expect.arrayContaining(['bradford', 'wakefield', 'york', 'harrogate', 'sheffield', 'manchester']));
    expect(everywhere.names).not.toContain('liverpool'); // 104 km
    expect(everywhere.names).not.toContain('london');
    for (const name of everywhere.names) expect([name, kmTo(leeds, name, 'GB') <= 80]).toEqual([name, true]);
    const km = everywhere.names.map((n) => kmTo(leeds, n, 'GB'));
    expect(km).toEqual([...km].sort((a, b) => a - b));
    // Rank: within 40 km (Bradford, York) above 40–80 km (Sheffield, Manchester).
    expect(near).toEqual({
      country: { term: { location_country: 'united kingdom' } },
      names: expect.arrayContaining(['leeds', 'bradford', 'york']),
      boost: 10,
    });
    expect(near.names).not.toContain('sheffield');
    expect(near.names).not.toContain('manchester');

    // A radius that crosses a border names each country's towns in their own country.
    const geneva: any = personCriteriaQuery(criteria({ places: [{ name: 'Geneva', radius_km: 15 }], titles: ['Nurse'] }));
    expect(geneva.bool.filter[0].bool.should.map((c: any) => [localities(c).country, localities(c).names.slice(0, 2)])).toEqual([
      [{ term: { location_country: 'switzerland' } }, ['geneva', 'carouge']],
      [{ term: { location_country: 'france' } }, ['annemasse']],
    ]);
    // Names as PDL may write them: with and without accents, and the city's own short form.
    const names = (place: Criteria['places']) => localities((personCriteriaQuery(criteria({ places: place, titles: ['Nurse'] })) as any).bool.filter[0]).names;
    expect(names([{ name: 'Zürich', radius_km: 5 }]).slice(0, 2)).toEqual(['zürich', 'zurich']);
    expect(names([{ name: 'Frankfurt', radius_km: 5 }]).slice(0, 2)).toEqual(['frankfurt am main', 'frankfurt']);
    expect(pdlSpellings('  Montréal ')).toEqual(['montréal', 'montreal']);
  });

  it('an old metro abroad keeps its usual spellings; a US metro its PDL metro only when the place covers the metro', () => {
    const bengaluru: any = personCriteriaQuery(criteria({ must_have_skills: ['Python'], metro: 'Bengaluru' }));
    expect(bengaluru.bool.filter[1]).toEqual({ term: { skills: 'python' } });
    expect(localities(bengaluru.bool.filter[0])).toEqual({
      country: { term: { location_country: 'india' } },
      names: expect.arrayContaining(['bengaluru', 'bangalore', 'yelahanka']),
    });
    expect(localities(bengaluru.bool.filter[0]).names.slice(0, 2)).toEqual(['bengaluru', 'bangalore']);
    expect(localities(bengaluru.bool.should[0]).names.slice(0, 2)).toEqual(['bengaluru', 'bangalore']);

    const seattle = (place: Criteria) => (personCriteriaQuery(criteria({ titles: ['Web Developer'], ...place })) as any).bool.filter[0];
    expect(seattle({ metro: 'Seattle' }).bool.should[0]).toEqual({ term: { location_metro: 'seattle, washington' } });
    expect(seattle({ places: [{ name: 'Seattle', radius_km: 60 }] }).bool.should[0]).toEqual({ term: { location_metro: 'seattle, washington' } });
    // 10 km around Seattle is not the whole metro: the towns within 20 km only, no PDL metro.
    const near = localities(seattle({ places: [{ name: 'Seattle', radius_km: 10 }] }));
    expect(near).toEqual({ country: { term: { location_country: 'united states' } }, names: expect.arrayContaining(['seattle', 'bellevue', 'redmond']) });
    expect(near.names).not.toContain('tacoma');
    expect(near.names).not.toContain('everett');
  });

  it('a region is its PDL region in its country, a country its PDL name; an occupation its O*NET code, SOC and broad occupation', () => {
    const query: any = personCriteriaQuery(criteria({ places: ['Bavaria', 'Île-de-France', 'Canada', 'Czechia', 'Eswatini'], occupations: ['29-1051.00'] }));
    expect(query).toEqual({
      bool: {
        filter: [
          {
            bool: {
              should: [
                { bool: { filter: [{ term: { location_region: 'bavaria' } }, { term: { location_country: 'germany' } }] } },
                { bool: { filter: [{ terms: { location_region: ['île-de-france', 'ile-de-france'] } }, { term: { location_country: 'france' } }] } },
                { terms: { location_country: ['canada', 'czechia', 'eswatini'] } },
              ],
              minimum_should_match: 1,
            },
          },
        ],
        // Pharmacists have no role family: the occupation is what the search looks for.
        must: [
          {
            bool: {
              // The code, its SOC occupation and its broad occupation: 10 for the code, 7.5 for another
              // speciality of 29-1051, 5 for a neighbour in 29-105.
              should: [
                { terms: { job_onet_code: ['29-1051.00'], boost: 2.5 } },
                { prefix: { job_onet_code: { value: '29-1051', boost: 2.5 } } },
                { prefix: { job_onet_code: { value: '29-105', boost: 5 } } },
              ],
              minimum_should_match: 1,
            },
          },
        ],
      },
    });
    // An occupation in a family brings the family's PDL roles too (the family follows from it).
    const developers: any = personCriteriaQuery(criteria({ occupations: ['15-1252.00', '15-1253.00'] }));
    expect(developers.bool.must[0].bool.should).toEqual([
      { terms: { job_onet_code: ['15-1252.00', '15-1253.00'], boost: 2.5 } },
      { prefix: { job_onet_code: { value: '15-1252', boost: 2.5 } } },
      { prefix: { job_onet_code: { value: '15-1253', boost: 2.5 } } },
      { prefix: { job_onet_code: { value: '15-125', boost: 5 } } },
      { terms: { job_title_sub_role: ['software', 'web'], boost: 5 } },
      { terms: { job_title_role: ['engineering'], boost: 2 } },
    ]);
  });

  it("keeps every array within PDL's 1000 values, and a place PDL cannot name finds nobody rather than everybody", () => {
    const wide: any = personCriteriaQuery(criteria({ places: [{ name: 'Frankfurt', radius_km: 500 }], titles: ['Nurse'] }));
    const lists = arrays(wide);
    expect(Math.max(...lists.map((a) => a.length))).toBeLessThanOrEqual(PDL_MAX_TERMS);
    const named = wide.bool.filter[0].bool.should.flatMap((c: any) => localities(c).names);
    expect(named.length).toBe(PDL_MAX_TERMS); // the nearest 1000, over the countries around
    expect(named.slice(0, 2)).toEqual(['frankfurt am main', 'frankfurt']);

    expect(personCriteriaQuery(criteria({ places: [{ lat: 0, lon: -140, radius_km: 5 }], titles: ['Nurse'] }))).toMatchObject({
      bool: { filter: [{ bool: { must_not: [{ match_all: {} }] } }] },
    });
    // No place, no place filter: a lone criterion stays a lone clause.
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
