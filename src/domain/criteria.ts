/**
 * Search criteria (DESIGN.md §4): the zod schema, parsing into canonical `ResolvedCriteria`, and
 * canonical JSON for hashing idempotent launch bodies. Their description for GET
 * /reference/criteria is criteria-reference.ts.
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
  like: { minItems: 1, maxItems: 10 },
  seniority: { maxItems: SENIORITIES.length },
  exclude_companies: { maxItems: 100, minLength: 1, maxLength: 200 },
  /** Length bound for the single reference-valued strings (family, metro, industry, skill, location). */
  reference_value: { minLength: 1, maxLength: 200 },
} as const;

/** Fields of which at least one must be present (non-empty) for a search to have something to look for. */
export const SEARCHABLE_FIELDS = ['family', 'occupations', 'titles', 'skills', 'must_have_skills', 'industries', 'like'] as const;

export interface Criteria {
  family?: string;
  /** O*NET-SOC 2019 codes (DESIGN.md §4a), most likely first; `family` follows from the first when it maps to a family. */
  occupations?: string[];
  /** Candidates of the workspace to find more people like (DESIGN.md §13); the launch derives the other fields from them. */
  like?: string[];
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
  /** What the `like` examples have in common (set by the launch from their profiles): the similarity signal reads it. */
  likeness?: Likeness;
};

/** The examples of a lookalike search, summed up for the similarity signal (src/searches/lookalikes.ts). */
export interface Likeness {
  /** How many examples it sums up. */
  examples: number;
  occupations: string[];
  /** Lower case, most shared first. */
  skills: string[];
  /** Title words (lower case, without level words). */
  title_words: string[];
  industries: string[];
  seniority: Seniority[];
}

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
    const resolved = resolvePlace(v);
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
        .superRefine((v, ctx) => {
          if (resolveOccupation(v) === undefined) {
            ctx.addIssue({
              code: 'custom',
              message: `unknown occupation ${quote(v)}: not an O*NET-SOC code with data; see GET /reference/occupations?q=`,
              input: v,
            });
          }
        })
        // The document lists the codes with data, as it lists skills; 29-1051 (no suffix) is taken too, unpromised.
        .meta({
          description: 'An O*NET-SOC 2019 code, e.g. 29-1051.00 (29-1051 is taken as 29-1051.00)',
          enum: occupations().all.map((o) => o.code),
        }),
    )
    .max(CRITERIA_BOUNDS.occupations.maxItems)
    .optional(),
  like: z
    .array(z.uuid({ error: 'like takes candidate ids (UUIDs) of your searches' }))
    .min(CRITERIA_BOUNDS.like.minItems)
    .max(CRITERIA_BOUNDS.like.maxItems)
    .optional()
    .describe('Candidate ids to find more people like (1–10); the search derives occupations, titles, places, seniority, skills and industries from them'),
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
  // The family follows from the first (the most likely) occupation when it maps to one and none is
  // given: a store manager whose second guess is an operations manager is no operations role.
  const family = c.family !== undefined ? resolveFamily(c.family)?.id : (occupationCodes && occupations().byCode(occupationCodes[0])?.family) || undefined;
  if (family) out.family = family;
  if (occupationCodes) out.occupations = occupationCodes;
  const like = canonList(c.like, (v) => v.toLowerCase());
  if (like) out.like = like;
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
