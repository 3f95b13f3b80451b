import { feedbackRepository, type NewRating } from '../db/feedback.repository';
import type { Db } from '../db/knex';
import type { SearchRow } from '../db/search.repository';
import { AppError } from '../domain/errors';
import type { FeedbackBody } from './feedback.schemas';
import { ratingResource } from './feedback.presenter';

/**
 * Ratings of a search's people (DESIGN.md §13). A person's latest verdict is the one kept, and a
 * rating equal to the stored one changes nothing, so a call can be sent again safely. No credits.
 */

/** The call's ratings, one per person (the last one given), reasons de-duplicated in a fixed order. */
function latestPerPerson(body: FeedbackBody): NewRating[] {
  const latest = new Map<string, NewRating>();
  for (const r of body.ratings) {
    latest.delete(r.candidate_id); // keep the order of the last rating given
    latest.set(r.candidate_id, { candidate_id: r.candidate_id, verdict: r.verdict, reasons: [...new Set(r.reasons ?? [])].sort(), note: r.note ?? null });
  }
  return [...latest.values()];
}

/**
 * Stores the ratings, all or none: every candidate must be one of the search's people (404
 * candidate_not_found listing the others). Answers the counts after it.
 */
export async function submitFeedback(db: Db, search: SearchRow, body: FeedbackBody) {
  const ratings = latestPerPerson(body);
  return db.transaction(async (trx) => {
    const feedback = feedbackRepository(trx);
    const ids = ratings.map((r) => r.candidate_id);
    const known = await feedback.peopleOfSearch(search.id, ids);
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) throw new AppError('candidate_not_found', 404, `Not among the people of this search: ${unknown.join(', ')}`, { unknown_ids: unknown });
    const changed = await feedback.upsert(search.workspace_id, search.id, ratings);
    return { search_id: search.id, received: ratings.length, changed, ...(await feedback.counts(search.id)) };
  });
}

/** The search's ratings, latest first. */
export async function listFeedback(db: Db, searchId: string) {
  return (await feedbackRepository(db).list(searchId)).map(ratingResource);
}
