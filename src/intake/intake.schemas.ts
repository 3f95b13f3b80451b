import { z } from 'zod';
import { criteriaFieldsSchema } from '../domain/criteria';
import { whenMissing } from '../domain/errors';
import { NOT_BLANK } from '../domain/text';
import { BRIEF_MAX_LENGTH, briefTooLong } from '../briefs/brief-limits';

export const MAX_RAW_INPUT = BRIEF_MAX_LENGTH;

/** POST /api/intake */
export const intakeBody = z.strictObject({
  rawInput: z
    .string({ error: whenMissing('rawInput is required (free text or a job description)') })
    .max(MAX_RAW_INPUT, briefTooLong('rawInput'))
    .regex(NOT_BLANK, 'rawInput must not be empty')
    .trim()
    .describe('Free text or a job description'),
});
export type IntakeBody = z.infer<typeof intakeBody>;

const confidence = z.number().min(0).max(1);

/**
 * The tool's arguments: the criteria fields (the search's own zod schema) plus `_meta.confidence`.
 * `family` is checked separately against the workspace's role families, so an unknown family
 * becomes suggestions instead of a validation failure.
 */
export const intakeToolInput = criteriaFieldsSchema.omit({ family: true }).extend({
  family: z.string().trim().min(1).max(200).optional().describe('Role family id or label of the workspace (see the list in the instructions)'),
  _meta: z
    .strictObject({ confidence: z.record(z.string(), confidence).describe('Field name → confidence 0 to 1 that the text states it') })
    .describe('How sure the extraction is, per field'),
});
export type IntakeToolInput = z.infer<typeof intakeToolInput>;

/** JSON schema of the tool, generated from the zod schema (one source of truth). */
export const intakeToolParameters = (): Record<string, unknown> => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(intakeToolInput, {
    io: 'input',
    // The OpenAPI documents list the reference values (skills, industries, places: ≈1,200 in all)
    // as enums; the tool leaves them out, as before: thousands of tokens per call, and the
    // validation with its one retry already names unknown values to the model.
    override: ({ jsonSchema }) => {
      delete jsonSchema.enum;
    },
  }) as Record<string, unknown>;
  return schema;
};

export const CHIPS = ['location', 'job_title', 'years_experience', 'industry', 'skills'] as const;
export type Chip = (typeof CHIPS)[number];

/** Which criteria fields resolve each chip, and whether a launch needs the chip confirmed. */
export const CHIP_FIELDS: Record<Chip, { fields: string[]; required: boolean }> = {
  location: { fields: ['places', 'metro', 'locations'], required: true },
  job_title: { fields: ['family', 'occupations', 'titles'], required: true },
  years_experience: { fields: ['years_experience'], required: false },
  industry: { fields: ['industries'], required: false },
  skills: { fields: ['skills', 'must_have_skills'], required: false },
};

// ---- responses ----

/**
 * Who read the brief: `llm` is intake through the language model; `builtin` the deterministic
 * reader behind the key API's `jd_text`, which the app uses when no language model is configured.
 */
export const READERS = ['llm', 'builtin'] as const;
export type Reader = (typeof READERS)[number];

const chipCoverage = z.strictObject({ resolved: z.boolean(), confidence: confidence, required: z.boolean() });

/** POST /api/intake and POST /api/intake/builtin answer (spec "Criteria (intake result)", plus `reader`). */
export const intakeResult = z
  .strictObject({
    criteria: criteriaFieldsSchema
      .extend({
        family: z.string().optional().describe("One of the workspace's role families; left out when unresolved"),
        _meta: z.strictObject({ confidence: z.record(z.string(), confidence) }),
      })
      .describe('The criteria found; an absent field was not found or not confident'),
    entityCoverage: z.strictObject(Object.fromEntries(CHIPS.map((chip) => [chip, chipCoverage])) as Record<Chip, typeof chipCoverage>),
    familyUnresolved: z.boolean(),
    familySuggestions: z.array(z.strictObject({ id: z.string(), label: z.string() })).describe('The closest known families when familyUnresolved'),
    rawToolInput: z
      .record(z.string(), z.unknown())
      .describe(
        "What the reader proposed before validation and the workspace's families: the tool call's arguments (llm) or the built-in reader's extraction (builtin)",
      ),
    reader: z.enum(READERS).describe('Which reader read the brief: llm (the language model) or builtin (the deterministic reader, no language model)'),
  })
  .meta({ id: 'IntakeResult' });
