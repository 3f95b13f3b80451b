import { randomUUID } from 'node:crypto';
import { creditLedgerRepository } from '../db/credit-ledger.repository';
import type { Db } from '../db/knex';
import type { Outcome, SearchRow, StopReason } from '../db/search.repository';
import type { Workspace } from '../db/workspace.repository';
import { scoreProfile } from '../domain/scoring';
import { writeEvent } from '../events/outbox';
import { PAGE_SIZE, type ProfileSource } from '../providers/profile-source';
import { refundKey, reserveKey } from './launch';
import { searchEventData } from './view';
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

export const searchWorkflowId = (searchId: string, pass: number) => `search-${searchId}-pass-${pass}`;

/**
 * Takes a running slot for the pass when the workspace has one free and no older search waits
 * (FIFO). Slots are counted from search rows under the workspace row lock, so they heal
 * themselves: a search that ends, however it ends, frees its slot.
 */
export async function claimSlot(db: Db, ref: PassRef, baseUrl: string): Promise<{ claimed: boolean }> {
  return db.transaction(async (trx) => {
    const search: SearchRow = await trx('searches').where({ id: ref.searchId }).first();
    const workspace: Workspace = await trx('workspaces').where({ id: search.workspace_id }).forUpdate().first();
    const current: SearchRow = await trx('searches').where({ id: ref.searchId }).first();
    if (current.status === 'running') return { claimed: true }; // a retried claim
    if (current.status !== 'queued') throw new Error(`search ${ref.searchId} is ${current.status}, cannot start pass ${ref.pass}`);
    const [{ running }] = await trx('searches').where({ workspace_id: workspace.id, status: 'running' }).count({ running: '*' });
    const older = await trx('searches')
      .where({ workspace_id: workspace.id, status: 'queued' })
      .andWhere((q) => q.where('created_at', '<', current.created_at).orWhere((q2) => q2.where('created_at', '=', current.created_at).andWhere('id', '<', current.id)))
      .first('id');
    if (Number(running) >= workspace.max_concurrent_searches || older) return { claimed: false };
    const [started]: SearchRow[] = await trx('searches').where({ id: ref.searchId }).update({ status: 'running', started_at: trx.fn.now() }).returning('*');
    await writeEvent(trx, { workspaceId: workspace.id, type: 'search.started', data: searchEventData(started, baseUrl), dedupeKey: `search.started:${ref.searchId}:${ref.pass}` });
    return { claimed: true };
  });
}

function stopReasonAfter(search: SearchRow, returned: number): StopReason | null {
  if (search.shortlisted >= search.criteria.target) return 'target_reached';
  if (returned < PAGE_SIZE) return 'pool_exhausted';
  if (search.profiles_read >= search.criteria.read_budget) return 'read_budget_reached';
  return null;
}

const outcomeOf = (search: SearchRow): PageOutcome => ({
  returned: 0,
  read: 0,
  profilesRead: search.profiles_read,
  delivered: search.delivered,
  shortlisted: search.shortlisted,
  stop: null,
});

/**
 * One result page: fetch it, read profiles while the budget lasts, score them, auto-shortlist at
 * the threshold up to the target, and record everyone returned. A page already recorded (a
 * retried activity) is not processed again.
 */
export async function processPage(db: Db, source: ProfileSource, ref: PassRef & { page: number }, heartbeat: () => void = () => undefined): Promise<PageOutcome> {
  const search: SearchRow = await db('searches').where({ id: ref.searchId }).first();
  const done = await db('search_pages').where({ search_id: ref.searchId, pass: ref.pass, page: ref.page }).first();
  if (done) return { ...outcomeOf(search), returned: done.returned, read: done.read, stop: stopReasonAfter(search, done.returned) };

  const { criteria } = search;
  const results = await source.searchPage(criteria, ref.page, PAGE_SIZE);
  heartbeat();
  const known = new Set<string>(
    (await db('search_people').where({ search_id: ref.searchId }).whereIn('person_id', results.map((r) => r.person_id)).select('person_id')).map((r: { person_id: string }) => r.person_id),
  );
  const fresh = results.filter((r) => !known.has(r.person_id));
  const budget = Math.max(0, criteria.read_budget - search.profiles_read);
  const profiles = await source.readProfiles(fresh.slice(0, budget).map((r) => r.person_id));
  heartbeat();

  return db.transaction(async (trx) => {
    const locked: SearchRow = await trx('searches').where({ id: ref.searchId }).forUpdate().first();
    const again = await trx('search_pages').where({ search_id: ref.searchId, pass: ref.pass, page: ref.page }).first();
    if (again) return { ...outcomeOf(locked), returned: again.returned, read: again.read, stop: stopReasonAfter(locked, again.returned) };

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
    for (const result of fresh) {
      const profile = profiles.get(result.person_id);
      const canRead = profile && read < budget && shortlisted < criteria.target;
      const candidateId = ids.get(result.person_id)!;
      let score: number | null = null;
      let breakdown: unknown = null;
      if (canRead) {
        read += 1;
        const scored = scoreProfile(profile, criteria);
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
        .insert(toShortlist.map((candidateId) => ({ project_id: locked.project_id, candidate_id: candidateId, search_id: ref.searchId, pass: ref.pass, source: 'search' })))
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
    await trx('search_pages').insert({ search_id: ref.searchId, pass: ref.pass, page: ref.page, returned: results.length, read });
    return { returned: results.length, read, profilesRead: updated.profiles_read, delivered: updated.delivered, shortlisted: updated.shortlisted, stop: stopReasonAfter(updated, results.length) };
  });
}

function outcomeFor(search: SearchRow): Outcome {
  if (search.delivered === 0) return 'No results';
  return search.shortlisted >= search.criteria.target ? 'Shortlist ready' : 'Poor yield';
}

/** Workflow ids of searches waiting in the workspace, oldest first, to wake when a slot frees. */
async function waitingWorkflows(trx: Db, workspaceId: string): Promise<string[]> {
  const rows: { id: string; pass_count: number }[] = await trx('searches').where({ workspace_id: workspaceId, status: 'queued' }).orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(10).select('id', 'pass_count');
  return rows.map((r) => searchWorkflowId(r.id, r.pass_count));
}

/** Closes the pass: status, outcome, stop reason; search.completed and, when the list changed, shortlist.changed. */
export async function completePass(db: Db, ref: PassRef & { stopReason: StopReason }, baseUrl: string): Promise<{ wake: string[] }> {
  return db.transaction(async (trx) => {
    const search: SearchRow = await trx('searches').where({ id: ref.searchId }).forUpdate().first();
    if (search.status === 'running') {
      const [closed]: SearchRow[] = await trx('searches')
        .where({ id: ref.searchId })
        .update({ status: 'complete', outcome: outcomeFor(search), stop_reason: ref.stopReason, closed_at: trx.fn.now() })
        .returning('*');
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

/** Marks the pass failed (outcome null), gives its credit back exactly once, emits search.failed. */
export async function failPass(db: Db, ref: PassRef & { reason: string; stopReason?: StopReason }, baseUrl: string): Promise<{ wake: string[] }> {
  return db.transaction(async (trx) => {
    const search: SearchRow = await trx('searches').where({ id: ref.searchId }).forUpdate().first();
    if (search.status === 'queued' || search.status === 'running') {
      const [failed]: SearchRow[] = await trx('searches')
        .where({ id: ref.searchId })
        .update({ status: 'failed', outcome: null, stop_reason: ref.stopReason ?? 'error', failure_reason: ref.reason.slice(0, 500), closed_at: trx.fn.now() })
        .returning('*');
      const reserved = await trx('credit_ledger').where({ unique_key: reserveKey(search.id, ref.pass) }).first();
      if (reserved) {
        await creditLedgerRepository(trx).append({ workspaceId: search.workspace_id, bucket: reserved.bucket, delta: -reserved.delta, reason: 'search:refund', uniqueKey: refundKey(search.id, ref.pass) });
      }
      await writeEvent(trx, { workspaceId: failed.workspace_id, type: 'search.failed', data: searchEventData(failed, baseUrl), dedupeKey: `search.failed:${failed.id}:${ref.pass}` });
    }
    return { wake: await waitingWorkflows(trx, search.workspace_id) };
  });
}
