import { CancellationScope, executeChild, isCancellation, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { MonitorRunInput, MonitorRunOutcome } from '../src/monitors/monitor-run.contract';
import { workflowIds } from '../src/temporal/workflow-ids';
import type * as registered from './index';
import { recordPassFailure } from './pass-failure';

const { beginMonitorRun, finishMonitorRun, failSearchPass } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/** The type name the search pass is registered under (workflows/index.ts). */
const SEARCH_PASS_TYPE = 'searchWorkflow' satisfies keyof typeof registered;

/**
 * One run of a monitor, started by its Schedule (`monitor-<id>`): books a new pass of the search
 * over people the project has not seen (or decides not to: the monitor is paused or gone, the
 * search busy, no credit for a live run), runs it as the usual search-pass child, then records the
 * run and its `monitor.matched` once. Both steps are keyed by this workflow's id, so retries of
 * either book one pass and write one event.
 */
export async function monitorRunWorkflow(input: MonitorRunInput): Promise<MonitorRunOutcome> {
  const ref = { monitorId: input.monitorId, runId: workflowInfo().workflowId };
  const start = await beginMonitorRun(ref);
  if (!start.run) return start.outcome;
  const pass = start.run;
  let cancelled: Error | null = null;
  try {
    // By type name: given the function, the SDK would name the child's type after the function.
    await executeChild<(typeof registered)[typeof SEARCH_PASS_TYPE]>(SEARCH_PASS_TYPE, {
      workflowId: workflowIds.searchPass(pass.searchId, pass.pass),
      args: [pass],
      typedSearchAttributes: workflowInfo().typedSearchAttributes,
    });
  } catch (err) {
    // The child fails its own pass (giving a live run's credit back); this covers a child that never started.
    await recordPassFailure(pass, err, failSearchPass, String);
    if (isCancellation(err)) cancelled = err as Error;
  }
  const outcome = await CancellationScope.nonCancellable(() => finishMonitorRun(ref));
  if (cancelled) throw cancelled;
  return outcome;
}
