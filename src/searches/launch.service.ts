import { createHash, randomUUID } from 'node:crypto';
import type { ApiKey } from '../db/api-key.repository';
import { costEventRepository } from '../db/cost-event.repository';
import { creditLedgerRepository, type CreditBucket } from '../db/credit-ledger.repository';
import { idempotencyKeyRepository } from '../db/idempotency-key.repository';
import type { Db } from '../db/knex';
import { planRepository } from '../db/plan.repository';
import { projectRepository } from '../db/project.repository';
import { searchPassRepository } from '../db/search-pass.repository';
import { searchRepository, type SearchRow } from '../db/search.repository';
import { workspaceRepository, type Workspace } from '../db/workspace.repository';
import type { Config } from '../config';
import { resolveProviderKey } from '../credentials/credentials.service';
import { canonicalJson, parseCriteria, type ResolvedCriteria, type SearchMode } from '../domain/criteria';
import { AppError } from '../domain/errors';
import type { BriefReader } from '../briefs/brief-reader';
import type { Extraction } from '../briefs/reader';
import { writeEvent } from '../events/outbox';
import { circuitBreaker } from '../providers/circuit-breaker';
import { providerUnavailable } from '../providers/provider-errors';
import { workflowIds } from '../temporal/workflow-ids';
import type { LaunchBody } from './searches.schemas';
import { searchEventData } from './searches.presenter';
import { withExamples } from './lookalikes';

export const LAUNCH_ROUTE = 'launch_search';
/** Searches waiting for a slot before launches are refused (DESIGN.md §4). */
export const MAX_QUEUED_SEARCHES = 50;
/** Limits of a workspace whose plan is not in the plans table (the starter plan's). */
export const DEFAULT_MAX_CONCURRENT_SEARCHES = 3;
export const DEFAULT_MAX_LAUNCHES_PER_DAY = 500;

export interface SearchLimits {
  /** Searches running at once; more wait for a slot. */
  concurrent: number;
  /** Launches per UTC day. */
  daily: number;
}

/**
 * The plan's concurrent and daily search limits (DESIGN.md §8), with the workspace's own
 * concurrency override (workspaces.max_concurrent_searches) when it has one.
 */
export async function searchLimits(trx: Db, workspace: Pick<Workspace, 'plan' | 'max_concurrent_searches'>): Promise<SearchLimits> {
  const plan = workspace.plan ? await planRepository(trx).find(workspace.plan) : undefined;
  return {
    concurrent: workspace.max_concurrent_searches ?? plan?.max_concurrent_searches ?? DEFAULT_MAX_CONCURRENT_SEARCHES,
    daily: plan?.max_daily_searches ?? DEFAULT_MAX_LAUNCHES_PER_DAY,
  };
}

export interface LaunchRequest {
  workspace: Workspace;
  /** The calling key, or for the session API (scans) no key and the workspace bucket. */
  key: Pick<ApiKey, 'funding_mode'> & { id: string | null };
  projectId: string;
  idempotencyKey: string;
  /** The validated body (searches.schemas.ts `launchBody`): resolved criteria or a job description. */
  body: LaunchBody;
  baseUrl: string;
  /** The call's X-Request-Id, carried by its cost event. */
  requestId?: string | null;
  /** For the live source: the server-wide key and the circuit breaker's settings. */
  config: Config;
  /** Reads `jd_text` off the event loop (ApiDeps.briefReader). */
  reader: BriefReader;
}

export interface LaunchResult {
  search: SearchRow;
  reused: boolean;
}

export const reserveKey = (searchId: string, pass: number) => `search:${searchId}:pass:${pass}:reserve`;
export const refundKey = (searchId: string, pass: number) => `search:${searchId}:pass:${pass}:refund`;

interface LaunchCriteria {
  criteria: ResolvedCriteria;
  jdText: string | null;
  confidence: Record<string, number> | null;
}

/** Criteria from the request, or from the job description through the built-in reader. */
async function resolveCriteria(body: LaunchBody, reader: BriefReader): Promise<LaunchCriteria> {
  if (body.criteria) return { criteria: body.criteria, jdText: null, confidence: null };
  return criteriaOfBrief(body.jd_text ?? '', await reader.read(body.jd_text ?? ''));
}

function criteriaOfBrief(jdText: string, extraction: Extraction): LaunchCriteria {
  const parsed = parseCriteria(extraction.criteria);
  if (!parsed.ok) {
    // The reader proposes only reference values, so this is a brief with no role, title, skill or
    // industry in it: nothing to search on. Say what was read, so the caller can add the role.
    const read = Object.keys(extraction.criteria);
    throw new AppError(
      'invalid_criteria',
      400,
      `The job description names no role, title, skill or industry the reader knows${read.length ? ` (it read only: ${read.join(', ')})` : ''}; ` +
        'name the role (e.g. "senior backend engineer") or send criteria: ' +
        parsed.problems.map((p) => `${p.field}: ${p.message}`).join('; '),
      {
        problems: parsed.problems,
        extracted: extraction.criteria,
        confidence: extraction.confidence,
      },
    );
  }
  return { criteria: parsed.criteria, jdText, confidence: extraction.confidence };
}

/** The `source` a search records for its mode. */
const SOURCE_OF_MODE: Record<SearchMode, string> = { database_only: 'database', live: 'peopledatalabs' };

const hasLiveSource = async (trx: Db, config: Config, workspaceId: string) => (await resolveProviderKey(trx, config, workspaceId, 'peopledatalabs')) !== null;

/**
 * The mode a launch runs in (DESIGN.md §9). Live needs a People Data Labs key (the workspace's
 * credential or the server key; the built-in database is not a live source) and a closed circuit.
 * Without a mode, live when such a key exists, else database-only.
 */
async function resolveMode(trx: Db, config: Config, workspaceId: string, requested: SearchMode | undefined): Promise<SearchMode> {
  const hasSource = await hasLiveSource(trx, config, workspaceId);
  const mode = requested ?? (hasSource ? 'live' : 'database_only');
  if (mode === 'live') await refuseUnlessLiveRuns(trx, config, hasSource);
  return mode;
}

/**
 * 424 unless a live pass can run now: provider_unavailable without a People Data Labs key,
 * search_unavailable while its circuit is open. Checked before any credit is reserved, at launch
 * and at each expansion of a live search (the key may have been deleted since).
 */
export async function ensureLiveSearchPossible(trx: Db, config: Config, workspaceId: string): Promise<void> {
  await refuseUnlessLiveRuns(trx, config, await hasLiveSource(trx, config, workspaceId));
}

async function refuseUnlessLiveRuns(trx: Db, config: Config, hasSource: boolean): Promise<void> {
  if (!hasSource) throw providerUnavailable('live search', ['peopledatalabs']);
  await circuitBreaker(trx, config).ensureClosed('peopledatalabs');
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
 * The search an earlier launch with this idempotency key made, when there is one: a replay
 * (same route, project and body) answers it; any other use of the key is 409.
 */
async function replayOf(db: Db, workspaceId: string, projectId: string, idempotencyKey: string, bodyHash: string): Promise<LaunchResult | undefined> {
  const previous = await idempotencyKeyRepository(db).find(workspaceId, idempotencyKey);
  if (!previous) return undefined;
  if (previous.route !== LAUNCH_ROUTE || previous.project_id !== projectId || previous.body_hash !== bodyHash) {
    throw new AppError('idempotency_key_reused', 409, 'This Idempotency-Key was used for a different project or body; nothing was launched or charged');
  }
  return { search: (await searchRepository(db).find(previous.search_id!))!, reused: true };
}

async function projectOf(db: Db, workspaceId: string, projectId: string) {
  const project = await projectRepository(db).findInWorkspace(workspaceId, projectId);
  if (!project) throw new AppError('project_not_found', 404, 'Project not found');
  return project;
}

/**
 * Launches a search, exactly once per idempotency key. A replay is answered before anything is
 * read (a job description is not read again); a brief is read outside the transaction, on the
 * reader's threads, so no lock waits for it. Then, under the workspace row lock: the replay check
 * again, plan/limit/credit checks, the search row, the idempotency record, the credit reservation
 * and the search.queued event, all in one transaction. Simultaneous identical launches queue on
 * the lock and all but the first find the idempotency record.
 */
export async function launchSearch(db: Db, req: LaunchRequest): Promise<LaunchResult> {
  const { idempotencyKey, body } = req;
  // The validated body: equal criteria hash alike however they were spelled (key order, case).
  const bodyHash = createHash('sha256').update(canonicalJson(body)).digest('hex');
  const known = await projectOf(db, req.workspace.id, req.projectId);
  const replay = await replayOf(db, req.workspace.id, known.id, idempotencyKey, bodyHash);
  if (replay) return replay;
  const read = await resolveCriteria(body, req.reader);
  // A lookalike search's examples fill what the request left out (reads only; outside the lock).
  const resolved = { ...read, criteria: await withExamples(db, req.workspace.id, read.criteria) };

  return db.transaction(async (trx) => {
    const searches = searchRepository(trx);
    const idempotencyKeys = idempotencyKeyRepository(trx);
    const workspace = await workspaceRepository(trx).lock(req.workspace.id);
    const project = await projectOf(trx, workspace.id, req.projectId);
    // A simultaneous identical launch may have committed while this one read its brief.
    const concurrent = await replayOf(trx, workspace.id, project.id, idempotencyKey, bodyHash);
    if (concurrent) return concurrent;

    planCheck(workspace);
    const mode = await resolveMode(trx, req.config, workspace.id, resolved.criteria.mode);
    const { jdText, confidence } = resolved;
    const criteria: ResolvedCriteria = { ...resolved.criteria, mode };

    const limits = await searchLimits(trx, workspace);
    if ((await searches.launchedToday(workspace.id)) >= limits.daily) {
      const retryAfter = 86_400 - (Math.floor(Date.now() / 1000) % 86_400);
      throw new AppError(
        'daily_search_limit',
        429,
        `At most ${limits.daily} searches can be launched per UTC day on the ${workspace.plan} plan`,
        { retry_after_seconds: retryAfter, limit: limits.daily },
        { 'Retry-After': String(retryAfter) },
      );
    }
    const { running, queued } = await searches.activeCounts(workspace.id);
    if (queued >= MAX_QUEUED_SEARCHES) {
      throw new AppError(
        'concurrent_search_limit',
        429,
        `${queued} searches are already waiting for a slot; retry when some have finished`,
        { retry_after_seconds: 30, running, queued },
        { 'Retry-After': '30' },
      );
    }

    const bucket = req.key.funding_mode;
    const ledger = creditLedgerRepository(trx);
    await requireCredit(trx, workspace.id, bucket);

    const search = await searches.insert({
      id: randomUUID(),
      workspace_id: workspace.id,
      project_id: project.id,
      api_key_id: req.key.id,
      status: 'queued',
      source: SOURCE_OF_MODE[mode],
      criteria,
      jd_text: jdText,
      jd_confidence: confidence,
      funding_bucket: bucket,
    });
    await searchPassRepository(trx).insert({
      search_id: search.id,
      pass: 1,
      kind: 'launch',
      criteria,
      status: 'queued',
      workflow_id: workflowIds.searchPass(search.id, 1),
    });
    await idempotencyKeys.insert({
      workspace_id: workspace.id,
      key: idempotencyKey,
      route: LAUNCH_ROUTE,
      project_id: project.id,
      body_hash: bodyHash,
      search_id: search.id,
    });
    await ledger.append({ workspaceId: workspace.id, bucket, delta: -1, reason: 'search:launch', uniqueKey: reserveKey(search.id, 1) });
    await costEventRepository(trx).record({
      workspaceId: workspace.id,
      requestId: req.requestId ?? null,
      action: LAUNCH_ROUTE,
      keyId: req.key.id,
      credits: 1,
      uniqueKey: reserveKey(search.id, 1),
    });
    // Only a launch that has to wait its turn is "queued" for subscribers.
    if (running + queued >= limits.concurrent) {
      await writeEvent(trx, {
        workspaceId: workspace.id,
        type: 'search.queued',
        data: searchEventData(search, req.baseUrl),
        dedupeKey: `search.queued:${search.id}:1`,
      });
    }
    return { search, reused: false };
  });
}
