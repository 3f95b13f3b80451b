import { ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Db } from '../db/knex';
import { searchPassRepository } from '../db/search-pass.repository';
import type { Temporal } from '../temporal/client';
import { ensureSchedule } from '../temporal/schedules';
import { startPass } from './start.service';

/** A pass booked this long ago whose workflow has not started is stranded (a live start takes ms). */
export const STRANDED_AFTER_SECONDS = 60;
export const STRANDED_PASS_SWEEP_WORKFLOW = 'strandedPassSweepWorkflow';
export const strandedPassSweepScheduleId = (taskQueue: string) => `stranded-pass-sweep-${taskQueue}`;

/**
 * Starts the workflows of stranded passes: booked (credit reserved, search queued or running) but
 * never started, because Temporal was unreachable when the API answered 503 or the API process
 * died in between. Starting is idempotent, so a pass whose start did happen (only its record was
 * lost) is merely marked. `searchIds` narrows the sweep (tests share one database). Returns how
 * many passes it started or marked.
 */
export async function restartStrandedPasses(db: Db, temporal: Pick<Temporal, 'client' | 'taskQueue'>, opts: { searchIds?: string[] } = {}): Promise<number> {
  const stranded = await searchPassRepository(db).stranded(STRANDED_AFTER_SECONDS, opts.searchIds);
  for (const search of stranded) await startPass(db, temporal, search, search.stranded_pass);
  return stranded.length;
}

/** The Schedule that runs the stranded-pass sweep every minute on this task queue. Idempotent. */
export function ensureStrandedPassSweep(client: Client, taskQueue: string): Promise<void> {
  return ensureSchedule(client, {
    scheduleId: strandedPassSweepScheduleId(taskQueue),
    spec: { intervals: [{ every: '1 minute' }] },
    action: { type: 'startWorkflow', workflowType: STRANDED_PASS_SWEEP_WORKFLOW, workflowId: strandedPassSweepScheduleId(taskQueue), taskQueue, args: [] },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
    state: { note: 'Starts search passes whose workflow never started (src/searches/recovery.service.ts)' },
  });
}
