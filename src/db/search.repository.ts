import type { Db } from './knex';
import type { ResolvedCriteria } from '../domain/criteria';

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
  created_at: Date;
  started_at: Date | null;
  closed_at: Date | null;
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

export function searchRepository(db: Db) {
  return {
    async find(id: string): Promise<SearchRow | undefined> {
      return db('searches').where({ id }).first();
    },
    async findInWorkspace(workspaceId: string, id: string): Promise<SearchRow | undefined> {
      return db('searches').where({ workspace_id: workspaceId, id }).first();
    },
    async listForProject(projectId: string): Promise<SearchRow[]> {
      return db('searches').where({ project_id: projectId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    /** Scored people, best score first, ties in the order returned; and how many match min_score. */
    async scoredPeople(searchId: string, opts: { minScore?: number; limit: number; offset: number; withProfile: boolean }): Promise<{ people: PersonRow[]; total: number }> {
      const base = () => {
        const q = db('search_people').where({ search_id: searchId, status: 'scored' });
        if (opts.minScore !== undefined) q.andWhere('score', '>=', opts.minScore);
        return q;
      };
      const columns = ['candidate_id', 'person_id', 'seq', 'pass', 'page', 'status', 'score', 'score_breakdown', 'summary', ...(opts.withProfile ? ['profile'] : [])];
      const [people, [{ count }]] = await Promise.all([
        base().select(columns).orderBy([{ column: 'score', order: 'desc' }, { column: 'seq', order: 'asc' }]).limit(opts.limit).offset(opts.offset),
        base().count({ count: '*' }),
      ]);
      return { people, total: Number(count) };
    },
    /** Every person returned, in order, in batches of `batch` by seq (constant memory for exports). */
    async *records(searchId: string, batch = 1000): AsyncGenerator<PersonRow[]> {
      let after = 0;
      for (;;) {
        const rows: PersonRow[] = await db('search_people').where({ search_id: searchId }).andWhere('seq', '>', after).orderBy('seq').limit(batch);
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1].seq;
        if (rows.length < batch) return;
      }
    },
  };
}
