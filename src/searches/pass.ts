import { randomUUID } from 'node:crypto';
import { creditLedgerRepository } from '../db/credit-ledger.repository';
import type { Db } from '../db/knex';
import type { Outcome, SearchRow, SearchStatus, StopReason } from '../db/search.repository';
import type { ResolvedCriteria } from '../domain/criteria';
import type { Workspace } from '../db/workspace.repository';
import { scoreProfile } from '../domain/scoring';
import { AppError } from '../domain/errors';
import { writeEvent } from '../events/outbox';
import { PAGE_SIZE, type ProfileSource } from '../providers/profile-source';
import { refundKey, reserveKey } from './launch';
import { searchEventData } from './view';
import { workflowIds } from '../temporal/workflow-ids';
import { shortlistSnapshot, writeShortlistChanged } from '../shortlist/shortlist';

/**
 * The steps of one search pass, each safe to run again (Temporal retries activities): the slot
 * claim, one page at a time, and the completion or failure. Postgres holds the state; every step
 * changes it in one transaction together with the events it causes.
 */

export interface PassRef {
  searchId: string;
  pass: number;
}

export interface PageOutcome {
  returned: number;
  read: number;
  profilesRead: number;
  delivered: number;
  shortlisted: number;
  /** Set when the pass should stop after this page. */
  stop: StopReason | null;
}

/** Candidate ids are stable per (project, person): the same person in two searches is one candidate. */
async function candidateIds(trx: Db, projectId: string, personIds: string[]): Promise<Map<string, string>> {
  if (personIds.length === 0) return new Map();
  await trx('candidates')
    .insert(personIds.map((personId) => ({ id: randomUUID(), project_id: projectId, person_id: personId })))
    .onConflict(['project_id', 'person_id'])
    .ignore();
  const rows: { id: string; person_id: string }[] = await trx('candidates').where({ project_id: projectId }).whereIn('person_id', personIds).select('id', 'person_id');
  return new Map(rows.map((r) => [r.person_id, r.id]));
}


/**
 * Takes a running slot for the pass when the workspace has one free and no older search waits
 * (FIFO). Slots are counted from search rows under the workspace row lock, so they heal
 * themselves: a search that ends, however it ends, frees its slot.
 */
export async function claimSlot(db: Db, ref: PassRef, baseUrl: string): Promise<{ claimed: boolean }> {
  return db.transaction(async (trx) => {
    // A search that is gone or no longer waiting never gets a slot: AppErrors are not retried.
    const search: SearchRow | undefined = await trx('searches').where({ id: ref.searchId }).first();
    if (!search) throw new AppError('search_not_found', 404, `search ${ref.searchId} does not exist, cannot start pass ${ref.pass}`);
    const workspace: Workspace = await trx('workspaces').where({ id: search.workspace_id }).forUpdate().first();
    const current: SearchRow = await trx('searches').where({ id: ref.searchId }).first();
    if (current.status === 'running') return { claimed: true }; // a retried claim
    if (current.status !== 'queued') throw new AppError('search_not_queued', 409, `search ${ref.searchId} is ${current.status}, cannot start pass ${ref.pass}`);
    const [{ running }] = await trx('searches').where({ workspace_id: workspace.id, status: 'running' }).count({ running: '*' });
    const older = await trx('searches')
      .where({ workspace_id: workspace.id, status: 'queued' })
      .andWhere((q) => q.where('created_at', '<', current.created_at).orWhere((q2) => q2.where('created_at', '=', current.created_at).andWhere('id', '<', current.id)))
      .first('id');
    if (Number(running) >= workspace.max_concurrent_searches || older) return { claimed: false };
    const [started]: SearchRow[] = await trx('searches').where({ id: ref.searchId }).update({ status: 'running', started_at: trx.raw('coalesce(started_at, now())') }).returning('*');
    await trx('search_passes').where({ search_id: ref.searchId, pass: ref.pass }).update({ status: 'running' });
    await writeEvent(trx, { workspaceId: workspace.id, type: 'search.started', data: searchEventData(started, baseUrl), dedupeKey: `search.started:${ref.searchId}:${ref.pass}` });
    return { claimed: true };
  });
}

export interface PassRow {
  search_id: string;
  pass: number;
  kind: 'launch' | 'expansion' | 'database_pass';
  level: number | null;
  criteria: ResolvedCriteria;
  broadening: unknown;
  status: SearchStatus;
  profiles_read: number;
  delivered: number;
  shortlisted: number;
  stop_reason: StopReason | null;
  outcome: Outcome | null;
  previous: Pick<SearchRow, 'outcome' | 'stop_reason' | 'closed_at'> | null;
}

const findPass = (db: Db, ref: PassRef): Promise<PassRow> => db('search_passes').where({ search_id: ref.searchId, pass: ref.pass }).first();

/** The pass reads within its own budget; the target counts everyone the search has shortlisted. */
function stopReasonAfter(search: SearchRow, pass: PassRow, returned: number): StopReason | null {
  if (search.shortlisted >= pass.criteria.target) return 'target_reached';
  if (returned < PAGE_SIZE) return 'pool_exhausted';
  if (pass.profiles_read >= pass.criteria.read_budget) return 'read_budget_reached';
  return null;
}

const outcomeOf = (search: SearchRow, pass: PassRow, returned: number, read: number): PageOutcome => ({
  returned,
  read,
  profilesRead: search.profiles_read,
  delivered: search.delivered,
  shortlisted: search.shortlisted,
  stop: stopReasonAfter(search, pass, returned),
});

/**
 * One result page: fetch it, read profiles while the pass's budget lasts, score them,
 * auto-shortlist at the threshold up to the target, and record everyone returned who is new to
 * the search (people found by an earlier pass stay as they are). A page already recorded (a
 * retried activity) is not processed again.
 */
export async function processPage(db: Db, source: ProfileSource, ref: PassRef & { page: number }, heartbeat: () => void = () => undefined): Promise<PageOutcome> {
  const [search, pass]: [SearchRow, PassRow] = await Promise.all([db('searches').where({ id: ref.searchId }).first(), findPass(db, ref)]);
  const done = await db('search_pages').where({ search_id: ref.searchId, pass: ref.pass, page: ref.page }).first();
  if (done) return outcomeOf(search, pass, done.returned, done.read);

  const { criteria } = pass;
  const results = await source.searchPage(criteria, ref.page, PAGE_SIZE);
  heartbeat();
  const known = new Set<string>(
    (await db('search_people').where({ search_id: ref.searchId }).whereIn('person_id', results.map((r) => r.person_id)).select('person_id')).map((r: { person_id: string }) => r.person_id),
  );
  const fresh = results.filter((r) => !known.has(r.person_id));
  const budget = Math.max(0, criteria.read_budget - pass.profiles_read);
  const profiles = await source.readProfiles(fresh.slice(0, budget).map((r) => r.person_id));
  heartbeat();

  return db.transaction(async (trx) => {
    const locked: SearchRow = await trx('searches').where({ id: ref.searchId }).forUpdate().first();
    const lockedPass = await findPass(trx, ref);
    const again = await trx('search_pages').where({ search_id: ref.searchId, pass: ref.pass, page: ref.page }).first();
    if (again) return outcomeOf(locked, lockedPass, again.returned, again.read);

    const ids = await candidateIds(trx, locked.project_id, fresh.map((r) => r.person_id));
    const alreadyListed = new Set<string>(
      (await trx('shortlist_members').where({ project_id: locked.project_id }).whereIn('candidate_id', [...ids.values()]).select('candidate_id')).map((r: { candidate_id: string }) => r.candidate_id),
    );
    const [{ maxSeq }] = await trx('search_people').where({ search_id: ref.searchId }).max({ maxSeq: 'seq' });
    let seq = Number(maxSeq ?? 0);
    let read = 0;
    let shortlisted = locked.shortlisted;
    const rows = [];
    const toShortlist: string[] = [];
    const weights = locked.scoring_weights ?? undefined;
    for (const result of fresh) {
      const profile = profiles.get(result.person_id);
      const canRead = profile && read < budget && shortlisted < criteria.target;
      const candidateId = ids.get(result.person_id)!;
      let score: number | null = null;
      let breakdown: unknown = null;
      if (canRead) {
        read += 1;
        const scored = scoreProfile(profile, criteria, weights);
        score = scored.score;
        breakdown = scored.breakdown;
        if (score >= criteria.shortlist_threshold && shortlisted < criteria.target && !alreadyListed.has(candidateId)) {
          toShortlist.push(candidateId);
          shortlisted += 1;
        }
      }
      const { person_id: _omit, ...summary } = result;
      rows.push({
        search_id: ref.searchId,
        candidate_id: candidateId,
        person_id: result.person_id,
        seq: ++seq,
        pass: ref.pass,
        page: ref.page,
        status: canRead ? 'scored' : 'not_read',
        score,
        score_breakdown: breakdown === null ? null : JSON.stringify(breakdown),
        summary: JSON.stringify(summary),
        profile: canRead ? JSON.stringify(profile) : null,
        read_at: canRead ? trx.fn.now() : null,
      });
    }
    if (rows.length) await trx('search_people').insert(rows);
    // Someone already on the project's shortlist stays as they were; only new members count.
    let added = 0; // equals toShortlist.length unless a concurrent add won the race
    if (toShortlist.length) {
      await trx('projects').where({ id: locked.project_id }).forUpdate().first(); // shortlist changes serialise on the project
      const inserted = await trx('shortlist_members')
        .insert(toShortlist.map((candidateId) => ({ project_id: locked.project_id, candidate_id: candidateId, search_id: ref.searchId, pass: ref.pass, source: ref.pass === 1 ? 'search' : 'expansion' })))
        .onConflict(['project_id', 'candidate_id'])
        .ignore()
        .returning('candidate_id');
      added = inserted.length;
    }
    const [updated]: SearchRow[] = await trx('searches')
      .where({ id: ref.searchId })
      .update({
        profiles_read: locked.profiles_read + read,
        delivered: locked.delivered + read,
        shortlisted: locked.shortlisted + added,
        pages_fetched: locked.pages_fetched + 1,
      })
      .returning('*');
    const [updatedPass]: PassRow[] = await trx('search_passes')
      .where({ search_id: ref.searchId, pass: ref.pass })
      .update({ profiles_read: lockedPass.profiles_read + read, delivered: lockedPass.delivered + read, shortlisted: lockedPass.shortlisted + added })
      .returning('*');
    await trx('search_pages').insert({ search_id: ref.searchId, pass: ref.pass, page: ref.page, returned: results.length, read });
    return outcomeOf(updated, updatedPass, results.length, read);
  });
}

/** The search's outcome after a pass: its totals against the target the pass ran with. */
export function outcomeFor(search: SearchRow, criteria: ResolvedCriteria): Outcome {
  if (search.delivered === 0) return 'No results';
  return search.shortlisted >= criteria.target ? 'Shortlist ready' : 'Poor yield';
}

/** Workflow ids of searches waiting in the workspace, oldest first, to wake when a slot frees. */
async function waitingWorkflows(trx: Db, workspaceId: string): Promise<string[]> {
  const rows: { id: string; pass_count: number }[] = await trx('searches').where({ workspace_id: workspaceId, status: 'queued' }).orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(10).select('id', 'pass_count');
  return rows.map((r) => workflowIds.searchPass(r.id, r.pass_count));
}

/** Workflow ids waiting for a slot in the search's workspace: woken when a pass that held one ends. */
export async function waitingForSlot(db: Db, searchId: string): Promise<string[]> {
  const search: SearchRow = await db('searches').where({ id: searchId }).first();
  return waitingWorkflows(db, search.workspace_id);
}

/** Closes the pass: status, outcome, stop reason; search.completed and, when the list changed, shortlist.changed. */
export async function completePass(db: Db, ref: PassRef & { stopReason: StopReason }, baseUrl: string): Promise<{ wake: string[] }> {
  return db.transaction(async (trx) => {
    const search: SearchRow = await trx('searches').where({ id: ref.searchId }).forUpdate().first();
    if (search.status === 'running') {
      const outcome = outcomeFor(search, (await findPass(trx, ref)).criteria);
      const [closed]: SearchRow[] = await trx('searches')
        .where({ id: ref.searchId })
        .update({ status: 'complete', outcome, stop_reason: ref.stopReason, closed_at: trx.fn.now() })
        .returning('*');
      await trx('search_passes').where({ search_id: ref.searchId, pass: ref.pass }).update({ status: 'complete', outcome, stop_reason: ref.stopReason, closed_at: trx.fn.now() });
      await writeEvent(trx, { workspaceId: closed.workspace_id, type: 'search.completed', data: searchEventData(closed, baseUrl), dedupeKey: `search.completed:${closed.id}:${ref.pass}` });
      const added: string[] = (await trx('shortlist_members').where({ search_id: closed.id, pass: ref.pass }).select('candidate_id')).map((r: { candidate_id: string }) => r.candidate_id);
      if (added.length) {
        await writeShortlistChanged(trx, {
          workspaceId: closed.workspace_id,
          projectId: closed.project_id,
          searchId: closed.id,
          kind: 'pass',
          source: ref.pass === 1 ? 'search' : 'expansion',
          before: await shortlistSnapshot(trx, closed.project_id, added),
          after: await shortlistSnapshot(trx, closed.project_id),
          dedupeKey: `shortlist.changed:search:${closed.id}:${ref.pass}`,
          baseUrl,
        });
      }
    }
    return { wake: await waitingWorkflows(trx, search.workspace_id) };
  });
}

/**
 * A failed pass gives its credit back exactly once. A failed launch leaves the search failed
 * (outcome null, search.failed); a failed later pass puts the search back as it was before it.
 */
export async function failPass(db: Db, ref: PassRef & { reason: string; stopReason?: StopReason }, baseUrl: string): Promise<{ wake: string[] }> {
  return db.transaction(async (trx) => {
    const search: SearchRow = await trx('searches').where({ id: ref.searchId }).forUpdate().first();
    const pass = await findPass(trx, ref);
    if (pass.status === 'queued' || pass.status === 'running') {
      const stopReason = ref.stopReason ?? 'error';
      await trx('search_passes').where({ search_id: ref.searchId, pass: ref.pass }).update({ status: 'failed', stop_reason: stopReason, failure_reason: ref.reason.slice(0, 500), closed_at: trx.fn.now() });
      const reserved = await trx('credit_ledger').where({ unique_key: reserveKey(search.id, ref.pass) }).first();
      if (reserved) {
        await creditLedgerRepository(trx).append({ workspaceId: search.workspace_id, bucket: reserved.bucket, delta: -reserved.delta, reason: 'search:refund', uniqueKey: refundKey(search.id, ref.pass) });
      }
      if (ref.pass === 1) {
        const [failed]: SearchRow[] = await trx('searches')
          .where({ id: ref.searchId })
          .update({ status: 'failed', outcome: null, stop_reason: stopReason, failure_reason: ref.reason.slice(0, 500), closed_at: trx.fn.now() })
          .returning('*');
        await writeEvent(trx, { workspaceId: failed.workspace_id, type: 'search.failed', data: searchEventData(failed, baseUrl), dedupeKey: `search.failed:${failed.id}:${ref.pass}` });
      } else {
        await trx('searches').where({ id: ref.searchId }).update({ status: 'complete', ...(pass.previous ?? {}) });
      }
    }
    return { wake: await waitingWorkflows(trx, search.workspace_id) };
  });
}
