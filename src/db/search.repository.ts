import type { Db } from './knex';
import type { ResolvedCriteria } from '../domain/criteria';
import type { ScoringWeights } from '../domain/scoring';
import type { PassRow } from '../searches/pass';
import { RECORD_CSV_SQL } from '../searches/records';

export type SearchStatus = 'queued' | 'running' | 'complete' | 'failed';
export type StopReason = 'target_reached' | 'pool_exhausted' | 'read_budget_reached' | 'error' | 'cancelled';
export type Outcome = 'Shortlist ready' | 'Poor yield' | 'No results';

export interface SearchRow {
  id: string;
  workspace_id: string;
  project_id: string;
  api_key_id: string | null;
  status: SearchStatus;
  outcome: Outcome | null;
  stop_reason: StopReason | null;
  source: string;
  criteria: ResolvedCriteria;
  jd_text: string | null;
  jd_confidence: Record<string, number> | null;
  funding_bucket: 'workspace' | 'contract_pool';
  profiles_read: number;
  delivered: number;
  shortlisted: number;
  pages_fetched: number;
  pass_count: number;
  failure_reason: string | null;
  /** Weights of an applied scoring change; null means the defaults. */
  scoring_weights: Partial<ScoringWeights> | null;
  created_at: Date;
  started_at: Date | null;
  closed_at: Date | null;
  /** Changes with every change of the search or its people (trigger searches_touch). */
  updated_at: Date;
}

export interface PersonRow {
  candidate_id: string;
  person_id: string;
  seq: number;
  pass: number;
  page: number;
  status: 'scored' | 'not_read';
  score: number | null;
  score_breakdown: unknown;
  summary: Record<string, unknown>;
  profile: Record<string, unknown> | null;
}

/** A person of the people list with its JSON columns still as text. */
export interface RawPerson {
  candidate_id: string;
  name: string;
  score: number;
  breakdown_json: string | null;
  profile_json: string | null;
}

export function searchRepository(db: Db) {
  return {
    async find(id: string): Promise<SearchRow | undefined> {
      return db('searches').where({ id }).first();
    },
    async findInWorkspace(workspaceId: string, id: string): Promise<SearchRow | undefined> {
      return db('searches').where({ workspace_id: workspaceId, id }).first();
    },
    async lastPass(searchId: string): Promise<PassRow | undefined> {
      return db('search_passes').where({ search_id: searchId }).orderBy('pass', 'desc').first();
    },
    async listForProject(projectId: string): Promise<SearchRow[]> {
      return db('searches').where({ project_id: projectId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    /**
     * Scored people, best score first, ties in the order returned, with how many match min_score
     * (a window count: one query). JSON columns come back as text, to be spliced into the response
     * without a parse/stringify round trip.
     */
    /** The search's status and version stamp, if it belongs to the workspace. */
    async version(workspaceId: string, searchId: string): Promise<Pick<SearchRow, 'status' | 'updated_at'> | undefined> {
      return db('searches').where({ id: searchId, workspace_id: workspaceId }).first('status', 'updated_at');
    },
    async scoredPeople(searchId: string, opts: { minScore?: number; limit: number; offset: number; withProfile: boolean }): Promise<{ people: RawPerson[]; total: number }> {
      const { rows } = await db.raw(
        `select candidate_id, summary->>'first_name' || ' ' || (summary->>'last_name') as name, score,
                score_breakdown::text as breakdown_json, ${opts.withProfile ? 'profile::text' : 'null'} as profile_json,
                count(*) over () as total
           from search_people
          where search_id = ? and status = 'scored' ${opts.minScore === undefined ? '' : 'and score >= ?'}
          order by score desc, seq asc
          limit ? offset ?`,
        [searchId, ...(opts.minScore === undefined ? [] : [opts.minScore]), opts.limit, opts.offset],
      );
      return { people: rows, total: rows.length ? Number(rows[0].total) : 0 };
    },
    /**
     * Records CSV lines in order, in batches of seq ranges. seq is dense (1..n), so batches are
     * independent: a few are built by Postgres at once (the formatting is the expensive part) and
     * handed out in order.
     */
    async *recordCsvLines(searchId: string, batch = 1000, parallel = 3): AsyncGenerator<string> {
      const [{ last }] = await db('search_people').where({ search_id: searchId }).max({ last: 'seq' });
      const batches = Math.ceil(Number(last ?? 0) / batch);
      const fetch = (k: number): Promise<string> => {
        const query = Promise.resolve(db.raw(RECORD_CSV_SQL, [searchId, k * batch, (k + 1) * batch])).then((r) => (r.rows as { line: string }[]).map((row) => row.line).join(''));
        query.catch(() => undefined); // a prefetch the consumer never awaits must not be an unhandled rejection
        return query;
      };
      const inflight: Promise<string>[] = [];
      for (let k = 0; k < Math.min(parallel, batches); k++) inflight.push(fetch(k));
      for (let k = 0; k < batches; k++) {
        const lines = await inflight.shift()!;
        if (k + parallel < batches) inflight.push(fetch(k + parallel));
        yield lines;
      }
    },
    /**
     * Every person returned, in order, in batches by seq (constant memory for exports). The next
     * batch is fetched while the caller works on the current one.
     */
    async *records(searchId: string, batch = 1000): AsyncGenerator<PersonRow[]> {
      // Everything but score_breakdown, which records do not show (less to parse per row).
      const fetch = (after: number): Promise<PersonRow[]> => {
        const query = Promise.resolve(
          db('search_people')
            .where({ search_id: searchId })
            .andWhere('seq', '>', after)
            .orderBy('seq')
            .limit(batch)
            .select('candidate_id', 'person_id', 'seq', 'pass', 'page', 'status', 'score', 'summary', 'profile'),
        );
        query.catch(() => undefined); // a prefetch the consumer never awaits must not be an unhandled rejection
        return query;
      };
      let next = fetch(0);
      for (;;) {
        const rows = await next;
        if (rows.length === 0) return;
        if (rows.length === batch) next = fetch(rows[rows.length - 1].seq);
        yield rows;
        if (rows.length < batch) return;
      }
    },
  };
}
