import { createHash } from 'node:crypto';
import { feedbackRepository, type RatingExample } from '../db/feedback.repository';
import type { Db } from '../db/knex';
import { searchPassRepository } from '../db/search-pass.repository';
import { searchPeopleRepository } from '../db/search-people.repository';
import { searchRepository, type StoredCalibration } from '../db/search.repository';
import type { PersonProfile } from '../domain/profile';
import type { CalibrationOutcome } from '../feedback/calibration.contract';
import { PAGE_SIZE } from '../providers/profile-source';
import { learnCalibration, type RatedPerson } from '../ranking/calibration';
import { effectiveWeights, scoreProfile } from '../ranking/scoring';
import { workflowIds } from '../temporal/workflow-ids';
import { followScores } from './rescoring.service';

/**
 * A search's calibration (DESIGN.md §13), run by the `calibration-<searchId>` workflow once its
 * ratings have settled: learn from all of them, re-score everyone read (the shortlist follows, as
 * after an applied scoring change), and book a pass that reads on best-first under what was
 * learned. One transaction under the search lock; `requestId` (one per calibration run) makes a
 * retried attempt answer what the first one did.
 */

/** A rated person as calibration sees them: the profile scored, else what the result page showed. */
function ratedPerson(e: RatingExample): RatedPerson {
  const profile = (e.profile ?? { title: e.summary.title, company: e.summary.company, location: e.summary.location }) as unknown as PersonProfile;
  return { verdict: e.verdict, reasons: e.reasons ?? [], profile };
}

/** The ratings' identity: the same ratings are not learned from twice. */
const fingerprintOf = (examples: RatingExample[]) =>
  createHash('sha256')
    .update(JSON.stringify(examples.map((e) => [e.candidate_id, e.verdict, [...(e.reasons ?? [])].sort()])))
    .digest('hex');

/** People a calibration pass reads: a page at least, the target at most (and never past the read budget). */
const passBudget = (c: { read_budget: number; target: number }) => Math.min(c.read_budget, Math.max(PAGE_SIZE, c.target));

export async function calibrateSearch(db: Db, input: { searchId: string; requestId: string; baseUrl: string; now?: Date }): Promise<CalibrationOutcome> {
  return db.transaction(async (trx) => {
    const searches = searchRepository(trx);
    const search = await searches.lock(input.searchId);
    if (!search) return { state: 'skipped', reason: 'the search no longer exists' };
    const previous = search.calibration;
    if (previous?.request_id === input.requestId) return { state: 'calibrated', ratings: previous.ratings, pass: previous.pass };
    if (search.status === 'queued' || search.status === 'running') return { state: 'busy' };
    if (search.status !== 'complete') return { state: 'skipped', reason: `the search is ${search.status}` };
    const examples = await feedbackRepository(trx).examples(search.id);
    if (examples.length === 0) return { state: 'skipped', reason: 'no ratings' };
    const fingerprint = fingerprintOf(examples);
    if (previous?.fingerprint === fingerprint) return { state: 'unchanged' };

    const learned = learnCalibration(examples.map(ratedPerson), search.criteria, effectiveWeights(search.scoring_weights), input.now ?? new Date());
    const people = searchPeopleRepository(trx);
    const scores = (await people.scored(search.id)).map((p) => {
      const scored = scoreProfile(p.profile, search.criteria, search.scoring_weights, learned);
      return { candidate_id: p.candidate_id, score: scored.score, breakdown: scored.breakdown };
    });
    await people.storeScores(search.id, scores);
    // A live search would pay to read on: it re-scores only (an expansion reads on, for a credit).
    const pass = search.criteria.mode === 'live' ? null : search.pass_count + 1;
    const calibration: StoredCalibration = { ...learned, fingerprint, request_id: input.requestId, pass };
    const calibrated = await searches.update(search.id, { calibration });
    await followScores(trx, calibrated, search.criteria, {
      kind: 'rescored',
      source: 'feedback',
      dedupeKey: `shortlist.changed:feedback:${search.id}:${input.requestId}`,
      baseUrl: input.baseUrl,
    });
    if (pass !== null) {
      await searchPassRepository(trx).insert({
        search_id: search.id,
        pass,
        kind: 'calibration',
        criteria: { ...search.criteria, read_budget: passBudget(search.criteria) },
        status: 'queued',
        workflow_id: workflowIds.searchPass(search.id, pass),
        previous: { outcome: search.outcome, stop_reason: search.stop_reason, closed_at: search.closed_at },
      });
      await searches.update(search.id, { status: 'queued', pass_count: pass });
    }
    return { state: 'calibrated', ratings: learned.ratings, pass };
  });
}
