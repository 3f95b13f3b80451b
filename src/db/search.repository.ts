import type { Readable } from 'node:stream';
import { copyCsv } from './copy-csv';
import type { Db } from './knex';
import type { ResolvedCriteria } from '../domain/criteria';
import type { Calibration } from '../ranking/calibration';
import type { ScoringWeights } from '../ranking/scoring';

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
  /** What the search learned from its ratings (src/searches/calibration.service.ts); null before any. */
  calibration: StoredCalibration | null;
  created_at: Date;
  started_at: Date | null;
  closed_at: Date | null;
  /** Changes with every change of the search or its people (trigger searches_touch). */
  updated_at: Date;
}

/** A calibration as stored: the model, and what makes its run idempotent. */
export interface StoredCalibration extends Calibration {
  /** The ratings learned from, as a hash: the same ratings are not learned from twice. */
  fingerprint: string;
  /** The calibration run that wrote it, and the pass it booked (null: none, e.g. a live search). */
  request_id: string;
  pass: number | null;
}

export type PassKind = 'launch' | 'expansion' | 'database_pass' | 'monitor' | 'calibration';

/** A pass of a search (search_passes); passes are written through searchPassRepository. */
export interface PassRow {
  search_id: string;
  pass: number;
  kind: PassKind;
  level: number | null;
  criteria: ResolvedCriteria;
  broadening: unknown;
  status: SearchStatus;
  profiles_read: number;
  delivered: number;
  shortlisted: number;
  stop_reason: StopReason | null;
  outcome: Outcome | null;
  previous: Pick<SearchRow, 'outcome' | 'stop_reason' | 'closed_at'> | null;
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

/** The columns a launch sets; the rest take their defaults. */
export type NewSearch = Pick<
  SearchRow,
  'id' | 'workspace_id' | 'project_id' | 'api_key_id' | 'status' | 'source' | 'criteria' | 'jd_text' | 'jd_confidence' | 'funding_bucket'
>;

export type SearchChanges = Partial<
  Pick<
    SearchRow,
    | 'status'
    | 'outcome'
    | 'stop_reason'
    | 'failure_reason'
    | 'criteria'
    | 'scoring_weights'
    | 'calibration'
    | 'profiles_read'
    | 'delivered'
    | 'shortlisted'
    | 'pages_fetched'
    | 'pass_count'
    | 'closed_at'
  >
>;

/**
 * The Records CSV rows (columns in RECORD_COLUMNS order), as `COPY … WITH CSV` writes them: the
 * cells after page and candidate_id are stored with each row, formula-neutralised by csv_cell
 * (migration 20261125000300), so COPY only quotes stored text.
 */
export const RECORD_CSV_SQL = `
  select sp.status, sp.score, sp.page + 1, sp.csv_first_name, sp.csv_last_name, sp.csv_title, sp.csv_company, sp.csv_location,
         sp.csv_network_url, sp.csv_open_profile, sp.csv_premium, sp.csv_summary, sp.candidate_id, sp.csv_about,
         sp.csv_experience_history, sp.csv_education, sp.csv_skills, sp.csv_certifications, sp.csv_languages, sp.csv_projects,
         sp.csv_connections
    from search_people sp
   where sp.search_id = ?
   order by sp.seq`;

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
    /** Locks the search row until the transaction ends (every state change of a search takes it). */
    async lock(id: string): Promise<SearchRow> {
      return db('searches').where({ id }).forUpdate().first();
    },
    async lastPass(searchId: string): Promise<PassRow | undefined> {
      return db('search_passes').where({ search_id: searchId }).orderBy('pass', 'desc').first();
    },
    async listForProject(projectId: string): Promise<SearchRow[]> {
      return db('searches')
        .where({ project_id: projectId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    async listForProjectNewestFirst(projectId: string): Promise<SearchRow[]> {
      return db('searches')
        .where({ project_id: projectId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
    },
    async insert(search: NewSearch): Promise<SearchRow> {
      const [row] = await db('searches').insert(search).returning('*');
      return row;
    },
    async update(id: string, changes: SearchChanges): Promise<SearchRow> {
      const [row] = await db('searches').where({ id }).update(changes).returning('*');
      return row;
    },
    /**
     * Running from now on; started_at keeps the first start (later passes run the same search again).
     * The statement's own time, not the transaction's: a slot claim can begin before the search it
     * waits for closes, and must not record a start earlier than that close.
     */
    async markRunning(id: string): Promise<SearchRow> {
      const [row] = await db('searches')
        .where({ id })
        .update({ status: 'running', started_at: db.raw('coalesce(started_at, statement_timestamp())') })
        .returning('*');
      return row;
    },
    /** Ends the search (complete or failed) now. */
    async close(id: string, changes: Pick<SearchRow, 'status' | 'outcome' | 'stop_reason'> & Partial<Pick<SearchRow, 'failure_reason'>>): Promise<SearchRow> {
      const [row] = await db('searches')
        .where({ id })
        .update({ ...changes, closed_at: db.fn.now() })
        .returning('*');
      return row;
    },
    /** Searches the workspace launched since midnight UTC. */
    async launchedToday(workspaceId: string): Promise<number> {
      const [{ today }] = await db('searches')
        .where({ workspace_id: workspaceId })
        .andWhere('created_at', '>=', db.raw("date_trunc('day', now() at time zone 'utc') at time zone 'utc'"))
        .count({ today: '*' });
      return Number(today);
    },
    /** How many of the workspace's searches run and how many wait for a slot. */
    async activeCounts(workspaceId: string): Promise<{ running: number; queued: number }> {
      const counts: { status: string; n: number }[] = await db('searches')
        .where({ workspace_id: workspaceId })
        .whereIn('status', ['queued', 'running'])
        .groupBy('status')
        .select('status')
        .count({ n: '*' });
      return { running: Number(counts.find((c) => c.status === 'running')?.n ?? 0), queued: Number(counts.find((c) => c.status === 'queued')?.n ?? 0) };
    },
    async runningCount(workspaceId: string): Promise<number> {
      const [{ running }] = await db('searches').where({ workspace_id: workspaceId, status: 'running' }).count({ running: '*' });
      return Number(running);
    },
    /** Whether a search of the same workspace has waited longer (FIFO order: created_at, then id). */
    async olderQueuedExists(search: Pick<SearchRow, 'id' | 'workspace_id' | 'created_at'>): Promise<boolean> {
      const older = await db('searches')
        .where({ workspace_id: search.workspace_id, status: 'queued' })
        .andWhere((q) =>
          q.where('created_at', '<', search.created_at).orWhere((q2) => q2.where('created_at', '=', search.created_at).andWhere('id', '<', search.id)),
        )
        .first('id');
      return older !== undefined;
    },
    /** The workspace's oldest waiting searches (at most `limit`), with their current pass. */
    async oldestQueued(workspaceId: string, limit: number): Promise<{ id: string; pass_count: number }[]> {
      return db('searches')
        .where({ workspace_id: workspaceId, status: 'queued' })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(limit)
        .select('id', 'pass_count');
    },
    /** The search's status and version stamp, if it belongs to the workspace. */
    async version(workspaceId: string, searchId: string): Promise<Pick<SearchRow, 'status' | 'updated_at'> | undefined> {
      return db('searches').where({ id: searchId, workspace_id: workspaceId }).first('status', 'updated_at');
    },
    /**
     * Scored people, best score first, ties in the order returned, with how many match min_score
     * (a window count: one query). JSON columns come back as text, to be spliced into the response
     * without a parse/stringify round trip.
     */
    async scoredPeople(
      searchId: string,
      opts: { minScore?: number; limit: number; offset: number; withProfile: boolean },
    ): Promise<{ people: RawPerson[]; total: number }> {
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
    /** records.csv: the header, then every person in order, streamed from COPY (see copyCsv). */
    recordsCsv(searchId: string, header: string): Promise<Readable> {
      return copyCsv(db, header, RECORD_CSV_SQL, [searchId]);
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
