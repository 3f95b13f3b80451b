/**
 * Search criteria (DESIGN.md §4): the zod schema, parsing into canonical `ResolvedCriteria`, the
 * machine-readable description behind GET /reference/criteria, and canonical JSON for hashing
 * idempotent launch bodies.
 */
import { z } from 'zod';
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
import { SENIORITIES, type Seniority } from './profile';
import { countryPlace, metroPlace, PLACE_RADIUS, resolvePlace, type PlaceInput, type ResolvedPlace } from '../reference/place-resolution';
import { trimmedText } from './text';
import { ONET_CODE, occupations } from '../reference/occupations';
import { BRIEF_MAX_LENGTH, BRIEF_MIN_LENGTH } from '../briefs/brief-limits';

/** Same shape as the API's `Problem` (api/validate.ts); kept here so the domain does not import the API layer. */
export interface Problem {
  field: string;
  message: string;
}

export const CRITERIA_DEFAULTS = { target: 25, read_budget: 200, shortlist_threshold: 70 } as const;

/**
 * Where a search looks (DESIGN.md §9): the service's people database, or the workspace's live
 * People Data Labs source. Left out, the launch picks `live` when the workspace has one.
 */
export const SEARCH_MODES = ['database_only', 'live'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const CRITERIA_BOUNDS = {
  target: { min: 1, max: 200 },
  read_budget: { min: 1, max: 1000 },
  shortlist_threshold: { min: 0, max: 100 },
  years: { min: 0, max: 60 },
  titles: { maxItems: 20, minLength: 1, maxLength: 100 },
  skills: { maxItems: 50 },
  must_have_skills: { maxItems: 50 },
  industries: { maxItems: 20 },
  locations: { maxItems: 20 },
  places: { maxItems: 20 },
  occupations: { maxItems: 10 },
  seniority: { maxItems: SENIORITIES.length },
  exclude_companies: { maxItems: 100, minLength: 1, maxLength: 200 },
  /** Length bound for the single reference-valued strings (family, metro, industry, skill, location). */
  reference_value: { minLength: 1, maxLength: 200 },
} as const;

/** Fields of which at least one must be present (non-empty) for a search to have something to look for. */
export const SEARCHABLE_FIELDS = ['family', 'occupations', 'titles', 'skills', 'must_have_skills', 'industries'] as const;

export interface Criteria {
  family?: string;
  /** O*NET-SOC 2019 codes (DESIGN.md §4a); `family` follows from them when one maps to a family. */
  occupations?: string[];
  titles?: string[];
  /** Where people should be (DESIGN.md §4a); `metro` and `locations` are older shorthands for places. */
  places?: PlaceInput[];
  metro?: string;
  locations?: string[];
  industries?: string[];
  years_experience?: { min?: number; max?: number };
  skills?: string[];
  must_have_skills?: string[];
  seniority?: Seniority[];
  exclude_companies?: string[];
  target?: number;
  read_budget?: number;
  shortlist_threshold?: number;
  mode?: SearchMode;
}

export type ResolvedCriteria = Omit<Criteria, 'target' | 'read_budget' | 'shortlist_threshold' | 'places'> & {
  target: number;
  read_budget: number;
  shortlist_threshold: number;
  /** Every place the search wants, resolved: `places` as given, then `metro` and `locations`. */
  places?: ResolvedPlace[];
};

const HINT_CRITERIA = 'see GET /reference/criteria';

// ---- reference resolution (used by both validation and canonicalisation, so they cannot disagree) ----

function resolveFamily(value: string): RoleFamily | undefined {
  const v = value.trim().toLowerCase();
  return findFamily(v) ?? ROLE_FAMILIES.find((f) => f.label.toLowerCase() === v);
}

function resolveMetroId(value: string): string | undefined {
  return findMetro(value.trim())?.id;
}

function resolveCountry(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  return COUNTRIES.find((c) => c.toLowerCase() === v);
}

/** A location is a metro (id, label, city or alias) or a country; metros win when both match. */
function resolveLocation(value: string): string | undefined {
  return resolveMetroId(value) ?? resolveCountry(value);
}

/** An O*NET-SOC code with data ("29-1051.00"; the SOC form "29-1051" is its ".00" occupation). */
function resolveOccupation(value: string): string | undefined {
  const v = value.trim();
  const code = /^\d{2}-\d{4}$/.test(v) ? `${v}.00` : v;
  return ONET_CODE.test(code) && occupations().byCode(code) ? code : undefined;
}

function resolveSeniority(value: string): Seniority | undefined {
  const v = value.trim().toLowerCase();
  return (SENIORITIES as readonly string[]).includes(v) ? (v as Seniority) : undefined;
}

const quote = (v: string) => JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);

// ---- schema ----

const { titles: TB, exclude_companies: EB, reference_value: RB, years: YB } = CRITERIA_BOUNDS;

/**
 * A trimmed string that must resolve through `resolve`; the message names the value and where to
 * look. The OpenAPI document lists the canonical values (`values`) as its enum: the server also
 * takes other spellings (case, labels, aliases), which the document does not promise.
 */
const referenceString = (resolve: (v: string) => unknown, message: (v: string) => string, values: readonly string[]) =>
  z
    .string()
    .trim()
    .min(RB.minLength)
    .max(RB.maxLength)
    .superRefine((v, ctx) => {
      if (v.length >= RB.minLength && v.length <= RB.maxLength && resolve(v) === undefined) {
        ctx.addIssue({ code: 'custom', message: message(v), input: v });
      }
    })
    .meta({ enum: [...values] });

const skillString = referenceString(canonicalSkill, (v) => `unknown skill ${quote(v)}; ${HINT_CRITERIA} (skills are listed by role family)`, SKILLS);

const yearsNumber = z.number().min(YB.min).max(YB.max);

const yearsSchema = z.strictObject({ min: yearsNumber.optional(), max: yearsNumber.optional() }).superRefine((v, ctx) => {
  if (typeof v.min === 'number' && typeof v.max === 'number' && v.min > v.max) {
    ctx.addIssue({ code: 'custom', path: ['min'], message: `min (${v.min}) must not be greater than max (${v.max})` });
  }
});

const radius = z
  .number()
  .min(PLACE_RADIUS.min)
  .max(PLACE_RADIUS.max)
  .describe(`Kilometres, ${PLACE_RADIUS.min}–${PLACE_RADIUS.max}; a city's default is ${PLACE_RADIUS.defaultCityKm}`);
/** A place as criteria take it; each is resolved on the gazetteer (an unknown one names the closest places). */
const placeInput = z
  .union(
    [
      trimmedText(RB.maxLength).describe('A place name: "Leeds", "Portland, OR", "Bavaria", "Canada"'),
      z.strictObject({ name: trimmedText(RB.maxLength), radius_km: radius.optional() }),
      z.strictObject({
        id: z.string().trim().min(1).max(RB.maxLength).describe('A place id from GET /reference/places, e.g. geonames:2644688'),
        radius_km: radius.optional(),
      }),
      z.strictObject({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180), radius_km: radius.optional() }),
    ],
    { error: 'a place is a name ("Leeds"), {name, radius_km}, {id, radius_km} or {lat, lon, radius_km}' },
  )
  .superRefine((v, ctx) => {
    const resolved = resolvePlace(v as PlaceInput);
    if (!resolved.ok) ctx.addIssue({ code: 'custom', message: resolved.message, input: v });
  });

const criteriaObject = z.strictObject({
  family: referenceString(
    resolveFamily,
    (v) => `unknown role family ${quote(v)}; ${HINT_CRITERIA} (families)`,
    ROLE_FAMILIES.map((f) => f.id),
  ).optional(),
  occupations: z
    .array(
      z
        .string()
        .trim()
        .min(RB.minLength)
        .max(RB.maxLength)
        .describe('An O*NET-SOC 2019 code, e.g. 29-1051.00 (29-1051 is taken as 29-1051.00)')
        .superRefine((v, ctx) => {
          if (resolveOccupation(v) === undefined) {
            ctx.addIssue({
              code: 'custom',
              message: `unknown occupation ${quote(v)}: not an O*NET-SOC code with data; see GET /reference/occupations?q=`,
              input: v,
            });
          }
        }),
    )
    .max(CRITERIA_BOUNDS.occupations.maxItems)
    .optional(),
  titles: z.array(trimmedText(TB.maxLength)).max(TB.maxItems).optional(),
  places: z.array(placeInput).max(CRITERIA_BOUNDS.places.maxItems).optional(),
  metro: referenceString(
    resolveMetroId,
    (v) => `unknown metro ${quote(v)}; ${HINT_CRITERIA} (metros)`,
    METROS.map((m) => m.id),
  ).optional(),
  locations: z
    .array(
      referenceString(resolveLocation, (v) => `unknown location ${quote(v)}: not a metro or country; ${HINT_CRITERIA} (metros, countries)`, [
        ...METROS.map((m) => m.id),
        ...COUNTRIES,
      ]),
    )
    .max(CRITERIA_BOUNDS.locations.maxItems)
    .optional(),
  industries: z
    .array(
      referenceString(
        canonicalIndustry,
        (v) => `unknown industry ${quote(v)}; see GET /reference/industries?q=${encodeURIComponent(v.split(/\s+/)[0] ?? v)}`,
        INDUSTRIES,
      ),
    )
    .max(CRITERIA_BOUNDS.industries.maxItems)
    .optional(),
  years_experience: yearsSchema.optional(),
  skills: z.array(skillString).max(CRITERIA_BOUNDS.skills.maxItems).optional(),
  must_have_skills: z.array(skillString).max(CRITERIA_BOUNDS.must_have_skills.maxItems).optional(),
  seniority: z
    .array(
      z
        .string()
        .trim()
        .superRefine((v, ctx) => {
          if (resolveSeniority(v) === undefined) {
            ctx.addIssue({ code: 'custom', message: `unknown seniority ${quote(v)}; one of ${SENIORITIES.join(', ')}`, input: v });
          }
        })
        .meta({ enum: [...SENIORITIES] }),
    )
    .max(CRITERIA_BOUNDS.seniority.maxItems)
    .optional(),
  exclude_companies: z.array(trimmedText(EB.maxLength)).max(EB.maxItems).optional(),
  target: z.int().min(CRITERIA_BOUNDS.target.min).max(CRITERIA_BOUNDS.target.max).optional(),
  read_budget: z.int().min(CRITERIA_BOUNDS.read_budget.min).max(CRITERIA_BOUNDS.read_budget.max).optional(),
  shortlist_threshold: z.int().min(CRITERIA_BOUNDS.shortlist_threshold.min).max(CRITERIA_BOUNDS.shortlist_threshold.max).optional(),
  mode: z.enum(SEARCH_MODES, { error: `mode must be one of ${SEARCH_MODES.join(', ')}` }).optional(),
});

/**
 * The criteria fields alone (no "something to search on" rule, no defaults): intake's partial
 * criteria. `mode` is a launch choice, not something a job description states.
 */
export const criteriaFieldsSchema = criteriaObject.omit({ mode: true });

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function hasSomethingToSearch(v: Record<string, unknown>): boolean {
  return SEARCHABLE_FIELDS.some((k) => {
    const x = v[k];
    return typeof x === 'string' ? x.trim() !== '' : Array.isArray(x) && x.length > 0;
  });
}

/**
 * Strict criteria schema. Its output is `ResolvedCriteria` (defaults applied, reference values
 * canonical). The "something to search on" check runs even when other fields failed, so one
 * answer lists every problem.
 */
export const criteriaSchema = criteriaObject
  // The document states the rule below: at least one searchable field, lists non-empty (in an
  // allOf, so typed clients generated from the document keep the object's own type).
  .meta({
    allOf: [{ anyOf: SEARCHABLE_FIELDS.map((k) => ({ required: [k], properties: { [k]: k === 'family' ? { not: { type: 'null' } } : { minItems: 1 } } })) }],
  })
  .superRefine(
    (v, ctx) => {
      if (isPlainObject(v) && !hasSomethingToSearch(v)) {
        ctx.addIssue({
          code: 'custom',
          message: `nothing to search on: give at least one of ${SEARCHABLE_FIELDS.join(', ')}`,
          input: v,
        });
      }
    },
    { when: () => true },
  )
  .transform((c): ResolvedCriteria => resolveCriteria(c));

type ParsedCriteria = z.output<typeof criteriaObject>;

/** Case-insensitive de-duplication that keeps the first spelling and the order. */
function dedupe<T extends string>(values: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const v of values) {
    const key = v.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(v);
    }
  }
  return out;
}

/** Maps each value through `resolve` (validation guarantees a hit), de-duplicates, drops empty lists. */
function canonList<T extends string>(values: readonly string[] | undefined, resolve: (v: string) => T | undefined): T[] | undefined {
  if (!values) return undefined;
  const out = dedupe(values.map((v) => resolve(v)).filter((v): v is T => v !== undefined));
  return out.length > 0 ? out : undefined;
}

function resolveCriteria(c: ParsedCriteria): ResolvedCriteria {
  const out: ResolvedCriteria = {
    target: c.target ?? CRITERIA_DEFAULTS.target,
    read_budget: c.read_budget ?? CRITERIA_DEFAULTS.read_budget,
    shortlist_threshold: c.shortlist_threshold ?? CRITERIA_DEFAULTS.shortlist_threshold,
  };
  // Assigned in a fixed order so equal criteria serialise identically.
  const occupationCodes = canonList(c.occupations, resolveOccupation);
  // The family follows from the occupations when one maps to a family and none is given.
  const family = c.family !== undefined ? resolveFamily(c.family)?.id : occupationCodes?.map((code) => occupations().byCode(code)?.family).find((f) => !!f);
  if (family) out.family = family;
  if (occupationCodes) out.occupations = occupationCodes;
  const titles = canonList(c.titles, (v) => v.replace(/\s+/g, ' '));
  if (titles) out.titles = titles;
  const metro = c.metro !== undefined ? resolveMetroId(c.metro) : undefined;
  if (metro) out.metro = metro;
  const locations = canonList(c.locations, resolveLocation);
  if (locations) out.locations = locations;
  const places = resolvedPlaces(c.places ?? [], metro, locations ?? []);
  if (places.length) out.places = places;
  const industries = canonList(c.industries, canonicalIndustry);
  if (industries) out.industries = industries;
  if (c.years_experience && (c.years_experience.min !== undefined || c.years_experience.max !== undefined)) {
    out.years_experience = {};
    if (c.years_experience.min !== undefined) out.years_experience.min = c.years_experience.min;
    if (c.years_experience.max !== undefined) out.years_experience.max = c.years_experience.max;
  }
  const skills = canonList(c.skills, canonicalSkill);
  if (skills) out.skills = skills;
  const mustHave = canonList(c.must_have_skills, canonicalSkill);
  if (mustHave) out.must_have_skills = mustHave;
  const seniority = canonList(c.seniority, resolveSeniority);
  if (seniority) out.seniority = seniority;
  const exclude = canonList(c.exclude_companies, (v) => v.replace(/\s+/g, ' '));
  if (exclude) out.exclude_companies = exclude;
  if (c.mode) out.mode = c.mode;
  return out;
}

/** `places` as given, then the places `metro` and `locations` stand for; each place once. */
function resolvedPlaces(inputs: readonly unknown[], metro: string | undefined, locations: readonly string[]): ResolvedPlace[] {
  const out: ResolvedPlace[] = [];
  const add = (p: ResolvedPlace | undefined) => {
    if (p && !out.some((q) => q.id === p.id && q.radius_km === p.radius_km)) out.push(p);
  };
  for (const input of inputs) {
    const r = resolvePlace(input as PlaceInput);
    if (r.ok) add(r.place);
  }
  for (const id of [metro, ...locations].filter((x): x is string => !!x)) add(metroPlace(id) ?? countryPlace(id));
  return out;
}

/** Turns zod issues into problems; unknown fields become one problem per field, named by its path. */
function problemsFromIssues(issues: readonly z.core.$ZodIssue[]): Problem[] {
  const problems: Problem[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push({ field: [...base, key].join('.'), message: `unknown field; ${HINT_CRITERIA}` });
      }
      continue;
    }
    problems.push({ field: base.join('.') || '(criteria)', message: issue.message });
  }
  return problems;
}

export type ParseCriteriaResult = { ok: true; criteria: ResolvedCriteria } | { ok: false; problems: Problem[] };

/** Validates criteria and reports every problem at once. */
export function parseCriteria(input: unknown): ParseCriteriaResult {
  const result = criteriaSchema.safeParse(input);
  if (result.success) return { ok: true, criteria: result.data };
  return { ok: false, problems: problemsFromIssues(result.error.issues) };
}

// ---- description for GET /reference/criteria ----

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
        'O*NET-SOC 2019 occupations (codes such as 29-1051.00) of any role, inside the role families or not. A person of the same occupation matches it fully, one of the same SOC broad occupation (same first five digits) half. The family follows from an occupation that maps to one when no family is given; a role outside every family is searched by its occupation and titles alone.',
      max_items: B.occupations.maxItems,
      allowed: { lookup: 'GET /reference/occupations?q=' },
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

// ---- canonical JSON ----

function canonicalize(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonicalize((value as { toJSON: () => unknown }).toJSON());
  }
  if (Array.isArray(value)) return value.map((v) => canonicalize(v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      // Mirror JSON.stringify: these vanish from objects.
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      out[key] = canonicalize(v);
    }
    return out;
  }
  return value;
}

/** JSON with object keys sorted recursively (arrays keep their order), so key order never changes a hash. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value)) ?? 'null';
}
