import type { Config } from '../config';
import { costEventRepository } from '../db/cost-event.repository';
import { creditLedgerRepository } from '../db/credit-ledger.repository';
import type { Db } from '../db/knex';
import { monitorRepository, type MonitorRow, type MonitorRunRow, type PausedReason } from '../db/monitor.repository';
import { projectRepository } from '../db/project.repository';
import { searchPassRepository } from '../db/search-pass.repository';
import { searchRepository, type SearchRow } from '../db/search.repository';
import { workspaceRepository, type Workspace } from '../db/workspace.repository';
import { AppError } from '../domain/errors';
import { writeEvent } from '../events/outbox';
import { ensureLiveSearchPossible, planCheck, requireCredit, reserveKey } from '../searches/launch.service';
import type { MonitorRunOutcome, MonitorRunRef, MonitorRunStart } from './monitor-run.contract';
import { monitorMatchedData } from './monitors.presenter';

/**
 * The two steps of a monitor run (workflows/monitor-run.workflow.ts), each one transaction keyed
 * by the run (monitor_runs), so a retried step answers what it did the first time: one pass
 * booked, one credit reserved, one monitor.matched written.
 */

/** At most this many candidate ids in monitor.matched (as in shortlist.changed's lists). */
export const MATCHED_IDS_MAX = 200;

/** What the Schedule should be told after a run that did not go ahead. */
export type ScheduleFix = 'pause' | 'delete' | null;

const outcome = (status: MonitorRunOutcome['status'], reason: string | null = null, pass: number | null = null, newPeople = 0): MonitorRunOutcome => ({
  status,
  reason,
  pass,
  newPeople,
});

/** What a finished (or never started) run recorded. */
const outcomeOfRun = (run: MonitorRunRow) => outcome(run.status as MonitorRunOutcome['status'], run.reason, run.pass, run.new_people);

/** The start a run recorded earlier answers again (a retried step). */
function startOf(run: MonitorRunRow): { start: MonitorRunStart; schedule: ScheduleFix } {
  if (run.status === 'running') return { start: { run: { searchId: run.search_id, pass: run.pass! } }, schedule: null };
  return { start: { run: null, outcome: outcomeOfRun(run) }, schedule: run.status === 'paused' ? 'pause' : null };
}

/**
 * Why a live run cannot go ahead now: a reason to pause the monitor for (until a person acts), or
 * `search_unavailable` (the provider's circuit is open: this run is skipped, the next one tries).
 */
async function liveRefusal(trx: Db, config: Config, search: SearchRow, workspace: Workspace): Promise<PausedReason | 'search_unavailable' | null> {
  try {
    planCheck(workspace);
    await ensureLiveSearchPossible(trx, config, search.workspace_id);
    await requireCredit(trx, search.workspace_id, search.funding_bucket);
    return null;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'search_unavailable') return 'search_unavailable';
    if (err.code === 'provider_unavailable') return 'provider_unavailable';
    if (err.code === 'shortlist_allocation_exhausted') return 'no_credit';
    if (err.code === 'plan_required' || err.code === 'no_active_plan') return 'no_active_plan';
    throw err;
  }
}

/**
 * Books the run's pass: kind `monitor`, the search's current criteria, queued for a slot like any
 * pass; a live one reserves 1 credit (given back if the pass fails). The pass is owned by the
 * run's workflow, which starts it, so the stranded-pass sweep never starts it a second time.
 */
async function bookPass(trx: Db, monitor: MonitorRow, search: SearchRow, runId: string): Promise<number> {
  const pass = search.pass_count + 1;
  const passes = searchPassRepository(trx);
  await passes.insert({
    search_id: search.id,
    pass,
    kind: 'monitor',
    criteria: search.criteria,
    status: 'queued',
    workflow_id: runId,
    previous: { outcome: search.outcome, stop_reason: search.stop_reason, closed_at: search.closed_at },
  });
  await passes.markWorkflowStarted(search.id, pass);
  await searchRepository(trx).update(search.id, { status: 'queued', pass_count: pass });
  if (search.criteria.mode === 'live') {
    const uniqueKey = reserveKey(search.id, pass);
    await creditLedgerRepository(trx).append({
      workspaceId: search.workspace_id,
      bucket: search.funding_bucket,
      delta: -1,
      reason: 'search:monitor',
      uniqueKey,
    });
    await costEventRepository(trx).record({
      workspaceId: search.workspace_id,
      requestId: null,
      action: 'monitor_run',
      keyId: search.api_key_id,
      credits: 1,
      uniqueKey,
    });
  }
  await monitorRepository(trx).insertRun({
    monitor_id: monitor.id,
    run_id: runId,
    workspace_id: monitor.workspace_id,
    search_id: search.id,
    status: 'running',
    pass,
  });
  return pass;
}

/**
 * The run's first step: a pass to run, or why there is none. A paused or deleted monitor does
 * nothing (and its Schedule is paused or deleted, should an earlier change have failed to); a
 * search that is running is left alone (this run is skipped); a live run the workspace cannot pay
 * for or run pauses the monitor with its `paused_reason`.
 */
export async function beginMonitorRun(db: Db, config: Config, ref: MonitorRunRef): Promise<{ start: MonitorRunStart; schedule: ScheduleFix }> {
  const stop = (o: MonitorRunOutcome, schedule: ScheduleFix = null) => ({ start: { run: null, outcome: o } as MonitorRunStart, schedule });
  // Without waiting on the lock of a search whose pass is running: such a run is skipped anyway.
  const glance = await monitorRepository(db).find(ref.monitorId);
  const busy = glance && (await searchRepository(db).find(glance.search_id));
  return db.transaction(async (trx) => {
    const monitors = monitorRepository(trx);
    const monitor = await monitors.lock(ref.monitorId);
    if (!monitor) return stop(outcome('deleted'), 'delete');
    const earlier = await monitors.findRun(monitor.id, ref.runId);
    if (earlier) return startOf(earlier);
    if (monitor.status === 'paused') return stop(outcome('paused', monitor.paused_reason), 'pause');
    const skip = async (reason: string) => {
      await monitors.insertRun({
        monitor_id: monitor.id,
        run_id: ref.runId,
        workspace_id: monitor.workspace_id,
        search_id: monitor.search_id,
        status: 'skipped',
        reason,
      });
      return stop(outcome('skipped', reason));
    };
    if (busy && (busy.status === 'queued' || busy.status === 'running')) return skip('search_busy');
    // Expansions book passes under the project lock: so does a run, so two passes never take one number.
    await projectRepository(trx).lock(monitor.project_id);
    const search = await searchRepository(trx).lock(monitor.search_id);
    if (search.status === 'queued' || search.status === 'running') return skip('search_busy');
    // A frozen workspace is read-only: its monitors wait, and run again once it is unfrozen.
    const workspace = (await workspaceRepository(trx).find(search.workspace_id))!;
    if (workspace.frozen) return skip('workspace_frozen');
    const refusal = search.status === 'failed' ? 'search_failed' : search.criteria.mode === 'live' ? await liveRefusal(trx, config, search, workspace) : null;
    if (refusal === 'search_unavailable') return skip(refusal);
    if (refusal) {
      await monitors.update(monitor.id, { status: 'paused', paused_reason: refusal });
      await monitors.insertRun({
        monitor_id: monitor.id,
        run_id: ref.runId,
        workspace_id: monitor.workspace_id,
        search_id: search.id,
        status: 'paused',
        reason: refusal,
      });
      return stop(outcome('paused', refusal), 'pause');
    }
    const pass = await bookPass(trx, monitor, search, ref.runId);
    return { start: { run: { searchId: search.id, pass } }, schedule: null };
  });
}

/**
 * The run's last step, after its pass ended: counts the run on the monitor and, when the pass
 * delivered anyone (all of them new to the project), writes monitor.matched, once per run.
 */
export async function finishMonitorRun(db: Db, ref: MonitorRunRef, baseUrl: string): Promise<MonitorRunOutcome> {
  return db.transaction(async (trx) => {
    const monitors = monitorRepository(trx);
    const monitor = await monitors.lock(ref.monitorId);
    const run = monitor && (await monitors.findRun(monitor.id, ref.runId));
    if (!monitor || !run) return outcome('deleted'); // deleted during the run, its runs with it
    if (run.status !== 'running') return outcomeOfRun(run);
    const pass = (await searchPassRepository(trx).find(run.search_id, run.pass!))!;
    const newPeople = pass.status === 'complete' ? pass.delivered : 0;
    const status = pass.status !== 'complete' ? 'failed' : newPeople > 0 ? 'matched' : 'no_new_people';
    let eventId: string | null = null;
    if (status === 'matched') {
      const candidateIds = await monitors.deliveredByPass(run.search_id, pass.pass, MATCHED_IDS_MAX);
      eventId = await writeEvent(trx, {
        workspaceId: monitor.workspace_id,
        type: 'monitor.matched',
        data: monitorMatchedData(monitor, { pass: pass.pass, newPeople, candidateIds }, baseUrl),
        dedupeKey: `monitor.matched:${monitor.id}:${ref.runId}`,
      });
    }
    await monitors.finishRun(monitor.id, ref.runId, { status, new_people: newPeople, event_id: eventId });
    await monitors.countRun(monitor.id, newPeople);
    return outcome(status, status === 'failed' ? (pass.stop_reason ?? 'error') : null, pass.pass, newPeople);
  });
}
