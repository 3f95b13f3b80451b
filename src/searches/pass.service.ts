import { costEventRepository } from '../db/cost-event.repository';
import { creditLedgerRepository } from '../db/credit-ledger.repository';
import type { Db } from '../db/knex';
import { projectRepository } from '../db/project.repository';
import { searchPassRepository } from '../db/search-pass.repository';
import { searchPeopleRepository, type NewSearchPerson } from '../db/search-people.repository';
import { searchRepository, type Outcome, type PassRow, type SearchRow, type StopReason } from '../db/search.repository';
import { shortlistRepository } from '../db/shortlist.repository';
import { workspaceRepository } from '../db/workspace.repository';
import type { ResolvedCriteria } from '../domain/criteria';
import type { PersonProfile } from '../domain/profile';
import { scoreProfile } from '../ranking/scoring';
import { AppError } from '../domain/errors';
import { writeEvent } from '../events/outbox';
import { PAGE_SIZE, type ProfileSource } from '../providers/profile-source';
import { refundKey, reserveKey, searchLimits } from './launch.service';
import { searchEventData } from './searches.presenter';
import { workflowIds } from '../temporal/workflow-ids';
import { shortlistSnapshot, writeShortlistChanged } from '../shortlist/shortlist.service';

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

/**
 * Takes a running slot for the pass when the workspace has one free and no older search waits
 * (FIFO). Slots are counted from search rows under the workspace row lock, so they heal
 * themselves: a search that ends, however it ends, frees its slot.
 */
export async function claimSlot(db: Db, ref: PassRef, baseUrl: string): Promise<{ claimed: boolean }> {
  return db.transaction(async (trx) => {
    const searches = searchRepository(trx);
    // A search that is gone or no longer waiting never gets a slot: AppErrors are not retried.
    const search = await searches.find(ref.searchId);
    if (!search) throw new AppError('search_not_found', 404, `search ${ref.searchId} does not exist, cannot start pass ${ref.pass}`);
    const workspace = await workspaceRepository(trx).lock(search.workspace_id);
    // A claim that runs again (a retried activity, or a local one re-run because its result was
    // never recorded) finds its pass past `queued`, even closed: it was claimed, and the later
    // steps see for themselves what state the pass is in.
    if ((await findPass(trx, ref)).status !== 'queued') return { claimed: true };
    const current = (await searches.find(ref.searchId))!;
    if (current.status !== 'queued') throw new AppError('search_not_queued', 409, `search ${ref.searchId} is ${current.status}, cannot start pass ${ref.pass}`);
    const running = await searches.runningCount(workspace.id);
    if (running >= (await searchLimits(trx, workspace)).concurrent || (await searches.olderQueuedExists(current))) return { claimed: false };
    const started = await searches.markRunning(ref.searchId);
    await searchPassRepository(trx).update(ref.searchId, ref.pass, { status: 'running' });
    await writeEvent(trx, {
      workspaceId: workspace.id,
      type: 'search.started',
      data: searchEventData(started, baseUrl),
      dedupeKey: `search.started:${ref.searchId}:${ref.pass}`,
    });
    return { claimed: true };
  });
}

const findPass = async (db: Db, ref: PassRef): Promise<PassRow> => (await searchPassRepository(db).find(ref.searchId, ref.pass))!;

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
 * A page of a pass that is no longer running reads nothing: a completed pass answers its own stop
 * (a step re-run after the completion, whose results were not recorded, ends where it ended), a
 * failed one refuses, so the workflow records the failure rather than a completion.
 */
function closedPassOutcome(search: SearchRow, pass: PassRow): PageOutcome | null {
  if (pass.status === 'running') return null;
  if (pass.status === 'complete')
    return {
      returned: 0,
      read: 0,
      profilesRead: search.profiles_read,
      delivered: search.delivered,
      shortlisted: search.shortlisted,
      stop: pass.stop_reason ?? 'pool_exhausted',
    };
  throw new AppError('pass_not_running', 409, `pass ${pass.pass} of search ${search.id} is ${pass.status}, not running`);
}

/**
 * The profiles a page reads, in result order. A source that bills each read (`billedReadBatch`)
 * is asked only for as many as could still fill the shortlist, scoring each batch before the
 * next, so people past the target are not read (they are recorded `not_read`, as the page's
 * transaction would leave them anyway); people already on the project's list fill nothing. The
 * page's transaction scores again under the search lock and decides.
 */
async function readProfilesForPage(
  db: Db,
  source: ProfileSource,
  search: SearchRow,
  criteria: ResolvedCriteria,
  ids: string[],
  heartbeat: () => void,
): Promise<Map<string, PersonProfile>> {
  const batch = source.billedReadBatch;
  if (batch === undefined || ids.length === 0) {
    const profiles = await source.readProfiles(ids);
    heartbeat();
    return profiles;
  }
  const listed = await shortlistRepository(db).listedPeople(search.project_id, ids);
  const weights = search.scoring_weights ?? undefined;
  const profiles = new Map<string, PersonProfile>();
  let places = criteria.target - search.shortlisted; // shortlist places this page could still fill
  for (let next = 0; next < ids.length && places > 0;) {
    const asked = ids.slice(next, next + Math.min(batch, places));
    next += asked.length;
    const read = await source.readProfiles(asked);
    heartbeat();
    for (const id of asked) {
      const profile = read.get(id);
      if (!profile) continue;
      profiles.set(id, profile);
      if (!listed.has(id) && scoreProfile(profile, criteria, weights).score >= criteria.shortlist_threshold) places -= 1;
    }
  }
  return profiles;
}

/**
 * One result page: fetch it, read profiles while the pass's budget lasts (and, from a source
 * that bills each read, while the shortlist can still fill: readProfilesForPage), score them,
 * auto-shortlist at the threshold up to the target, and record everyone returned who is new to
 * the search (people found by an earlier pass stay as they are). A page already recorded (a
 * retried activity) is not processed again.
 */
export async function processPage(
  db: Db,
  source: ProfileSource,
  ref: PassRef & { page: number },
  heartbeat: () => void = () => undefined,
): Promise<PageOutcome> {
  const people = searchPeopleRepository(db);
  const [search, pass] = await Promise.all([
    searchRepository(db)
      .find(ref.searchId)
      .then((s) => s!),
    findPass(db, ref),
  ]);
  const closed = closedPassOutcome(search, pass);
  if (closed) return closed;
  const done = await people.processedPage(ref.searchId, ref.pass, ref.page);
  if (done) return outcomeOf(search, pass, done.returned, done.read);

  const { criteria } = pass;
  const results = await source.searchPage(criteria, ref.page, PAGE_SIZE);
  heartbeat();
  const known = await people.knownPersonIds(
    ref.searchId,
    results.map((r) => r.person_id),
  );
  const fresh = results.filter((r) => !known.has(r.person_id));
  const budget = Math.max(0, criteria.read_budget - pass.profiles_read);
  const profiles = await readProfilesForPage(
    db,
    source,
    search,
    criteria,
    fresh.slice(0, budget).map((r) => r.person_id),
    heartbeat,
  );

  return db.transaction(async (trx) => {
    const searches = searchRepository(trx);
    const passes = searchPassRepository(trx);
    const peopleTx = searchPeopleRepository(trx);
    const shortlist = shortlistRepository(trx);
    const locked = await searches.lock(ref.searchId);
    const lockedPass = await findPass(trx, ref);
    const closedMeanwhile = closedPassOutcome(locked, lockedPass);
    if (closedMeanwhile) return closedMeanwhile;
    const again = await peopleTx.processedPage(ref.searchId, ref.pass, ref.page);
    if (again) return outcomeOf(locked, lockedPass, again.returned, again.read);

    const ids = await peopleTx.candidateIds(
      locked.project_id,
      fresh.map((r) => r.person_id),
    );
    const alreadyListed = await shortlist.listedAmong(locked.project_id, [...ids.values()]);
    let seq = await peopleTx.maxSeq(ref.searchId);
    let read = 0;
    let shortlisted = locked.shortlisted;
    const rows: NewSearchPerson[] = [];
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
        read: Boolean(canRead),
      });
    }
    await peopleTx.insert(rows);
    // Someone already on the project's shortlist stays as they were; only new members count.
    let added = 0; // equals toShortlist.length unless a concurrent add won the race
    if (toShortlist.length) {
      await projectRepository(trx).lock(locked.project_id); // shortlist changes serialise on the project
      const inserted = await shortlist.addNew(
        toShortlist.map((candidateId) => ({
          project_id: locked.project_id,
          candidate_id: candidateId,
          search_id: ref.searchId,
          pass: ref.pass,
          source: ref.pass === 1 ? 'search' : 'expansion',
        })),
      );
      added = inserted.length;
    }
    const updated = await searches.update(ref.searchId, {
      profiles_read: locked.profiles_read + read,
      delivered: locked.delivered + read,
      shortlisted: locked.shortlisted + added,
      pages_fetched: locked.pages_fetched + 1,
    });
    const updatedPass = await passes.update(ref.searchId, ref.pass, {
      profiles_read: lockedPass.profiles_read + read,
      delivered: lockedPass.delivered + read,
      shortlisted: lockedPass.shortlisted + added,
    });
    await peopleTx.recordPage(ref.searchId, ref.pass, ref.page, { returned: results.length, read });
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
  const rows = await searchRepository(trx).oldestQueued(workspaceId, 10);
  return rows.map((r) => workflowIds.searchPass(r.id, r.pass_count));
}

/** Workflow ids waiting for a slot in the search's workspace: woken when a pass that held one ends. */
export async function waitingForSlot(db: Db, searchId: string): Promise<string[]> {
  const search = await searchRepository(db).find(searchId);
  return search ? waitingWorkflows(db, search.workspace_id) : [];
}

/** Closes the pass: status, outcome, stop reason; search.completed and, when the list changed, shortlist.changed. */
export async function completePass(db: Db, ref: PassRef & { stopReason: StopReason }, baseUrl: string): Promise<{ wake: string[] }> {
  return db.transaction(async (trx) => {
    const searches = searchRepository(trx);
    const search = await searches.lock(ref.searchId);
    const pass = await findPass(trx, ref);
    // Only this pass's first completion closes it (a re-run, or a later pass running meanwhile, does not).
    if (pass.status === 'running') {
      const outcome = outcomeFor(search, pass.criteria);
      const closed = await searches.close(ref.searchId, { status: 'complete', outcome, stop_reason: ref.stopReason });
      await searchPassRepository(trx).update(ref.searchId, ref.pass, { status: 'complete', outcome, stop_reason: ref.stopReason, closed_at: 'now' });
      await writeEvent(trx, {
        workspaceId: closed.workspace_id,
        type: 'search.completed',
        data: searchEventData(closed, baseUrl),
        dedupeKey: `search.completed:${closed.id}:${ref.pass}`,
      });
      const added = await shortlistRepository(trx).addedByPass(closed.id, ref.pass);
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
    const searches = searchRepository(trx);
    const ledger = creditLedgerRepository(trx);
    const search = await searches.lock(ref.searchId);
    const pass = await findPass(trx, ref);
    if (pass.status === 'queued' || pass.status === 'running') {
      const stopReason = ref.stopReason ?? 'error';
      await searchPassRepository(trx).update(ref.searchId, ref.pass, {
        status: 'failed',
        stop_reason: stopReason,
        failure_reason: ref.reason.slice(0, 500),
        closed_at: 'now',
      });
      const reserved = await ledger.findByUniqueKey(reserveKey(search.id, ref.pass));
      if (reserved) {
        await ledger.append({
          workspaceId: search.workspace_id,
          bucket: reserved.bucket,
          delta: -reserved.delta,
          reason: 'search:refund',
          uniqueKey: refundKey(search.id, ref.pass),
        });
        // The refund carries the request id (and key) of the call whose charge it gives back.
        const charge = await costEventRepository(trx).findByUniqueKey(reserveKey(search.id, ref.pass));
        await costEventRepository(trx).record({
          workspaceId: search.workspace_id,
          requestId: charge?.request_id ?? null,
          action: 'search_refund',
          keyId: charge?.key_id ?? search.api_key_id,
          credits: reserved.delta,
          uniqueKey: refundKey(search.id, ref.pass),
        });
      }
      if (ref.pass === 1) {
        const failed = await searches.close(ref.searchId, {
          status: 'failed',
          outcome: null,
          stop_reason: stopReason,
          failure_reason: ref.reason.slice(0, 500),
        });
        await writeEvent(trx, {
          workspaceId: failed.workspace_id,
          type: 'search.failed',
          data: searchEventData(failed, baseUrl),
          dedupeKey: `search.failed:${failed.id}:${ref.pass}`,
        });
      } else {
        await searches.update(ref.searchId, { status: 'complete', ...(pass.previous ?? {}) });
      }
    }
    return { wake: await waitingWorkflows(trx, search.workspace_id) };
  });
}
