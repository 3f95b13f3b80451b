import { randomUUID } from 'node:crypto';
import type { Db } from '../db/knex';
import { monitorRepository, type MonitorChanges, type MonitorEvery, type MonitorRow, type MonitorStatus } from '../db/monitor.repository';
import { searchRepository } from '../db/search.repository';
import { workspaceRepository } from '../db/workspace.repository';
import { AppError, notFound } from '../domain/errors';
import type { TemporalTarget } from '../temporal/catalog';
import { cadenceSeconds, deleteMonitorSchedule, syncMonitorSchedule } from './monitor-schedule';

/**
 * Monitors as the API and the CLI change them. Postgres and the monitor's Schedule are kept in
 * step this way: a change that lets runs happen (create, resume, a new cadence) reaches Temporal
 * before the row commits, so a Temporal failure changes nothing (503, safe to retry); a change
 * that stops runs (pause, delete) commits first and then tells Temporal, and should that fail,
 * the Schedule's next run finds the monitor paused or gone and pauses or deletes the Schedule
 * itself (monitor-run.service.ts).
 */

export const MAX_MONITORS_PER_WORKSPACE = 100;

export interface MonitorDeps {
  db: Db;
  temporal: TemporalTarget;
  /** MONITOR_EVERY_SECONDS, or null. */
  everySeconds: number | null;
  /** Where Temporal failures of best-effort steps are reported. */
  warn: (err: unknown, message: string) => void;
}

const temporalUnavailable = (err: unknown) => {
  if (err instanceof AppError) return err;
  return new AppError(
    'service_unavailable',
    503,
    "The monitor's schedule could not be reached; nothing was changed, retry",
    { retry_after_seconds: 5 },
    { 'Retry-After': '5' },
  );
};

/** The monitor of the caller's workspace, or 404 monitor_not_found. */
export async function findMonitorOr404(db: Db, workspaceId: string, monitorId: string): Promise<MonitorRow> {
  const found = await monitorRepository(db).findInWorkspace(workspaceId, monitorId);
  if (!found) throw notFound('monitor_not_found', 'Monitor');
  return found;
}

/**
 * A monitor of one search of the project (one per search; at most MAX_MONITORS_PER_WORKSPACE),
 * with its Schedule. Its first run is one period from now.
 */
export async function createMonitor(
  deps: MonitorDeps,
  req: { workspaceId: string; projectId: string; searchId: string; every: MonitorEvery },
): Promise<MonitorRow> {
  return deps.db.transaction(async (trx) => {
    const monitors = monitorRepository(trx);
    await workspaceRepository(trx).lock(req.workspaceId); // the limit and the one-per-search rule, checked alone
    const search = await searchRepository(trx).findInWorkspace(req.workspaceId, req.searchId);
    if (!search || search.project_id !== req.projectId)
      throw new AppError('search_not_found', 404, 'Search not found in this project', { search_id: req.searchId });
    if (search.status === 'failed')
      throw new AppError('search_not_finished', 409, 'The search failed; only a search that completed (or still runs) can be monitored', {
        search_id: search.id,
        status: search.status,
      });
    const existing = await monitors.forSearch(search.id);
    if (existing)
      throw new AppError('monitor_exists', 409, 'The search has a monitor already; change it with PATCH /monitors/{monitorId}', { monitor_id: existing.id });
    if ((await monitors.countForWorkspace(req.workspaceId)) >= MAX_MONITORS_PER_WORKSPACE)
      throw new AppError('monitor_limit_reached', 409, `A workspace can have at most ${MAX_MONITORS_PER_WORKSPACE} monitors; delete one first`, {
        limit: MAX_MONITORS_PER_WORKSPACE,
      });
    const monitor = await monitors.insert({
      id: randomUUID(),
      workspace_id: req.workspaceId,
      project_id: req.projectId,
      search_id: search.id,
      every: req.every,
    });
    await syncMonitorSchedule(deps.temporal, monitor, cadenceSeconds(monitor.every, deps.everySeconds)).catch((err) => {
      throw temporalUnavailable(err);
    });
    return monitor;
  });
}

/**
 * Pauses (`paused_reason` manual), resumes (clearing the reason) or changes the cadence (the next
 * run is one new period from now). Repeating a change is safe: the Schedule is set again.
 */
export async function updateMonitor(deps: MonitorDeps, monitorId: string, body: { status?: MonitorStatus; every?: MonitorEvery }): Promise<MonitorRow> {
  const apply = async (trx: Db) => {
    const monitors = monitorRepository(trx);
    const current = await monitors.lock(monitorId);
    if (!current) throw notFound('monitor_not_found', 'Monitor');
    const changes: MonitorChanges = {};
    if (body.every !== undefined && body.every !== current.every) Object.assign(changes, { every: body.every, anchor_at: 'now' });
    if (body.status === 'paused' && current.status !== 'paused') Object.assign(changes, { status: 'paused', paused_reason: 'manual' });
    if (body.status === 'active') Object.assign(changes, { status: 'active', paused_reason: null });
    return Object.keys(changes).length ? monitors.update(monitorId, changes) : current;
  };
  const sync = (m: MonitorRow) => syncMonitorSchedule(deps.temporal, m, cadenceSeconds(m.every, deps.everySeconds));
  const result = await deps.db.transaction(async (trx) => {
    const updated = await apply(trx);
    if (updated.status === 'paused') return { updated, later: true };
    await sync(updated).catch((err) => {
      throw temporalUnavailable(err);
    });
    return { updated, later: false };
  });
  // A paused monitor is committed first: should Temporal fail here, its next run pauses the Schedule.
  if (result.later) await sync(result.updated).catch((err) => deps.warn(err, 'could not update the monitor schedule; its next run pauses it'));
  return result.updated;
}

/** Deletes the monitor, then its Schedule (a run still going finishes; one left over deletes its Schedule). */
export async function deleteMonitor(deps: MonitorDeps, monitorId: string): Promise<void> {
  await monitorRepository(deps.db).delete(monitorId);
  await deleteMonitorSchedule(deps.temporal.client, monitorId).catch((err) => deps.warn(err, 'could not delete the monitor schedule; its next run deletes it'));
}
