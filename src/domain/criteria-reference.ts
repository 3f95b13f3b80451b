/**
 * The machine-readable description of the criteria behind GET /reference/criteria: every field's
 * type, bounds, allowed values (or where to look them up) and an example that passes parsing.
 * The rules themselves are the zod schema in criteria.ts.
 */
import {
  COUNTRIES,
  METROS,
  ROLE_FAMILIES,
  SKILLS,
  INDUSTRIES,
  canonicalIndustry,
  canonicalSkill,
  findFamily,
  findMetro,
  type RoleFamily,
} from '../reference/taxonomy';
import { SENIORITIES } from './profile';
import { PLACE_RADIUS } from '../reference/place-resolution';
import { BRIEF_MAX_LENGTH, BRIEF_MIN_LENGTH } from '../briefs/brief-limits';
import { CRITERIA_BOUNDS, CRITERIA_DEFAULTS, SEARCH_MODES, SEARCHABLE_FIELDS, type Criteria } from './criteria';

export interface FieldDescription {
  type: string;
  required: boolean;
  description: string;
  items?: string;
  min?: number;
  max?: number;
  max_items?: number;
  min_length?: number;
  max_length?: number;
  default?: number;
  allowed?: unknown;
  properties?: Record<string, FieldDescription>;
}

export interface CriteriaDescription {
  fields: Record<keyof Criteria, FieldDescription>;
  /** A launch may send a job description instead of criteria: its bounds. */
  jd_text: FieldDescription;
  rules: string[];
  example: Criteria;
}

function pickExampleFamily(): RoleFamily | undefined {
  return findFamily('software_engineering') ?? ROLE_FAMILIES[0];
}

/** An example that passes `parseCriteria` (tested), built from whatever reference data is loaded. */
export function exampleCriteria(): Criteria {
  const family = pickExampleFamily();
  const metro = findMetro('san-francisco-bay-area') ?? METROS[0];
  const example: Criteria = {};
  if (family) {
    example.family = family.id;
    example.titles = family.titles.slice(0, 2);
    const skills = family.skills.map((s) => canonicalSkill(s)).filter((s): s is string => s !== undefined);
    if (skills.length > 0) {
      example.skills = skills.slice(0, 3);
      example.must_have_skills = skills.slice(0, 1);
    }
    const industries = family.industries.map((i) => canonicalIndustry(i)).filter((i): i is string => i !== undefined);
    if (industries.length > 0) example.industries = industries.slice(0, 2);
  }
  // A city by name (with its region, as recruiters write it) and one with a radius of its own.
  example.places = metro ? [`${metro.city}, ${metro.region}`, { name: 'Oakland, California', radius_km: 25 }] : ['London, United Kingdom'];
  example.years_experience = { min: 3, max: 10 };
  example.seniority = ['mid', 'senior'];
  example.exclude_companies = ['Example Corp'];
  example.target = CRITERIA_DEFAULTS.target;
  example.read_budget = CRITERIA_DEFAULTS.read_budget;
  example.shortlist_threshold = CRITERIA_DEFAULTS.shortlist_threshold;
  return example;
}

/** Machine-readable description of every criteria field (JSON-serialisable). */
export function describeCriteria(): CriteriaDescription {
  const B = CRITERIA_BOUNDS;
  const skillsByFamily: Record<string, string[]> = {};
  for (const f of ROLE_FAMILIES) skillsByFamily[f.id] = [...f.skills];
  const familySkills = new Set(ROLE_FAMILIES.flatMap((f) => f.skills.map((s) => s.toLowerCase())));
  const otherSkills = SKILLS.filter((s) => !familySkills.has(s.toLowerCase()));
  const year = (name: 'min' | 'max'): FieldDescription => ({
    type: 'number',
    required: false,
    description: name === 'min' ? 'Fewest years of experience wanted.' : 'Most years of experience wanted.',
    min: B.years.min,
    max: B.years.max,
  });
  const fields: Record<keyof Criteria, FieldDescription> = {
    family: {
      type: 'string',
      required: false,
      description: 'Role family id (case-insensitive; the family label is accepted too).',
      allowed: ROLE_FAMILIES.map((f) => ({ id: f.id, label: f.label, titles: [...f.titles] })),
    },
    occupations: {
      type: 'array',
      items: 'string',
      required: false,
      description:
        'O*NET-SOC 2019 occupations (codes such as 29-1051.00) of any role, inside the role families or not. A person of the same occupation matches it fully, one of the same SOC broad occupation (same first five digits) half. The family follows from the first occupation when it maps to one and no family is given; a role outside every family is searched by its occupation and titles alone.',
      max_items: B.occupations.maxItems,
      allowed: { lookup: 'GET /reference/occupations?q=' },
    },
    like: {
      type: 'array',
      items: 'string',
      required: false,
      description:
        'Candidate ids (from your searches) to find more people like: the search derives occupations, titles, places, seniority, skills and industries from their profiles for the fields you leave out (shown in its criteria), scores how alike each person is, and never delivers people the project already has.',
      max_items: B.like.maxItems,
    },
    titles: {
      type: 'array',
      items: 'string',
      required: false,
      description: 'Job titles to match against the person’s current title (seniority words are ignored when matching).',
      max_items: B.titles.maxItems,
      min_length: B.titles.minLength,
      max_length: B.titles.maxLength,
    },
    places: {
      type: 'array',
      items: 'string | {name, radius_km?} | {id, radius_km?} | {lat, lon, radius_km?}',
      required: false,
      description:
        'Where people should be, anywhere on earth (GeoNames cities of 15,000+ people, first-level regions, countries). A name ("Leeds", "Portland, OR", "London, Ontario", "Bavaria", "Canada"), a place id from GET /reference/places, or a point. An ambiguous name takes the most populous place unless it names its region or country; an unknown one is invalid_criteria naming the closest places. A city or point counts fully within radius_km (default 40), falling linearly to nothing at twice it; a region or country means anywhere in it. Resolved to {id, name, kind, lat, lon, radius_km} in the search record, where metro and locations show as places too.',
      max_items: B.places.maxItems,
      allowed: { lookup: 'GET /reference/places?q=', radius_km: { min: PLACE_RADIUS.min, max: PLACE_RADIUS.max, default: PLACE_RADIUS.defaultCityKm } },
    },
    metro: {
      type: 'string',
      required: false,
      description:
        'An older shorthand for a place: a metro id (its label, city or an alias such as "SF" or "NYC" is accepted), searched as its main city with a radius covering the metro.',
      allowed: METROS.map((m) => ({ id: m.id, label: m.label })),
    },
    locations: {
      type: 'array',
      items: 'string',
      required: false,
      description: 'An older shorthand for further places: metro ids (or label/city/alias) or country names; prefer places.',
      max_items: B.locations.maxItems,
      allowed: { metros: 'see fields.metro.allowed', countries: [...COUNTRIES] },
    },
    industries: {
      type: 'array',
      items: 'string',
      required: false,
      description: 'Reference industry names (case-insensitive).',
      max_items: B.industries.maxItems,
      allowed: { count: INDUSTRIES.length, lookup: 'GET /reference/industries?q=' },
    },
    years_experience: {
      type: 'object',
      required: false,
      description: 'Range of total years of experience; min must not exceed max.',
      properties: { min: year('min'), max: year('max') },
    },
    skills: {
      type: 'array',
      items: 'string',
      required: false,
      description: 'Reference skill names (case-insensitive); each one the person has raises the score.',
      max_items: B.skills.maxItems,
      allowed: { count: SKILLS.length, by_family: skillsByFamily, other: otherSkills },
    },
    must_have_skills: {
      type: 'array',
      items: 'string',
      required: false,
      description: 'Reference skill names a person must have; a person missing one scores at most 40.',
      max_items: B.must_have_skills.maxItems,
      allowed: 'same values as skills',
    },
    seniority: {
      type: 'array',
      items: 'string',
      required: false,
      description: 'Seniority levels to match.',
      max_items: B.seniority.maxItems,
      allowed: [...SENIORITIES],
    },
    exclude_companies: {
      type: 'array',
      items: 'string',
      required: false,
      description: 'People currently at these companies (case-insensitive) score 0.',
      max_items: B.exclude_companies.maxItems,
      min_length: B.exclude_companies.minLength,
      max_length: B.exclude_companies.maxLength,
    },
    target: {
      type: 'integer',
      required: false,
      description: 'How many people to shortlist before stopping.',
      min: B.target.min,
      max: B.target.max,
      default: CRITERIA_DEFAULTS.target,
    },
    read_budget: {
      type: 'integer',
      required: false,
      description: 'Most profiles a search pass reads.',
      min: B.read_budget.min,
      max: B.read_budget.max,
      default: CRITERIA_DEFAULTS.read_budget,
    },
    shortlist_threshold: {
      type: 'integer',
      required: false,
      description: 'Score (0–100) at which a person is auto-shortlisted.',
      min: B.shortlist_threshold.min,
      max: B.shortlist_threshold.max,
      default: CRITERIA_DEFAULTS.shortlist_threshold,
    },
    mode: {
      type: 'string',
      required: false,
      description:
        'Where the search looks: database_only (the service’s people database) or live (People Data Labs, with the workspace’s credential or the server key; 424 provider_unavailable without one, 424 search_unavailable while the provider keeps failing). Default: live when the workspace has such a source, else database_only.',
      allowed: [...SEARCH_MODES],
    },
  };
  return {
    fields,
    jd_text: {
      type: 'string',
      required: false,
      description:
        'Instead of criteria, a job description the built-in reader turns into criteria (shown on the search as criteria and jd_confidence). Longer is 400 invalid_request.',
      min_length: BRIEF_MIN_LENGTH,
      max_length: BRIEF_MAX_LENGTH,
    },
    rules: [
      `At least one of ${SEARCHABLE_FIELDS.join(', ')} must be given.`,
      'Unknown fields and unknown reference values are rejected (invalid_criteria lists every problem).',
      'years_experience.min must not be greater than years_experience.max.',
      'Strings are trimmed; lists are de-duplicated case-insensitively; reference values are returned in their canonical spelling.',
    ],
    example: exampleCriteria(),
  };
}
