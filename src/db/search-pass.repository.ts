import type { Db } from './knex';
import type { ResolvedCriteria } from '../domain/criteria';
import type { PassKind, PassRow, SearchRow, SearchStatus } from './search.repository';

/** A pass as it is booked: what runs it and what the search looked like before it (later passes). */
export interface NewPass {
  search_id: string;
  pass: number;
  kind: PassKind;
  level?: number;
  criteria: ResolvedCriteria;
  /** JSON text: knex would send a JS array as a Postgres array. */
  broadening?: string;
  status: SearchStatus;
  workflow_id: string;
  previous?: PassRow['previous'];
}

export type PassChanges = Partial<Pick<PassRow, 'status' | 'outcome' | 'stop_reason' | 'profiles_read' | 'delivered' | 'shortlisted'>> & {
  failure_reason?: string;
  closed_at?: 'now';
};

/** The passes of searches (search_passes): one row per launch, expansion or database pass. */
export function searchPassRepository(db: Db) {
  const nowIfAsked = (changes: PassChanges) => {
    const { closed_at, ...rest } = changes;
    return closed_at === 'now' ? { ...rest, closed_at: db.fn.now() } : rest;
  };
  return {
    async find(searchId: string, pass: number): Promise<PassRow | undefined> {
      return db('search_passes').where({ search_id: searchId, pass }).first();
    },
    async insert(pass: NewPass): Promise<void> {
      await db('search_passes').insert(pass);
    },
    async update(searchId: string, pass: number, changes: PassChanges): Promise<PassRow> {
      const [row] = await db('search_passes').where({ search_id: searchId, pass }).update(nowIfAsked(changes)).returning('*');
      return row;
    },
    /** Status of every expansion ever booked for the project's searches. */
    async expansionStatuses(projectId: string): Promise<SearchStatus[]> {
      const rows: { status: SearchStatus }[] = await db('search_passes as p')
        .join('searches as s', 's.id', 'p.search_id')
        .where('s.project_id', projectId)
        .andWhere('p.kind', 'expansion')
        .select('p.status');
      return rows.map((r) => r.status);
    },
    /** What a booked pass runs as: its kind and its deterministic workflow id. */
    async workflowOf(searchId: string, pass: number): Promise<{ kind: PassKind; workflow_id: string }> {
      return db('search_passes').where({ search_id: searchId, pass }).first('kind', 'workflow_id');
    },
    /** Records the first successful start of the pass's workflow (later starts leave it). */
    async markWorkflowStarted(searchId: string, pass: number): Promise<void> {
      await db('search_passes').where({ search_id: searchId, pass }).whereNull('workflow_started_at').update({ workflow_started_at: db.fn.now() });
    },
    /**
     * Passes booked more than `olderThanSeconds` ago whose workflow never started, oldest first
     * (at most 100), each with its search. `searchIds` narrows the sweep.
     */
    async stranded(olderThanSeconds: number, searchIds?: string[]): Promise<(SearchRow & { stranded_pass: number })[]> {
      return db('search_passes as p')
        .join('searches as s', 's.id', 'p.search_id')
        .whereNull('p.workflow_started_at')
        .whereNotNull('p.workflow_id')
        .whereIn('p.status', ['queued', 'running'])
        .where('p.created_at', '<', db.raw('now() - make_interval(secs => ?)', [olderThanSeconds]))
        .modify((q) => (searchIds ? q.whereIn('p.search_id', searchIds) : q))
        .orderBy('p.created_at')
        .limit(100)
        .select('s.*', 'p.pass as stranded_pass');
    },
  };
}
