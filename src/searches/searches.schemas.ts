import { z } from 'zod';
import { trimmedAtLeast } from '../domain/text';
import { criteriaFieldsSchema, criteriaSchema, SEARCH_MODES } from '../domain/criteria';
import { SIGNALS, SIGNAL_NAMES, type SignalName } from '../ranking/signals';
import { searchCalibration } from '../feedback/feedback.schemas';
import { BRIEF_MAX_LENGTH, BRIEF_MIN_LENGTH, briefTooLong } from '../briefs/brief-limits';

/** Request and response schemas of the searches, people, records and scoring routes. */

export const JD_MIN_LENGTH = BRIEF_MIN_LENGTH;
/**
 * An idempotency key (DESIGN.md §4): 8 to 160 printable ASCII characters; launches and billed data
 * calls. HTTP drops a header value's leading and trailing spaces before we see it, so the document
 * says the key neither starts nor ends with one (a fuzz run sent "  …" and had it refused as short).
 */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e](?:[\x20-\x7e]{6,158})[\x21-\x7e]$/;

export const searchParams = z.object({ searchId: z.uuid().describe('Search id') });

export const launchHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(IDEMPOTENCY_KEY, 'send an Idempotency-Key header of 8 to 160 printable characters, not starting or ending with a space')
    .describe('8 to 160 printable characters; a replay with the same project and body answers the first search'),
});

/** criteria (validated and resolved) or a job description of 40+ characters, not both. */
/** The launch body's rule (its superRefine below) as the OpenAPI documents state it: criteria (an object) or jd_text, not both. */
export const CRITERIA_OR_JD_TEXT = [
  { required: ['criteria'], properties: { criteria: { not: { type: 'null' } } }, not: { required: ['jd_text'] } },
  { required: ['jd_text'], properties: { criteria: { type: 'null' } } },
];

export const launchBody = z
  .strictObject({
    criteria: criteriaSchema.nullish().describe('Search criteria; see GET /reference/criteria'),
    jd_text: z
      .string()
      .max(BRIEF_MAX_LENGTH, briefTooLong('jd_text'))
      .optional()
      .describe(`A job description (${JD_MIN_LENGTH}+ characters once trimmed, at most ${BRIEF_MAX_LENGTH.toLocaleString('en-US')}) to extract criteria from`)
      .meta({ pattern: trimmedAtLeast(JD_MIN_LENGTH).source }),
  })
  .superRefine((b, ctx) => {
    const hasCriteria = b.criteria !== undefined && b.criteria !== null;
    if (hasCriteria && b.jd_text !== undefined) ctx.addIssue({ code: 'custom', message: 'send either criteria or jd_text, not both', path: [] });
    else if (!hasCriteria && (b.jd_text === undefined || b.jd_text.trim().length < JD_MIN_LENGTH)) {
      ctx.addIssue({
        code: 'custom',
        message: `send criteria (an object) or jd_text of at least ${JD_MIN_LENGTH} characters`,
        path: [],
        params: { code: 'criteria_required', jd_min_length: JD_MIN_LENGTH },
      });
    }
  })
  .meta({ id: 'LaunchSearch', description: 'criteria or jd_text, not both', oneOf: CRITERIA_OR_JD_TEXT });
export type LaunchBody = z.output<typeof launchBody>;

/**
 * The error code of a launch validation failure, from its first problem (key API launch and the
 * session API's scans): a bad header is `idempotency_key_required`, bad criteria `invalid_criteria`;
 * the body's custom issue names `criteria_required` itself.
 */
export const launchInvalidCode = ({ section, path }: { section: string; path: readonly PropertyKey[] }) =>
  section === 'headers' ? ('idempotency_key_required' as const) : path[0] === 'criteria' ? ('invalid_criteria' as const) : undefined;
export const LAUNCH_INVALID_CODES = ['idempotency_key_required', 'criteria_required', 'invalid_criteria'] as const;
/** What launchSearch can refuse with (beyond a missing project). */
export const LAUNCH_ERRORS = [
  'invalid_criteria',
  'idempotency_key_reused',
  'plan_required',
  'no_active_plan',
  'shortlist_allocation_exhausted',
  'daily_search_limit',
  'concurrent_search_limit',
  // mode "live" without a People Data Labs key; the provider's circuit open.
  'provider_unavailable',
  'search_unavailable',
  // jd_text not read within the reader's time budget (src/briefs/brief-reader.ts).
  'brief_reader_busy',
] as const;

/** The largest page offset (Postgres's integer range): larger ones are refused, not a 500. */
export const MAX_OFFSET = 2_147_483_647;

const intParam = (description: string) => z.coerce.number<string>().int().describe(description);

/**
 * A whole-number query value: an empty or blank one (`?limit=`) is refused as not a number
 * instead of being read as 0 (what `Number('')` gives).
 */
export const queryNumber = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? Number.NaN : v), schema);

export const peopleQuery = z.object({
  limit: queryNumber(
    intParam('1 to 500, default 100; out-of-range values are clamped')
      .optional()
      .transform((v) => Math.min(500, Math.max(1, v ?? 100))),
  ),
  offset: queryNumber(intParam('0 or more, default 0').min(0).max(MAX_OFFSET).default(0)),
  min_score: queryNumber(intParam('0 to 100; only people scoring at least this').min(0).max(100).optional()),
  profile: z
    .stringbool({ truthy: ['true', '1'], falsy: ['false', '0'] })
    .default(true)
    .meta({ description: 'false leaves out the full profile', override: { type: 'boolean' } }),
});

const nullableChange = <T extends z.ZodType>(schema: T) => schema.nullish();
/** Fields that decide who is found: accepted only unchanged (else needs_new_search). */
const fixedField = z
  .unknown()
  .describe('Accepted only equal to the current value, and any change is refused (needs_new_search): leave it out')
  // The document cannot say "equal to the current value"; it says what a client should do.
  .meta({ not: {} });

/** One weight per ranking signal (ranking/signals.ts), described by the signal itself. */
const signalWeights = Object.fromEntries(
  SIGNALS.map((s) => [s.name, z.number().min(0).max(100).optional().describe(`${s.describes} Default ${s.defaultWeight}.`)]),
) as Record<SignalName, z.ZodOptional<z.ZodNumber>>;

export const scoringChangeBody = z
  .strictObject({
    criteria: z
      .strictObject({
        // The launch criteria's own field schemas: what a launch would refuse, a change refuses too.
        skills: nullableChange(criteriaFieldsSchema.shape.skills),
        must_have_skills: nullableChange(criteriaFieldsSchema.shape.must_have_skills),
        years_experience: nullableChange(criteriaFieldsSchema.shape.years_experience),
        industries: nullableChange(criteriaFieldsSchema.shape.industries),
        shortlist_threshold: nullableChange(criteriaFieldsSchema.shape.shortlist_threshold),
        titles: fixedField.optional(),
        family: fixedField.optional(),
        occupations: fixedField.optional(),
        like: fixedField.optional(),
        places: fixedField.optional(),
        metro: fixedField.optional(),
        locations: fixedField.optional(),
      })
      .describe(
        'Partial criteria (null removes a field); titles, family, occupations, like, places, metro or locations changes are refused with needs_new_search',
      )
      .optional(),
    weights: z
      .strictObject(signalWeights)
      .describe('Weights 0–100, one per ranking signal; at least one must stay above 0')
      .meta({ not: { required: [...SIGNAL_NAMES], properties: Object.fromEntries(SIGNAL_NAMES.map((k) => [k, { const: 0 }])) } })
      .optional(),
  })
  .refine((b) => b.criteria !== undefined || b.weights !== undefined, { message: 'send criteria, weights or both' })
  .meta({
    id: 'ScoringChange',
    description: 'A scoring change: criteria and/or weights',
    // The refine above, in an allOf so typed clients keep the object's own type.
    allOf: [{ anyOf: (['criteria', 'weights'] as const).map((k) => ({ required: [k], properties: { [k]: { not: { type: 'null' } } } })) }],
  });
export type ScoringChangeBody = z.output<typeof scoringChangeBody>;

/** Routes that take no body (or `{}`). */
export const emptyBody = z.strictObject({}).meta({ id: 'Empty', description: 'No fields; the body may be left out' });

// ---- responses ----

const datetime = z.iso.datetime();
const SEARCH_STATUSES = ['queued', 'running', 'complete', 'failed'] as const;
const STOP_REASONS = ['target_reached', 'pool_exhausted', 'read_budget_reached', 'error', 'cancelled'] as const;
const OUTCOMES = ['Shortlist ready', 'Poor yield', 'No results'] as const;

export const resolvedPlace = z
  .strictObject({
    id: z.string().describe('geonames:<id>, admin1:<CC>.<code> or point:<lat>,<lon>'),
    name: z.string().describe('e.g. "Leeds, England, United Kingdom"'),
    kind: z.enum(['city', 'region', 'country']),
    lat: z.number(),
    lon: z.number(),
    radius_km: z.number().nullable().describe('Anywhere within this distance; null for a region or country (anywhere in it)'),
  })
  .meta({ id: 'ResolvedPlace' });

export const resolvedCriteria = z
  .strictObject({
    family: z.string().optional(),
    occupations: z.array(z.string()).optional().describe('O*NET-SOC codes'),
    like: z.array(z.string()).optional().describe('The candidates a lookalike search started from'),
    likeness: z
      .strictObject({
        examples: z.int(),
        occupations: z.array(z.string()),
        skills: z.array(z.string()),
        title_words: z.array(z.string()),
        industries: z.array(z.string()),
        seniority: z.array(z.string()),
      })
      .optional()
      .describe('What the like examples have in common (the similarity signal compares people with it)'),
    titles: z.array(z.string()).optional(),
    places: z.array(resolvedPlace).optional().describe('Every place the search wants, metro and locations included'),
    metro: z.string().optional(),
    locations: z.array(z.string()).optional(),
    industries: z.array(z.string()).optional(),
    years_experience: z.strictObject({ min: z.number().optional(), max: z.number().optional() }).optional(),
    skills: z.array(z.string()).optional(),
    must_have_skills: z.array(z.string()).optional(),
    seniority: z.array(z.string()).optional(),
    exclude_companies: z.array(z.string()).optional(),
    target: z.int(),
    read_budget: z.int(),
    shortlist_threshold: z.int(),
    mode: z.enum(SEARCH_MODES).optional().describe('Where the search looks; searches launched before modes existed have none (database_only)'),
  })
  .meta({ id: 'ResolvedCriteria', description: 'Criteria with defaults applied and reference values canonical' });

export const searchLinks = z
  .strictObject({ search: z.url(), records: z.url(), records_csv: z.url(), shortlist: z.url(), shortlist_csv: z.url() })
  .meta({ id: 'SearchLinks' });

const searchCounts = {
  status: z.enum(SEARCH_STATUSES),
  outcome: z.enum(OUTCOMES).nullable(),
  stop_reason: z.enum(STOP_REASONS).nullable(),
  profiles_read: z.int(),
  delivered: z.int(),
  shortlisted: z.int(),
};

/** `data` of search.* events: ids, counts and links, never profiles. */
export const searchEventData = z
  .strictObject({ search_id: z.uuid(), project_id: z.uuid(), ...searchCounts, closed_at: datetime.nullable(), links: searchLinks })
  .meta({ id: 'SearchEventData' });

export const searchPass = z
  .strictObject({
    pass: z.int(),
    kind: z.enum(['launch', 'expansion', 'database_pass', 'monitor', 'calibration']),
    level: z.int().nullable(),
    ...searchCounts,
    broadening: z.unknown(),
    criteria: resolvedCriteria,
  })
  .meta({ id: 'SearchPass' });

export const search = z
  .strictObject({
    id: z.uuid(),
    search_id: z.uuid(),
    project_id: z.uuid(),
    ...searchCounts,
    closed_at: datetime.nullable(),
    pages_fetched: z.int(),
    passes: z.int(),
    source: z.string(),
    criteria: resolvedCriteria,
    jd_text: z.string().nullable(),
    jd_confidence: z.record(z.string(), z.number()).nullable(),
    failure_reason: z.string().nullable(),
    created_at: datetime,
    started_at: datetime.nullable(),
    last_pass: searchPass.optional(),
    calibration: searchCalibration.nullable().describe('What the search learned from its ratings; null before any (POST /searches/{searchId}/feedback)'),
    links: searchLinks,
  })
  .meta({ id: 'Search' });

export const searchListItem = search
  .omit({ jd_text: true })
  .extend({
    jd_text_excerpt: z.string().nullable().describe('The first 500 characters of the job description the search was launched with (its record has all of it)'),
    jd_text_length: z.int().nullable().describe('Characters in that job description'),
  })
  .meta({ id: 'SearchListItem', description: 'A search in a list: the record without its job description, with an excerpt and its length' });

export const launchedSearch = search
  .extend({ reused: z.boolean().describe('true for an idempotent replay (200, no credit used)') })
  .meta({ id: 'LaunchedSearch' });

export const criterionScore = z
  .strictObject({ criterion: z.string(), weight: z.number(), match: z.number().min(0).max(1), points: z.number(), reason: z.string() })
  .meta({ id: 'CriterionScore', description: "One criterion's share of the score" });

export const person = z
  .strictObject({
    id: z.uuid().describe('Candidate id'),
    name: z.string(),
    score: z.int(),
    score_breakdown: z.array(criterionScore).nullable(),
    profile: z.record(z.string(), z.unknown()).nullable().optional().describe('Left out with profile=false'),
  })
  .meta({ id: 'Person' });

export const peoplePage = z
  .strictObject({ people: z.array(person), total: z.int().describe('People matching the filter; 0 past the end') })
  .meta({ id: 'PeoplePage' });

/** What a result page shows about a person before the profile is read (CandidateSummary): records and data people search. */
export const resultPageFields = {
  first_name: z.string(),
  last_name: z.string(),
  title: z.string(),
  company: z.string(),
  location: z.string(),
  network_url: z.string(),
  open_profile: z.boolean(),
  premium: z.boolean(),
  summary: z.string(),
};

export const searchRecord = z
  .strictObject({
    status: z.enum(['scored', 'not_read']),
    score: z.int().nullable(),
    page: z.int(),
    candidate_id: z.uuid(),
    ...resultPageFields,
    profile: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'SearchRecord' });

const distribution = z.array(z.strictObject({ from: z.int(), to: z.int(), count: z.int() }));
const weights = z.record(z.string(), z.number()).meta({ id: 'ScoringWeights' });

export const scoringPreview = z
  .strictObject({
    search_id: z.uuid(),
    people: z.int(),
    changed: z.int(),
    threshold: z.strictObject({ before: z.int(), after: z.int() }),
    distribution: z.strictObject({ before: distribution, after: distribution }),
    threshold_crossings: z.strictObject({ entering: z.int(), leaving: z.int() }),
    top_changes: z.array(z.strictObject({ candidate_id: z.uuid(), name: z.string(), score_before: z.int(), score_after: z.int(), delta: z.int() })),
    criteria: resolvedCriteria,
    weights,
  })
  .meta({ id: 'ScoringPreview' });

export const scoringApplied = z
  .strictObject({
    search_id: z.uuid(),
    rescored: z.int(),
    changed: z.int(),
    added: z.array(z.uuid()),
    removed: z.array(z.uuid()),
    shortlisted: z.int(),
    criteria: resolvedCriteria,
    weights,
    workflow_id: z.string(),
  })
  .meta({ id: 'ScoringApplied' });

export const expansionStarted = z
  .strictObject({ search, pass: z.int(), level: z.int(), broadening: z.array(z.unknown()), criteria: resolvedCriteria, workflow_id: z.string() })
  .meta({ id: 'ExpansionStarted' });

export const databasePassStarted = z.strictObject({ search, pass: z.int(), workflow_id: z.string() }).meta({ id: 'DatabasePassStarted' });
