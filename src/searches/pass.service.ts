import { costEventRepository } from '../db/cost-event.repository';
import { creditLedgerRepository } from '../db/credit-ledger.repository';
import type { Db } from '../db/knex';
import { projectRepository } from '../db/project.repository';
import { searchPassRepository } from '../db/search-pass.repository';
import { searchPeopleRepository, type NewSearchPerson } from '../db/search-people.repository';
import { searchRepository, type Outcome, type PassRow, type SearchRow, type StopReason } from '../db/search.repository';
import { shortlistRepository, type ShortlistSource } from '../db/shortlist.repository';
import { workspaceRepository } from '../db/workspace.repository';
import type { ResolvedCriteria } from '../domain/criteria';
import type { PersonProfile } from '../domain/profile';
import { scoreProfile } from '../ranking/scoring';
import { AppError } from '../domain/errors';
import { writeEvent } from '../events/outbox';
import { PAGE_SIZE, type ProfileSource } from '../providers/profile-source';
import { refundKey, reserveKey, searchLimits } from './launch.service';
import { closedPassOutcome, decidePage, pageOutcome, readBudgetLeft, shortlistFilled, type PageDecision, type PageOutcome } from './page-decision';
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

/** What the people a pass adds to the shortlist are recorded as coming from. */
const shortlistSource = (pass: PassRow): ShortlistSource =>
  pass.kind === 'monitor' ? 'monitor' : pass.kind === 'calibration' ? 'feedback' : pass.pass === 1 ? 'search' : 'expansion';

/** A monitor's pass and a lookalike search deliver only people the project has not seen. */
const deliversOnlyNew = (pass: PassRow) => pass.kind === 'monitor' || (pass.criteria.like?.length ?? 0) > 0;

/**
 * Which of the page's people are not new: found by the search already or, for a monitor pass or
 * a lookalike search, by any search of the project.
 */
async function knownPeople(db: Db, search: SearchRow, pass: PassRow, results: readonly { person_id: string }[]): Promise<Set<string>> {
  const ids = results.map((r) => r.person_id);
  const people = searchPeopleRepository(db);
  return deliversOnlyNew(pass) ? people.knownInProject(search.project_id, search.id, ids) : people.knownPersonIds(search.id, ids);
}

/**
 * The profiles a page reads, in result order. A source that bills each read (`billedReadBatch`)
 * is asked only for as many as could still fill the shortlist, scoring each batch before the
 * next, so people past the target are not read (they are recorded `not_read`, as the page's
 * decision would leave them anyway); people already on the project's list fill nothing. The
 * page's transaction decides again under the search lock.
 */
async function readProfilesForPage(
  db: Db,
  source: ProfileSource,
  search: SearchRow,
  criteria: ResolvedCriteria,
  ids: string[],
  heartbeat: () => void,
  filled: number,
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
  let places = criteria.target - filled; // shortlist places this page could still fill
  for (let next = 0; next < ids.length && places > 0;) {
    const asked = ids.slice(next, next + Math.min(batch, places));
    next += asked.length;
    const read = await source.readProfiles(asked);
    heartbeat();
    for (const id of asked) {
      const profile = read.get(id);
      if (!profile) continue;
      profiles.set(id, profile);
      if (!listed.has(id) && scoreProfile(profile, criteria, weights, search.calibration).score >= criteria.shortlist_threshold) places -= 1;
    }
  }
  return profiles;
}

/**
 * One result page: fetch it, read profiles while the pass's budget lasts (and, from a source
 * that bills each read, while the shortlist can still fill: readProfilesForPage), then, in one
 * transaction under the search lock, decide whom the page reads, scores and shortlists
 * (decidePage) and record it (recordPage). Everyone returned who is new to the search is
 * recorded; people found by an earlier pass stay as they are. A page already recorded (a retried
 * step) is not processed again, and a closed pass reads nothing (closedPassOutcome).
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
  if (done) return pageOutcome(search, pass, done.returned, done.read);

  const { criteria } = pass;
  // A calibrated search reads best-first under what it learned.
  const ranking = search.calibration ? { weights: search.scoring_weights, calibration: search.calibration } : undefined;
  const results = await source.searchPage(criteria, ref.page, PAGE_SIZE, ranking);
  heartbeat();
  const known = await knownPeople(db, search, pass, results);
  const fresh = results.filter((r) => !known.has(r.person_id));
  const budget = readBudgetLeft(pass);
  const profiles = await readProfilesForPage(
    db,
    source,
    search,
    criteria,
    fresh.slice(0, budget).map((r) => r.person_id),
    heartbeat,
    shortlistFilled(search, pass),
  );

  return db.transaction(async (trx) => {
    const peopleTx = searchPeopleRepository(trx);
    const locked = await searchRepository(trx).lock(ref.searchId);
    const lockedPass = await findPass(trx, ref);
    const closedMeanwhile = closedPassOutcome(locked, lockedPass);
    if (closedMeanwhile) return closedMeanwhile;
    const again = await peopleTx.processedPage(ref.searchId, ref.pass, ref.page);
    if (again) return pageOutcome(locked, lockedPass, again.returned, again.read);

    // Another search of the project may have found some of them meanwhile.
    const seenMeanwhile = deliversOnlyNew(lockedPass) ? await knownPeople(trx, locked, lockedPass, fresh) : new Set<string>();
    const unseen = fresh.filter((r) => !seenMeanwhile.has(r.person_id));
    const candidateIds = await peopleTx.candidateIds(
      locked.project_id,
      unseen.map((r) => r.person_id),
    );
    const alreadyListed = await shortlistRepository(trx).listedAmong(locked.project_id, [...candidateIds.values()]);
    const decision = decidePage(unseen, profiles, candidateIds, alreadyListed, {
      criteria,
      budget,
      weights: locked.scoring_weights ?? undefined,
      shortlisted: shortlistFilled(locked, lockedPass),
      calibration: locked.calibration,
      readPastTarget: lockedPass.kind === 'calibration',
    });
    const after = await recordPage(trx, { ...ref, returned: results.length }, { search: locked, pass: lockedPass }, decision);
    return pageOutcome(after.search, after.pass, results.length, decision.read);
  });
}

/**
 * Records a page's decision in the page's transaction, `locked` being the search (locked) and
 * pass it was decided on: its people (in result order, after the search's last), the shortlist
 * additions, the search's and pass's counters, and the page itself, which makes a re-run of the
 * page a no-op. Answers the search and pass after it.
 */
export async function recordPage(
  trx: Db,
  page: PassRef & { page: number; returned: number },
  locked: { search: SearchRow; pass: PassRow },
  decision: PageDecision,
): Promise<{ search: SearchRow; pass: PassRow }> {
  const { searchId } = page;
  const { search, pass } = locked;
  const people = searchPeopleRepository(trx);
  let seq = await people.maxSeq(searchId);
  const rows = decision.people.map(({ result, candidateId, scored }): NewSearchPerson => {
    const { person_id: _omit, ...summary } = result;
    return {
      search_id: searchId,
      candidate_id: candidateId,
      person_id: result.person_id,
      seq: ++seq,
      pass: page.pass,
      page: page.page,
      status: scored ? 'scored' : 'not_read',
      score: scored ? scored.score : null,
      score_breakdown: scored ? JSON.stringify(scored.breakdown) : null,
      summary: JSON.stringify(summary),
      profile: scored ? JSON.stringify(scored.profile) : null,
      read: scored !== null,
    };
  });
  await people.insert(rows);
  // Someone already on the project's shortlist stays as they were; only new members count.
  let added = 0; // equals decision.shortlist.length unless a concurrent add won the race
  if (decision.shortlist.length) {
    await projectRepository(trx).lock(search.project_id); // shortlist changes serialise on the project
    const inserted = await shortlistRepository(trx).addNew(
      decision.shortlist.map((candidateId) => ({
        project_id: search.project_id,
        candidate_id: candidateId,
        search_id: searchId,
        pass: page.pass,
        source: shortlistSource(pass),
      })),
    );
    added = inserted.length;
  }
  const { read } = decision;
  const updated = await searchRepository(trx).update(searchId, {
    profiles_read: search.profiles_read + read,
    delivered: search.delivered + read,
    shortlisted: search.shortlisted + added,
    pages_fetched: search.pages_fetched + 1,
  });
  const updatedPass = await searchPassRepository(trx).update(searchId, page.pass, {
    profiles_read: pass.profiles_read + read,
    delivered: pass.delivered + read,
    shortlisted: pass.shortlisted + added,
  });
  await people.recordPage(searchId, page.pass, page.page, { returned: page.returned, read });
  return { search: updated, pass: updatedPass };
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
          source: shortlistSource(pass),
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
