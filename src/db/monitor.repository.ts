import type { Db } from './knex';

export const MONITOR_CADENCES = ['hour', 'day', 'week'] as const;
export type MonitorEvery = (typeof MONITOR_CADENCES)[number];
export const MONITOR_STATUSES = ['active', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];
/**
 * Why a monitor is paused: `manual` (a person or the CLI paused it), or it paused itself before
 * a live run it could not pay for or run (`no_credit`, `no_active_plan`, `provider_unavailable`),
 * or because its search failed.
 */
export const PAUSED_REASONS = ['manual', 'no_credit', 'no_active_plan', 'provider_unavailable', 'search_failed'] as const;
export type PausedReason = (typeof PAUSED_REASONS)[number];

export interface MonitorRow {
  id: string;
  workspace_id: string;
  project_id: string;
  search_id: string;
  every: MonitorEvery;
  status: MonitorStatus;
  paused_reason: PausedReason | null;
  anchor_at: Date;
  runs: number;
  new_people_total: number;
  last_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type MonitorRunStatus = 'running' | 'matched' | 'no_new_people' | 'failed' | 'skipped' | 'paused';

export interface MonitorRunRow {
  monitor_id: string;
  run_id: string;
  workspace_id: string;
  search_id: string;
  pass: number | null;
  status: MonitorRunStatus;
  reason: string | null;
  new_people: number;
  event_id: string | null;
  started_at: Date;
  finished_at: Date | null;
}

export type MonitorChanges = Partial<Pick<MonitorRow, 'every' | 'status' | 'paused_reason'>> & { anchor_at?: 'now' };

/** Monitors and their runs (monitors, monitor_runs). */
export function monitorRepository(db: Db) {
  return {
    async find(id: string): Promise<MonitorRow | undefined> {
      return db('monitors').where({ id }).first();
    },
    async findInWorkspace(workspaceId: string, id: string): Promise<MonitorRow | undefined> {
      return db('monitors').where({ workspace_id: workspaceId, id }).first();
    },
    /** Locks the monitor row until the transaction ends (every change of a monitor and every run's bookkeeping takes it). */
    async lock(id: string): Promise<MonitorRow | undefined> {
      return db('monitors').where({ id }).forUpdate().first();
    },
    async forSearch(searchId: string): Promise<MonitorRow | undefined> {
      return db('monitors').where({ search_id: searchId }).first();
    },
    /** The project's monitors, oldest first (at most one per search). */
    async listForProject(projectId: string, searchId?: string): Promise<MonitorRow[]> {
      return db('monitors')
        .where({ project_id: projectId })
        .modify((q) => (searchId ? q.andWhere({ search_id: searchId }) : q))
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    /** Monitors of every workspace or of one, oldest first (the operator CLI). */
    async list(filter: { workspaceId?: string; status?: MonitorStatus }, limit: number): Promise<MonitorRow[]> {
      return db('monitors')
        .modify((q) => (filter.workspaceId ? q.where({ workspace_id: filter.workspaceId }) : q))
        .modify((q) => (filter.status ? q.where({ status: filter.status }) : q))
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .limit(limit);
    },
    async countForWorkspace(workspaceId: string): Promise<number> {
      const [{ n }] = await db('monitors').where({ workspace_id: workspaceId }).count({ n: '*' });
      return Number(n);
    },
    async insert(monitor: Pick<MonitorRow, 'id' | 'workspace_id' | 'project_id' | 'search_id' | 'every'>): Promise<MonitorRow> {
      const [row] = await db('monitors').insert(monitor).returning('*');
      return row;
    },
    async update(id: string, changes: MonitorChanges): Promise<MonitorRow> {
      const { anchor_at, ...rest } = changes;
      const [row] = await db('monitors')
        .where({ id })
        .update({ ...rest, ...(anchor_at ? { anchor_at: db.fn.now() } : {}), updated_at: db.fn.now() })
        .returning('*');
      return row;
    },
    async delete(id: string): Promise<boolean> {
      return (await db('monitors').where({ id }).delete()) > 0;
    },
    /** A run finished: counted, with the people it delivered. */
    async countRun(id: string, newPeople: number): Promise<MonitorRow> {
      const [row] = await db('monitors')
        .where({ id })
        .update({
          runs: db.raw('runs + 1'),
          new_people_total: db.raw('new_people_total + ?', [newPeople]),
          last_run_at: db.fn.now(),
          updated_at: db.fn.now(),
        })
        .returning('*');
      return row;
    },
    async findRun(monitorId: string, runId: string): Promise<MonitorRunRow | undefined> {
      return db('monitor_runs').where({ monitor_id: monitorId, run_id: runId }).first();
    },
    async insertRun(
      run: Pick<MonitorRunRow, 'monitor_id' | 'run_id' | 'workspace_id' | 'search_id' | 'status'> & Partial<MonitorRunRow>,
    ): Promise<MonitorRunRow> {
      const [row] = await db('monitor_runs').insert(run).returning('*');
      return row;
    },
    async finishRun(monitorId: string, runId: string, changes: Pick<MonitorRunRow, 'status' | 'new_people' | 'event_id'>): Promise<MonitorRunRow> {
      const [row] = await db('monitor_runs')
        .where({ monitor_id: monitorId, run_id: runId })
        .update({ ...changes, finished_at: db.fn.now() })
        .returning('*');
      return row;
    },
    /** The monitor's latest runs, newest first. */
    async recentRuns(monitorId: string, limit: number): Promise<MonitorRunRow[]> {
      return db('monitor_runs').where({ monitor_id: monitorId }).orderBy('started_at', 'desc').limit(limit);
    },
    /** The candidates a pass delivered (read and scored), best first: who a monitor run found. */
    async deliveredByPass(searchId: string, pass: number, limit: number): Promise<string[]> {
      const rows: { candidate_id: string }[] = await db('search_people')
        .where({ search_id: searchId, pass, status: 'scored' })
        .orderBy([{ column: 'score', order: 'desc' }, { column: 'seq' }])
        .limit(limit)
        .select('candidate_id');
      return rows.map((r) => r.candidate_id);
    },
  };
}
