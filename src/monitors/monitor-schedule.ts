import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { MonitorEvery, MonitorRow } from '../db/monitor.repository';
import { catalog, scheduledStart, scheduleIds, type TemporalTarget } from '../temporal/catalog';
import { ProjectIdAttr, SearchIdAttr, WorkspaceIdAttr } from '../temporal/search-attributes';

/** Seconds of each cadence; MONITOR_EVERY_SECONDS (tests and demos) replaces all three. */
export const CADENCE_SECONDS: Record<MonitorEvery, number> = { hour: 3600, day: 86_400, week: 604_800 };

export const cadenceSeconds = (every: MonitorEvery, override: number | null): number => override ?? CADENCE_SECONDS[every];

type ScheduledMonitor = Pick<MonitorRow, 'id' | 'workspace_id' | 'project_id' | 'search_id' | 'status' | 'paused_reason' | 'anchor_at'>;

/**
 * The Schedule's interval: every `seconds`, offset so that runs fall on anchor_at + k × seconds.
 * Temporal counts intervals from the Unix epoch, so the offset is the anchor's remainder: the first
 * run is one period after the monitor was made (or its cadence changed), and monitors made at
 * different times do not all run at the top of the hour.
 */
function interval(anchorAt: Date, seconds: number) {
  // Temporal keeps whole seconds of an interval.
  return { every: seconds * 1000, offset: (Math.floor(new Date(anchorAt).getTime() / 1000) % seconds) * 1000 };
}

/** When the next run starts: the first anchor_at + k × seconds after `now`; null while paused. */
export function nextRunAt(monitor: Pick<MonitorRow, 'status' | 'anchor_at'>, seconds: number, now = Date.now()): Date | null {
  if (monitor.status !== 'active') return null;
  const { every, offset } = interval(monitor.anchor_at, seconds);
  return new Date(Math.floor((now - offset) / every) * every + every + offset);
}

const attributes = (m: ScheduledMonitor) =>
  new TypedSearchAttributes([
    { key: WorkspaceIdAttr, value: m.workspace_id },
    { key: ProjectIdAttr, value: m.project_id },
    { key: SearchIdAttr, value: m.search_id },
  ]);

const noteOf = (m: ScheduledMonitor) => (m.status === 'paused' ? `paused: ${m.paused_reason ?? 'manual'}` : 'Runs the monitor (src/monitors)');

/**
 * The monitor's Schedule: `monitorRunWorkflow` every cadence, one run at a time (a tick while one
 * runs is skipped), a missed tick caught up within a period (or a minute), with the search
 * attributes of the search workflows on the Schedule and on every run.
 */
export function monitorScheduleOptions(mainQueue: string, monitor: ScheduledMonitor, seconds: number): ScheduleOptions {
  const id = scheduleIds.monitor(monitor.id);
  return {
    scheduleId: id,
    spec: { intervals: [interval(monitor.anchor_at, seconds)] },
    action: scheduledStart(mainQueue, catalog.monitorRun, id, [{ monitorId: monitor.id }], { typedSearchAttributes: attributes(monitor) }),
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: `${Math.max(seconds, 60)} seconds` },
    state: { paused: monitor.status === 'paused', note: noteOf(monitor) },
    typedSearchAttributes: attributes(monitor),
  };
}

/**
 * Makes the monitor's Schedule match its row: creates it when missing; otherwise sets its interval,
 * policies and paused state from the row, keeping its action (the task queue it was made for,
 * which the CLI's own configuration need not know).
 */
export async function syncMonitorSchedule(temporal: TemporalTarget, monitor: ScheduledMonitor, seconds: number): Promise<void> {
  const desired = monitorScheduleOptions(temporal.taskQueue, monitor, seconds);
  const handle = temporal.client.schedule.getHandle(desired.scheduleId);
  try {
    await handle.update((previous) => ({
      ...previous,
      spec: desired.spec,
      policies: { ...previous.policies, ...desired.policies },
      state: { ...previous.state, paused: monitor.status === 'paused', note: noteOf(monitor) },
    }));
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
    try {
      await temporal.client.schedule.create(desired);
    } catch (created) {
      // Made meanwhile by a concurrent change, which set it from the row as well.
      if (!(created instanceof ScheduleAlreadyRunning)) throw created;
    }
  }
}

/** Pauses the monitor's Schedule (a run reconciling a paused monitor); a missing one is fine. */
export async function pauseMonitorSchedule(client: Client, monitorId: string, note: string): Promise<void> {
  try {
    const handle = client.schedule.getHandle(scheduleIds.monitor(monitorId));
    if (!(await handle.describe()).state.paused) await handle.pause(note);
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}

/** Deletes the monitor's Schedule (already running workflows go on); a missing one is fine. */
export async function deleteMonitorSchedule(client: Client, monitorId: string): Promise<void> {
  try {
    await client.schedule.getHandle(scheduleIds.monitor(monitorId)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}
