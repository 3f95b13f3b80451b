import type { Db } from '../db/knex';
import { searchPassRepository } from '../db/search-pass.repository';
import { searchPeopleRepository } from '../db/search-people.repository';
import { searchRepository, type SearchRow } from '../db/search.repository';
import { AppError } from '../domain/errors';
import { scoreProfile } from '../ranking/scoring';
import { writeEvent } from '../events/outbox';
import { outcomeFor } from './pass.service';
import { followScores } from './rescoring.service';
import { searchEventData } from './searches.presenter';
import { workflowIds } from '../temporal/workflow-ids';

/** 409 unless the search is complete: a new pass starts only from a finished search. */
export function assertComplete(search: SearchRow): void {
  if (search.status === 'queued' || search.status === 'running')
    throw new AppError('search_running', 409, 'The search is still running; try again once it has completed');
  if (search.status !== 'complete')
    throw new AppError('search_not_finished', 409, `The search ended ${search.status}; only a completed search can take a new pass`);
}

/** Books a database pass: a new pass row, the search queued for a slot like any pass. No credits. */
export async function requestDatabasePass(db: Db, searchId: string): Promise<{ search: SearchRow; pass: number }> {
  return db.transaction(async (trx) => {
    const searches = searchRepository(trx);
    const search = await searches.lock(searchId);
    assertComplete(search);
    const pass = search.pass_count + 1;
    await searchPassRepository(trx).insert({
      search_id: search.id,
      pass,
      kind: 'database_pass',
      criteria: search.criteria,
      status: 'queued',
      workflow_id: workflowIds.searchPass(search.id, pass),
      previous: { outcome: search.outcome, stop_reason: search.stop_reason, closed_at: search.closed_at },
    });
    const queued = await searches.update(search.id, { status: 'queued', pass_count: pass });
    return { search: queued, pass };
  });
}

/**
 * Re-scores the search's scored people against their latest stored profiles, lets the shortlist
 * follow, and completes the pass (a new search.completed and a shortlist.changed, source
 * database_pass). Running it again for the same pass changes nothing.
 */
export async function runDatabasePass(db: Db, ref: { searchId: string; pass: number }, baseUrl: string): Promise<{ rescored: number; refreshed: number }> {
  return db.transaction(async (trx) => {
    const searches = searchRepository(trx);
    const passes = searchPassRepository(trx);
    const people = searchPeopleRepository(trx);
    const search = await searches.lock(ref.searchId);
    const pass = (await passes.find(ref.searchId, ref.pass))!;
    if (pass.status !== 'running') return { rescored: 0, refreshed: 0 };
    const rows = await people.scoredWithLatestProfiles(search.id);
    const weights = search.scoring_weights ?? undefined;
    let refreshed = 0;
    const scores = rows.map((r) => {
      const profile = r.latest ?? r.snapshot; // a person gone from the database keeps their last profile
      if (r.latest && r.latest.updated_at !== r.snapshot.updated_at) refreshed += 1;
      const scored = scoreProfile(profile, search.criteria, weights, search.calibration);
      return { candidate_id: r.candidate_id, score: scored.score, breakdown: scored.breakdown, profile: r.latest ?? undefined };
    });
    await people.storeScores(search.id, scores);
    await followScores(trx, search, search.criteria, {
      kind: 'pass',
      source: 'database_pass',
      dedupeKey: `shortlist.changed:database_pass:${search.id}:${ref.pass}`,
      baseUrl,
      always: true,
    });
    const after = (await searches.find(search.id))!;
    const outcome = outcomeFor(after, search.criteria);
    await passes.update(search.id, ref.pass, {
      status: 'complete',
      outcome,
      stop_reason: search.stop_reason ?? pass.previous?.stop_reason ?? null,
      profiles_read: rows.length,
      delivered: rows.length,
      closed_at: 'now',
    });
    const closed = await searches.close(search.id, { status: 'complete', outcome, stop_reason: pass.previous?.stop_reason ?? search.stop_reason });
    await writeEvent(trx, {
      workspaceId: closed.workspace_id,
      type: 'search.completed',
      data: searchEventData(closed, baseUrl),
      dedupeKey: `search.completed:${closed.id}:${ref.pass}`,
    });
    return { rescored: rows.length, refreshed };
  });
}
