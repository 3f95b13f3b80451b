/** What the monitor-run workflow and its activities exchange (pure types: workflow code imports them). */

export interface MonitorRunInput {
  monitorId: string;
}

export interface MonitorRunRef {
  monitorId: string;
  /** The run's workflow id, which the Schedule makes unique per scheduled time. */
  runId: string;
}

/**
 * How a run ended: `matched` (it delivered someone new), `no_new_people`, `failed` (its pass
 * failed), `skipped` (nothing booked: the search was busy, the workspace frozen, or a live source's circuit open),
 * `paused` (the monitor is paused, or paused itself before a run it could not pay for or run),
 * `deleted` (the monitor is gone; its Schedule is deleted).
 */
export interface MonitorRunOutcome {
  status: 'matched' | 'no_new_people' | 'failed' | 'skipped' | 'paused' | 'deleted';
  reason: string | null;
  pass: number | null;
  newPeople: number;
}

/** What the run's first step decided: a pass to run, or the outcome without one. */
export type MonitorRunStart = { run: { searchId: string; pass: number } } | { run: null; outcome: MonitorRunOutcome };
