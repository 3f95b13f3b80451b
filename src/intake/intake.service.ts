import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Config } from '../config';
import { resolveProviderKey } from '../credentials/credentials.service';
import type { Db } from '../db/knex';
import { roleFamilyRepository, type RoleFamilyRow } from '../db/role-family.repository';
import { AppError } from '../domain/errors';
import type { BriefReader } from '../briefs/brief-reader';
import { callTool, openaiClient, type ToolCallAnswer } from '../providers/openai';
import { closestFamilies, familiesNearOccupations, findWorkspaceFamily } from './family-match';
import { CHIP_FIELDS, CHIPS, intakeToolInput, intakeToolParameters, type Chip, type IntakeToolInput, type Reader } from './intake.schemas';

/**
 * Intake (DESIGN.md §10): free text → criteria through the `openai` provider's forced tool call,
 * or, for the app without a language model, through the built-in reader behind the key API's
 * `jd_text`. Both only extract and validate: they never score and never call a sourcing provider.
 */

const TOOL_NAME = 'record_search_criteria';
/** A first answer that fails validation gets one retry with the problems; a second failure is 502. */
const MAX_ATTEMPTS = 2;
/** Confidence assumed for a field the model filled but gave no confidence for. */
const DEFAULT_CONFIDENCE = 0.5;

export interface IntakeResult {
  criteria: Record<string, unknown> & { _meta: { confidence: Record<string, number> } };
  entityCoverage: Record<Chip, { resolved: boolean; confidence: number; required: boolean }>;
  familyUnresolved: boolean;
  familySuggestions: { id: string; label: string }[];
  rawToolInput: Record<string, unknown>;
  reader: Reader;
}

function instructions(families: RoleFamilyRow[]): string {
  return [
    "You turn a recruiter's free text or job description into structured search criteria by calling the tool exactly once.",
    'Fill only what the text states or clearly implies; leave a field out when unsure. Do not invent skills or industries.',
    'For every field you fill, give _meta.confidence[field] between 0 and 1.',
    'metro: a metro area id, label or city (e.g. "san-francisco-bay-area", "New York"). industries and skills: standard names.',
    `family: one of this workspace's role families (id): ${families.map((f) => `${f.family_id} (${f.label})`).join(', ')}.`,
    'If the role fits none of them, put the role family the text names in family anyway.',
  ].join('\n');
}

type Validation = { ok: true; input: IntakeToolInput; raw: Record<string, unknown> } | { ok: false; problems: string[]; raw: unknown };

function validate(answer: ToolCallAnswer): Validation {
  if (answer.arguments === null) return { ok: false, problems: [`call the ${TOOL_NAME} tool`], raw: null };
  let raw: unknown;
  try {
    raw = JSON.parse(answer.arguments);
  } catch {
    return { ok: false, problems: ['the tool arguments are not valid JSON'], raw: answer.arguments };
  }
  const parsed = intakeToolInput.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(arguments)'}: ${i.message}`), raw };
  return { ok: true, input: parsed.data, raw: raw as Record<string, unknown> };
}

async function loadFamilies(db: Db, workspaceId: string): Promise<RoleFamilyRow[]> {
  let families: RoleFamilyRow[];
  try {
    families = await roleFamilyRepository(db).listForWorkspace(workspaceId);
  } catch {
    families = [];
  }
  // No code: the caller cannot fix this; the spec gives it 502 without one.
  if (families.length === 0) throw new AppError(null, 502, "The workspace's role families could not be loaded");
  return families;
}

function llmFailure(err: unknown): never {
  if (err instanceof OpenAI.APIError) {
    const reason = err.status ? `answered HTTP ${err.status}` : 'could not be reached';
    throw new AppError('extraction_failed', 502, `The language model ${reason}; no criteria were extracted`);
  }
  throw err;
}

export async function runIntake(db: Db, config: Config, workspaceId: string, rawInput: string): Promise<IntakeResult> {
  const key = await resolveProviderKey(db, config, workspaceId, 'openai');
  if (!key) throw new AppError('llm_not_configured', 424, 'No language-model key: an admin can add an openai credential under /api/admin/credentials');
  const families = await loadFamilies(db, workspaceId);
  const client = openaiClient(config.providers.openai.baseUrl, key.apiKey);
  const tool = { name: TOOL_NAME, description: 'Record the search criteria found in the text.', parameters: intakeToolParameters() };
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: instructions(families) },
    { role: 'user', content: rawInput },
  ];
  let problems: string[] = [];
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const answer = await callTool(client, { model: config.openaiModel, messages, tool }).catch(llmFailure);
    const checked = validate(answer);
    if (checked.ok) return present(checked.input, checked.raw, families, 'llm');
    problems = checked.problems;
    // The retry shows the model its own answer and every problem in it.
    const feedback = `The arguments failed validation:\n- ${problems.join('\n- ')}\nCall ${TOOL_NAME} again with corrected arguments.`;
    if (answer.id && answer.arguments !== null) {
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: answer.id, type: 'function', function: { name: TOOL_NAME, arguments: answer.arguments } }],
      });
      messages.push({ role: 'tool', tool_call_id: answer.id, content: feedback });
    } else messages.push({ role: 'user', content: feedback });
  }
  throw new AppError('extraction_failed', 502, `The language model did not produce valid criteria in ${MAX_ATTEMPTS} attempts: ${problems.join('; ')}`);
}

/**
 * The built-in reader's intake (DESIGN.md §10, "Built-in reader for the app"): the same
 * deterministic reader as the key API's `jd_text`, answered in intake's shape. A brief with
 * nothing usable still answers (empty criteria, every chip unresolved): unlike `jd_text`, which
 * launches at once and so refuses it, the app shows the criteria as a form to fill in next.
 */
export async function readBriefBuiltin(db: Db, reader: BriefReader, workspaceId: string, rawInput: string): Promise<IntakeResult> {
  const families = await loadFamilies(db, workspaceId);
  const { criteria, confidence } = await reader.read(rawInput);
  const raw: Record<string, unknown> = { ...criteria, _meta: { confidence } };
  return present(withoutInvalidFields(raw), raw, families, 'builtin');
}

/**
 * The reader's proposal with every field or list item that intake's schema refuses left out
 * (a deterministic reader would only repeat itself if asked again, so nothing is retried); what
 * is left out shows as an unresolved chip for the recruiter to fill in.
 */
export function withoutInvalidFields(raw: Record<string, unknown>): IntakeToolInput {
  const candidate: Record<string, unknown> = structuredClone(raw);
  // Fields are checked independently, so the parse after one round of removals passes; the
  // bound only guards against a schema that ever stops being so.
  for (let round = 0; round < 3; round++) {
    const parsed = intakeToolInput.safeParse(candidate);
    if (parsed.success) return parsed.data;
    const refusedItems = new Map<string, Set<number>>();
    for (const issue of parsed.error.issues) {
      const [field, index, entry] = issue.path;
      if (issue.code === 'unrecognized_keys' && issue.path.length === 0) for (const key of issue.keys) delete candidate[key];
      else if (field === '_meta') {
        const confidences = (candidate._meta as { confidence?: Record<string, unknown> } | undefined)?.confidence;
        if (index === 'confidence' && typeof entry === 'string' && confidences) delete confidences[entry];
        else candidate._meta = { confidence: {} };
      } else if (typeof field === 'string') {
        if (typeof index === 'number' && Array.isArray(candidate[field])) refusedItems.set(field, (refusedItems.get(field) ?? new Set()).add(index));
        else delete candidate[field];
      }
    }
    for (const [field, indexes] of refusedItems) {
      const kept = (candidate[field] as unknown[]).filter((_, i) => !indexes.has(i));
      if (kept.length > 0) candidate[field] = kept;
      else delete candidate[field];
    }
  }
  return { _meta: { confidence: {} } };
}

function present(input: IntakeToolInput, raw: Record<string, unknown>, families: RoleFamilyRow[], reader: Reader): IntakeResult {
  const { _meta, family, ...fields } = input;
  const criteria: Record<string, unknown> = { ...fields };
  let familyUnresolved = false;
  let familySuggestions: { id: string; label: string }[] = [];
  if (family !== undefined) {
    const known = findWorkspaceFamily(families, family);
    if (known) criteria.family = known.family_id;
    else {
      familyUnresolved = true;
      familySuggestions = closestFamilies(families, family).map((f) => ({ id: f.family_id, label: f.label }));
    }
  } else if (Array.isArray(fields.occupations) && fields.occupations.length > 0) {
    // A role outside every family (a pharmacist): searched by its occupation; the families nearest it are offered.
    familyUnresolved = true;
    familySuggestions = familiesNearOccupations(families, fields.occupations).map((f) => ({ id: f.family_id, label: f.label }));
  }
  const present = (field: string) => {
    const v = criteria[field];
    return v !== undefined && (!Array.isArray(v) || v.length > 0) && (typeof v !== 'object' || Array.isArray(v) || Object.keys(v as object).length > 0);
  };
  const confidence: Record<string, number> = {};
  for (const field of Object.keys(criteria)) if (present(field)) confidence[field] = _meta.confidence[field] ?? DEFAULT_CONFIDENCE;
  const entityCoverage = Object.fromEntries(
    CHIPS.map((chip) => {
      const found = CHIP_FIELDS[chip].fields.filter(present);
      return [
        chip,
        { resolved: found.length > 0, confidence: found.length ? Math.max(...found.map((f) => confidence[f])) : 0, required: CHIP_FIELDS[chip].required },
      ];
    }),
  ) as IntakeResult['entityCoverage'];
  return { criteria: { ...criteria, _meta: { confidence } }, entityCoverage, familyUnresolved, familySuggestions, rawToolInput: raw, reader };
}
