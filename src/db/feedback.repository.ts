import type { Db } from './knex';
import type { FeedbackReason, Verdict } from '../ranking/calibration';

/** A stored rating: a person's latest verdict in a search. */
export interface FeedbackRow {
  candidate_id: string;
  name: string;
  verdict: Verdict;
  reasons: FeedbackReason[];
  note: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewRating {
  candidate_id: string;
  verdict: Verdict;
  reasons: FeedbackReason[];
  note: string | null;
}

/** A rating with what calibration learns from: the profile scored, or the result-page summary of someone not read. */
export interface RatingExample {
  candidate_id: string;
  verdict: Verdict;
  reasons: FeedbackReason[];
  profile: Record<string, unknown> | null;
  summary: Record<string, unknown>;
}

/** Ratings of searches (search_feedback): one row per search and candidate, the latest verdict. */
export function feedbackRepository(db: Db) {
  return {
    /** Which of these candidates are among the search's people (read or not). */
    async peopleOfSearch(searchId: string, candidateIds: string[]): Promise<Set<string>> {
      if (candidateIds.length === 0) return new Set();
      const rows: { candidate_id: string }[] = await db('search_people')
        .where({ search_id: searchId })
        .whereIn('candidate_id', candidateIds)
        .select('candidate_id');
      return new Set(rows.map((r) => r.candidate_id));
    },
    /**
     * Stores each rating as the person's latest; a rating equal to the stored one changes nothing
     * (not even its time), so sending the same ratings again is a no-op. Answers how many changed.
     */
    async upsert(workspaceId: string, searchId: string, ratings: NewRating[]): Promise<number> {
      if (ratings.length === 0) return 0;
      const { rows } = await db.raw(
        `insert into search_feedback (workspace_id, search_id, candidate_id, verdict, reasons, note)
         select ?, ?, t.candidate_id, t.verdict, coalesce(t.reasons::text[], '{}'), t.note
           from json_to_recordset(?::json) as t(candidate_id uuid, verdict text, reasons text[], note text)
         on conflict (search_id, candidate_id) do update
            set verdict = excluded.verdict, reasons = excluded.reasons, note = excluded.note, updated_at = now()
          where (search_feedback.verdict, search_feedback.reasons, search_feedback.note) is distinct from (excluded.verdict, excluded.reasons, excluded.note)
         returning candidate_id`,
        [workspaceId, searchId, JSON.stringify(ratings)],
      );
      return rows.length;
    },
    /** The search's ratings, latest first, with the person's name. */
    async list(searchId: string): Promise<FeedbackRow[]> {
      const { rows } = await db.raw(
        `select f.candidate_id, coalesce(sp.summary->>'first_name', '') || ' ' || coalesce(sp.summary->>'last_name', '') as name,
                f.verdict, f.reasons, f.note, f.created_at, f.updated_at
           from search_feedback f
           left join search_people sp on sp.search_id = f.search_id and sp.candidate_id = f.candidate_id
          where f.search_id = ?
          order by f.updated_at desc, f.candidate_id`,
        [searchId],
      );
      return rows;
    },
    /** Every rating of the search with what its person looked like, in candidate order (a deterministic fit). */
    async examples(searchId: string): Promise<RatingExample[]> {
      const { rows } = await db.raw(
        `select f.candidate_id, f.verdict, f.reasons, sp.profile, sp.summary
           from search_feedback f
           join search_people sp on sp.search_id = f.search_id and sp.candidate_id = f.candidate_id
          where f.search_id = ?
          order by f.candidate_id`,
        [searchId],
      );
      return rows;
    },
    async counts(searchId: string): Promise<{ ratings: number; good: number; bad: number }> {
      const [row] = await db('search_feedback')
        .where({ search_id: searchId })
        .select(db.raw('count(*)::int as ratings'), db.raw("count(*) filter (where verdict = 'good')::int as good"));
      return { ratings: row.ratings, good: row.good, bad: row.ratings - row.good };
    },
  };
}
