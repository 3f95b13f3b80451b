import { z } from 'zod';
import { COUNTRIES, INDUSTRIES, METROS, ROLE_FAMILIES, SENIORITIES, SKILLS, findFamily } from '../../src/reference/taxonomy';
import { CRITERIA_DEFAULTS, canonicalJson, criteriaSchema, parseCriteria, type Criteria, type Problem } from '../../src/domain/criteria';
import { describeCriteria } from '../../src/domain/criteria-reference';

function problems(input: unknown): Problem[] {
  const result = parseCriteria(input);
  if (result.ok) throw new Error(`expected problems, got ${JSON.stringify(result.criteria)}`);
  return result.problems;
}

const fields = (input: unknown) => problems(input).map((p) => p.field);

describe('parseCriteria', () => {
  it('applies the defaults', () => {
    expect(CRITERIA_DEFAULTS).toEqual({ target: 25, read_budget: 200, shortlist_threshold: 70 });
    expect(parseCriteria({ skills: ['TypeScript'] })).toEqual({
      ok: true,
      criteria: { target: 25, read_budget: 200, shortlist_threshold: 70, skills: ['TypeScript'] },
    });
  });

  it('canonicalises reference values, trims strings and removes duplicates', () => {
    const result = parseCriteria({
      family: ' Software_Engineering ',
      titles: ['  Backend   Engineer ', 'backend engineer', 'Platform Engineer'],
      metro: 'SF',
      locations: ['united states', 'NYC', 'United States', 'new-york-city'],
      industries: ['financial services', 'Financial Services', 'fintech'],
      years_experience: { min: 3 },
      skills: ['typescript', 'TYPESCRIPT', 'k8s'],
      must_have_skills: ['golang'],
      seniority: ['Senior', 'senior', 'lead'],
      exclude_companies: [' Acme Corp ', 'acme corp'],
      target: 10,
      read_budget: 100,
      shortlist_threshold: 80,
    });
    expect(result).toEqual({
      ok: true,
      criteria: {
        target: 10,
        read_budget: 100,
        shortlist_threshold: 80,
        family: 'software_engineering',
        titles: ['Backend Engineer', 'Platform Engineer'],
        metro: 'san-francisco-bay-area',
        locations: ['United States', 'new-york-city'],
        places: expect.any(Array),
        industries: ['Financial Services'],
        years_experience: { min: 3 },
        skills: ['TypeScript', 'Kubernetes'],
        must_have_skills: ['Go'],
        seniority: ['senior', 'lead'],
        exclude_companies: ['Acme Corp'],
      },
    });
    // metro and locations show as the places they stand for, each once.
    expect(result.ok && result.criteria.places!.map((p) => [p.name, p.radius_km])).toEqual([
      ['San Francisco, California, United States', 40],
      ['United States', null],
      ['New York City, New York, United States', expect.any(Number)],
    ]);
  });

  it('accepts a family label and metro labels, cities and aliases case-insensitively', () => {
    const family = ROLE_FAMILIES[0];
    const ok = parseCriteria({ family: family.label.toUpperCase(), metro: 'bay area' });
    expect(ok).toMatchObject({ ok: true, criteria: { family: family.id, metro: 'san-francisco-bay-area' } });
    for (const m of METROS) {
      for (const name of [m.id, m.label, m.city]) {
        expect(parseCriteria({ skills: ['SQL'], metro: name })).toMatchObject({ ok: true, criteria: { metro: m.id } });
      }
    }
  });

  it('reports every problem at once, each with a dotted field path', () => {
    const got = problems({
      family: 'astronaut',
      titles: ['Backend Engineer', ''],
      metro: 'Atlantis',
      locations: ['Narnia', 'Germany'],
      industries: ['Financial Services', 'Space Piracy', 7],
      years_experience: { min: 10, max: 5, typo: 1 },
      skills: ['TypeScript', 'Telepathy'],
      must_have_skills: ['Mind Reading'],
      seniority: ['senior', 'overlord'],
      exclude_companies: 'Acme',
      target: 0,
      read_budget: 1001,
      shortlist_threshold: 70.5,
      colour: 'blue',
    });
    expect(got.map((p) => p.field).sort()).toEqual(
      [
        'family',
        'titles.1',
        'metro',
        'locations.0',
        'industries.1',
        'industries.2',
        'years_experience.min',
        'years_experience.typo',
        'skills.1',
        'must_have_skills.0',
        'seniority.1',
        'exclude_companies',
        'target',
        'read_budget',
        'shortlist_threshold',
        'colour',
      ].sort(),
    );
    const message = (field: string) => got.find((p) => p.field === field)!.message;
    expect(message('family')).toMatch(/unknown role family "astronaut".*GET \/reference\/criteria/);
    expect(message('metro')).toMatch(/unknown metro "Atlantis".*GET \/reference\/criteria/);
    expect(message('industries.1')).toMatch(/unknown industry "Space Piracy".*GET \/reference\/industries\?q=Space/);
    expect(message('skills.1')).toMatch(/unknown skill "Telepathy".*GET \/reference\/criteria/);
    expect(message('must_have_skills.0')).toMatch(/unknown skill "Mind Reading"/);
    expect(message('seniority.1')).toContain(SENIORITIES.join(', '));
    expect(message('years_experience.min')).toBe('min (10) must not be greater than max (5)');
    expect(message('colour')).toMatch(/unknown field/);
    expect(message('years_experience.typo')).toMatch(/unknown field/);
  });

  it('requires something to search on, alongside other problems', () => {
    const nothing = 'nothing to search on: give at least one of family, occupations, titles, skills, must_have_skills, industries, like';
    expect(problems({ metro: 'SF', years_experience: { min: 2 } })).toEqual([{ field: '(criteria)', message: nothing }]);
    expect(problems({ skills: [], titles: [], family: ' ' }).map((p) => p.message)).toContain(nothing);
    expect(problems({ target: 500 })).toEqual([
      { field: 'target', message: expect.any(String) },
      { field: '(criteria)', message: nothing },
    ]);
    for (const field of ['family', 'titles', 'skills', 'must_have_skills', 'industries'] as const) {
      const value = field === 'family' ? 'software_engineering' : field === 'titles' ? ['Nurse'] : field === 'industries' ? ['Banking'] : ['SQL'];
      expect(parseCriteria({ [field]: value }).ok).toBe(true);
    }
  });

  it('rejects non-objects and wrong types', () => {
    expect(fields(null)).toEqual(['(criteria)']);
    expect(fields([])).toEqual(['(criteria)']);
    expect(fields('software')).toEqual(['(criteria)']);
    expect(fields({ skills: 'SQL' })).toEqual(['skills']);
    expect(fields({ skills: ['SQL'], years_experience: 5 })).toEqual(['years_experience']);
    expect(fields({ skills: ['SQL'], years_experience: { min: '5' } })).toEqual(['years_experience.min']);
    expect(fields({ skills: ['SQL'], target: '10' })).toEqual(['target']);
  });

  it('enforces the documented bounds', () => {
    const base = { skills: ['SQL'] };
    expect(parseCriteria({ ...base, target: 1, read_budget: 1, shortlist_threshold: 0 }).ok).toBe(true);
    expect(parseCriteria({ ...base, target: 200, read_budget: 1000, shortlist_threshold: 100 }).ok).toBe(true);
    expect(fields({ ...base, target: 201, read_budget: 0, shortlist_threshold: 101 })).toEqual(['target', 'read_budget', 'shortlist_threshold']);
    expect(fields({ ...base, target: 2.5 })).toEqual(['target']);
    expect(fields({ ...base, mode: 'hybrid' })).toEqual(['mode']);
    expect(problems({ ...base, mode: 'hybrid' })[0].message).toBe('mode must be one of database_only, live');
    expect(parseCriteria({ ...base, years_experience: { min: 0, max: 60 } }).ok).toBe(true);
    expect(fields({ ...base, years_experience: { min: -1, max: 61 } })).toEqual(['years_experience.min', 'years_experience.max']);
    expect(fields({ titles: Array.from({ length: 21 }, (_, i) => `Title ${i}`) })).toEqual(['titles']);
    expect(fields({ titles: ['x'.repeat(101)] })).toEqual(['titles.0']);
    expect(parseCriteria({ titles: ['x'.repeat(100)] }).ok).toBe(true);
    expect(fields({ skills: SKILLS.slice(0, 51) })).toEqual(['skills']);
    expect(parseCriteria({ skills: SKILLS.slice(0, 50), must_have_skills: SKILLS.slice(0, 50) }).ok).toBe(true);
    expect(fields({ ...base, industries: INDUSTRIES.slice(0, 21) })).toEqual(['industries']);
    expect(fields({ ...base, locations: Array.from({ length: 21 }, () => 'Germany') })).toEqual(['locations']);
    expect(fields({ ...base, exclude_companies: Array.from({ length: 101 }, (_, i) => `Co ${i}`) })).toEqual(['exclude_companies']);
    expect(fields({ ...base, exclude_companies: ['x'.repeat(201), ''] })).toEqual(['exclude_companies.0', 'exclude_companies.1']);
  });

  it('accepts every reference value', () => {
    expect(parseCriteria({ skills: SKILLS.slice(0, 50), industries: INDUSTRIES.slice(0, 20), seniority: [...SENIORITIES] }).ok).toBe(true);
    for (const f of ROLE_FAMILIES) expect(parseCriteria({ family: f.id }).ok).toBe(true);
    for (let i = 0; i < SKILLS.length; i += 50) expect(parseCriteria({ skills: SKILLS.slice(i, i + 50) }).ok).toBe(true);
    for (let i = 0; i < INDUSTRIES.length; i += 20) expect(parseCriteria({ industries: INDUSTRIES.slice(i, i + 20) }).ok).toBe(true);
    for (let i = 0; i < COUNTRIES.length; i += 20) expect(parseCriteria({ skills: ['SQL'], locations: COUNTRIES.slice(i, i + 20) }).ok).toBe(true);
  });

  it('is usable as a zod schema and renders to JSON Schema for the OpenAPI document', () => {
    expect(criteriaSchema.parse({ skills: ['sql'] })).toEqual({ ...CRITERIA_DEFAULTS, skills: ['SQL'] });
    const json = z.toJSONSchema(criteriaSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    expect(json.type).toBe('object');
    expect(json.additionalProperties).toBe(false);
    expect(Object.keys(json.properties as object)).toEqual(Object.keys(describeCriteria().fields));
  });
});

describe('describeCriteria', () => {
  const description = describeCriteria();

  it('is JSON-serialisable', () => {
    expect(JSON.parse(JSON.stringify(description))).toEqual(description);
  });

  it('describes every field with type, required, bounds and defaults', () => {
    const keys: (keyof Criteria)[] = [
      'family',
      'occupations',
      'like',
      'titles',
      'places',
      'metro',
      'locations',
      'industries',
      'years_experience',
      'skills',
      'must_have_skills',
      'seniority',
      'exclude_companies',
      'target',
      'read_budget',
      'shortlist_threshold',
      'mode',
    ];
    expect(Object.keys(description.fields)).toEqual(keys);
    expect(description.fields.mode).toMatchObject({ type: 'string', allowed: ['database_only', 'live'] });
    for (const k of keys) {
      expect(typeof description.fields[k].type).toBe('string');
      expect(description.fields[k].required).toBe(false);
    }
    expect(description.fields.target).toMatchObject({ type: 'integer', min: 1, max: 200, default: 25 });
    expect(description.fields.read_budget).toMatchObject({ type: 'integer', min: 1, max: 1000, default: 200 });
    expect(description.fields.shortlist_threshold).toMatchObject({ type: 'integer', min: 0, max: 100, default: 70 });
    expect(description.fields.titles).toMatchObject({ max_items: 20, min_length: 1, max_length: 100 });
    expect(description.fields.skills.max_items).toBe(50);
    expect(description.fields.must_have_skills.max_items).toBe(50);
    expect(description.fields.industries.max_items).toBe(20);
    expect(description.fields.locations.max_items).toBe(20);
    expect(description.fields.exclude_companies).toMatchObject({ max_items: 100, min_length: 1, max_length: 200 });
    expect(description.fields.years_experience.properties).toMatchObject({ min: { min: 0, max: 60 }, max: { min: 0, max: 60 } });
  });

  it('lists allowed values inline, or where to find them', () => {
    const families = description.fields.family.allowed as { id: string; label: string }[];
    expect(families.map((f) => f.id)).toEqual(ROLE_FAMILIES.map((f) => f.id));
    expect(description.fields.metro.allowed).toEqual(METROS.map((m) => ({ id: m.id, label: m.label })));
    expect(description.fields.seniority.allowed).toEqual([...SENIORITIES]);
    expect((description.fields.locations.allowed as { countries: string[] }).countries).toEqual(COUNTRIES);
    expect(description.fields.industries.allowed).toEqual({ count: INDUSTRIES.length, lookup: 'GET /reference/industries?q=' });
    const skills = description.fields.skills.allowed as { count: number; by_family: Record<string, string[]>; other: string[] };
    expect(skills.count).toBe(SKILLS.length);
    expect(skills.by_family.software_engineering).toEqual(findFamily('software_engineering')!.skills);
    const listed = new Set([...Object.values(skills.by_family).flat(), ...skills.other]);
    expect(SKILLS.every((s) => listed.has(s))).toBe(true);
  });

  it('gives an example that passes parseCriteria', () => {
    const example = description.example;
    expect(example.family).toBe('software_engineering');
    const parsed = parseCriteria(example);
    expect(parsed.ok).toBe(true);
    // Every field comes back as sent; places come back resolved.
    const { places, ...rest } = example;
    if (parsed.ok) {
      expect(parsed.criteria).toEqual({ ...rest, places: expect.any(Array) });
      expect(parsed.criteria.places).toHaveLength(places!.length);
    }
  });
});

describe('canonicalJson', () => {
  it('ignores key order at every depth and keeps array order', () => {
    const a = { criteria: { skills: ['Go', 'SQL'], years_experience: { min: 3, max: 5 } }, jd_text: undefined, z: 1 };
    const b = { z: 1, criteria: { years_experience: { max: 5, min: 3 }, skills: ['Go', 'SQL'] } };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"criteria":{"skills":["Go","SQL"],"years_experience":{"max":5,"min":3}},"z":1}');
    expect(canonicalJson({ s: ['SQL', 'Go'] })).not.toBe(canonicalJson({ s: ['Go', 'SQL'] }));
  });

  it('handles scalars, null, nested arrays of objects and undefined like JSON.stringify', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(3)).toBe('3');
    expect(canonicalJson([{ b: 1, a: 2 }, undefined])).toBe('[{"a":2,"b":1},null]');
    expect(canonicalJson({ d: new Date('2026-01-01T00:00:00Z') })).toBe('{"d":"2026-01-01T00:00:00.000Z"}');
  });
});
