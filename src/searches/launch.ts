import { createHash, randomUUID } from 'node:crypto';
import type { ApiKey } from '../db/api-key.repository';
import { creditLedgerRepository, type CreditBucket } from '../db/credit-ledger.repository';
import type { Db } from '../db/knex';
import type { SearchRow } from '../db/search.repository';
import type { Workspace } from '../db/workspace.repository';
import { canonicalJson, parseCriteria, type ResolvedCriteria } from '../domain/criteria';
import { AppError } from '../domain/errors';
import { extractCriteria } from '../domain/jd-extractor';
import { writeEvent } from '../events/outbox';
import { workflowIds } from '../temporal/workflow-ids';
import { searchEventData } from './view';

export const LAUNCH_ROUTE = 'launch_search';
export const JD_MIN_LENGTH = 40;
/** Searches waiting for a slot before launches are refused (DESIGN.md §4). */
export const MAX_QUEUED_SEARCHES = 50;
export const MAX_LAUNCHES_PER_DAY = 500;

const IDEMPOTENCY_KEY = /^[\x20-\x7e]{8,160}$/;

export interface LaunchRequest {
  workspace: Workspace;
  /** The calling key, or for the session API (scans) no key and the workspace bucket. */
  key: Pick<ApiKey, 'funding_mode'> & { id: string | null };
  projectId: string;
  idempotencyKey: string | undefined;
  body: unknown;
  baseUrl: string;
}

export interface LaunchResult {
  search: SearchRow;
  reused: boolean;
}

export const reserveKey = (searchId: string, pass: number) => `search:${searchId}:pass:${pass}:reserve`;
export const refundKey = (searchId: string, pass: number) => `search:${searchId}:pass:${pass}:refund`;

/** 400 idempotency_key_required unless the header is 8–160 printable characters. */
export function checkIdempotencyKey(value: string | undefined): string {
  if (value === undefined || !IDEMPOTENCY_KEY.test(value)) {
    throw new AppError('idempotency_key_required', 400, 'Send an Idempotency-Key header of 8 to 160 printable characters');
  }
  return value;
}

interface LaunchBody {
  criteria?: unknown;
  jd_text?: string;
}

/** The body's shape: criteria (object) or jd_text (40+ characters), nothing else. */
export function checkLaunchBody(body: unknown): LaunchBody {
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw new AppError('invalid_request', 400, 'The body must be a JSON object with criteria or jd_text');
  }
  const b = (body ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => k !== 'criteria' && k !== 'jd_text');
  if (unknown.length) throw new AppError('invalid_request', 400, `Unknown field(s): ${unknown.join(', ')}`, { unknown_fields: unknown });
  const hasCriteria = b.criteria !== undefined && b.criteria !== null;
  const jd = typeof b.jd_text === 'string' ? b.jd_text : undefined;
  if (hasCriteria && b.jd_text !== undefined) throw new AppError('invalid_request', 400, 'Send either criteria or jd_text, not both');
  if (b.jd_text !== undefined && jd === undefined) throw new AppError('invalid_request', 400, 'jd_text must be a string');
  if (!hasCriteria && (jd === undefined || jd.trim().length < JD_MIN_LENGTH)) {
    throw new AppError('criteria_required', 400, `Send criteria (an object) or jd_text of at least ${JD_MIN_LENGTH} characters`, { jd_min_length: JD_MIN_LENGTH });
  }
  if (hasCriteria && (typeof b.criteria !== 'object' || Array.isArray(b.criteria))) {
    throw new AppError('invalid_criteria', 400, 'criteria must be an object; see GET /reference/criteria', { problems: [{ field: 'criteria', message: 'must be an object' }] });
  }
  return hasCriteria ? { criteria: b.criteria } : { jd_text: jd };
}

/** Criteria from the request, or from the job description through the built-in extractor. */
function resolveCriteria(body: LaunchBody): { criteria: ResolvedCriteria; jdText: string | null; confidence: Record<string, number> | null } {
  const extraction = body.jd_text !== undefined ? extractCriteria(body.jd_text) : null;
  const parsed = parseCriteria(extraction ? extraction.criteria : body.criteria);
  if (!parsed.ok) {
    const prefix = extraction ? 'The job description did not yield usable criteria: ' : '';
    throw new AppError('invalid_criteria', 400, prefix + parsed.problems.map((p) => `${p.field}: ${p.message}`).join('; '), {
      problems: parsed.problems,
      ...(extraction ? { extracted: extraction.criteria } : {}),
    });
  }
  return { criteria: parsed.criteria, jdText: body.jd_text ?? null, confidence: extraction?.confidence ?? null };
}

/** 402 shortlist_allocation_exhausted unless the bucket the key draws from has a credit left. */
export async function requireCredit(trx: Db, workspaceId: string, bucket: CreditBucket): Promise<void> {
  if ((await creditLedgerRepository(trx).balance(workspaceId, bucket)) < 1) {
    throw new AppError('shortlist_allocation_exhausted', 402, `No shortlist credit left in the ${bucket} bucket`, { bucket });
  }
}

export function planCheck(workspace: Workspace): void {
  if (!workspace.plan) throw new AppError('plan_required', 402, 'The workspace has no plan; choose a plan to launch searches');
  if (!workspace.plan_active || (workspace.plan_expires_at && new Date(workspace.plan_expires_at).getTime() <= Date.now())) {
    throw new AppError('no_active_plan', 402, 'The workspace plan is not active');
  }
}

/**
 * Launches a search, exactly once per idempotency key. Under the workspace row lock: the replay
 * check, plan/limit/credit checks, then the search row, the idempotency record, the credit
 * reservation and the search.queued event, all in one transaction. Simultaneous identical
 * launches queue on the lock and all but the first find the idempotency record.
 */
export async function launchSearch(db: Db, req: LaunchRequest): Promise<LaunchResult> {
  const idempotencyKey = checkIdempotencyKey(req.idempotencyKey);
  const body = checkLaunchBody(req.body);
  const bodyHash = createHash('sha256').update(canonicalJson(body)).digest('hex');

  return db.transaction(async (trx) => {
    const workspace: Workspace = await trx('workspaces').where({ id: req.workspace.id }).forUpdate().first();
    const project = await trx('projects').where({ id: req.projectId, workspace_id: workspace.id }).first();
    if (!project) throw new AppError('project_not_found', 404, 'Project not found');

    const previous = await trx('idempotency_keys').where({ workspace_id: workspace.id, key: idempotencyKey }).first();
    if (previous) {
      if (previous.route !== LAUNCH_ROUTE || previous.project_id !== project.id || previous.body_hash !== bodyHash) {
        throw new AppError('idempotency_key_reused', 409, 'This Idempotency-Key was used for a different project or body; nothing was launched or charged');
      }
      const search: SearchRow = await trx('searches').where({ id: previous.search_id }).first();
      return { search, reused: true };
    }

    const { criteria, jdText, confidence } = resolveCriteria(body);
    planCheck(workspace);

    const [{ today }] = await trx('searches').where({ workspace_id: workspace.id }).andWhere('created_at', '>=', trx.raw("date_trunc('day', now() at time zone 'utc') at time zone 'utc'")).count({ today: '*' });
    if (Number(today) >= MAX_LAUNCHES_PER_DAY) {
      const retryAfter = 86_400 - (Math.floor(Date.now() / 1000) % 86_400);
      throw new AppError('daily_search_limit', 429, `At most ${MAX_LAUNCHES_PER_DAY} searches can be launched per UTC day`, { retry_after_seconds: retryAfter, limit: MAX_LAUNCHES_PER_DAY }, { 'Retry-After': String(retryAfter) });
    }
    const counts: { status: string; n: number }[] = await trx('searches').where({ workspace_id: workspace.id }).whereIn('status', ['queued', 'running']).groupBy('status').select('status').count({ n: '*' });
    const running = Number(counts.find((c) => c.status === 'running')?.n ?? 0);
    const queued = Number(counts.find((c) => c.status === 'queued')?.n ?? 0);
    if (queued >= MAX_QUEUED_SEARCHES) {
      throw new AppError('concurrent_search_limit', 429, `${queued} searches are already waiting for a slot; retry when some have finished`, { retry_after_seconds: 30, running, queued }, { 'Retry-After': '30' });
    }

    const bucket = req.key.funding_mode;
    const ledger = creditLedgerRepository(trx);
    await requireCredit(trx, workspace.id, bucket);

    const [search]: SearchRow[] = await trx('searches')
      .insert({
        id: randomUUID(),
        workspace_id: workspace.id,
        project_id: project.id,
        api_key_id: req.key.id,
        status: 'queued',
        source: 'database',
        criteria,
        jd_text: jdText,
        jd_confidence: confidence,
        funding_bucket: bucket,
      })
      .returning('*');
    await trx('search_passes').insert({ search_id: search.id, pass: 1, kind: 'launch', criteria, status: 'queued', workflow_id: workflowIds.searchPass(search.id, 1) });
    await trx('idempotency_keys').insert({ workspace_id: workspace.id, key: idempotencyKey, route: LAUNCH_ROUTE, project_id: project.id, body_hash: bodyHash, search_id: search.id });
    await ledger.append({ workspaceId: workspace.id, bucket, delta: -1, reason: 'search:launch', uniqueKey: reserveKey(search.id, 1) });
    // Only a launch that has to wait its turn is "queued" for subscribers.
    if (running + queued >= workspace.max_concurrent_searches) {
      await writeEvent(trx, { workspaceId: workspace.id, type: 'search.queued', data: searchEventData(search, req.baseUrl), dedupeKey: `search.queued:${search.id}:1` });
    }
    return { search, reused: false };
  });
}
