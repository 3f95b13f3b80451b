import { ApplicationFailure, CancellationScope, ContinueAsNew, executeChild, isCancellation, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { workflowIds } from '../src/temporal/workflow-ids';
import type { SearchProgress } from './messages';
import { searchWorkflow, type SearchPassInput } from './search.workflow';
import { waitForSlot, wakeWaiting } from './slots';

const { runDatabasePass, failSearchPass, applyScoringChange } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '20 seconds', maximumAttempts: 8 },
});

/**
 * A project expansion: one new pass of the project's latest search with broadened criteria (the
 * pass row and the credit were booked by the API). The pass runs as the usual search-pass child
 * workflow, which gives the credit back if it fails.
 */
export async function expansionWorkflow(input: SearchPassInput & { projectId: string }): Promise<SearchProgress> {
  const pass = { searchId: input.searchId, pass: input.pass };
  try {
    return await executeChild(searchWorkflow, {
      workflowId: workflowIds.searchPass(input.searchId, input.pass),
      args: [pass],
      typedSearchAttributes: workflowInfo().typedSearchAttributes,
    });
  } catch (err) {
    // The child fails its own pass; this covers an expansion stopped before the child started.
    // failSearchPass is a no-op for a pass already closed, so the credit comes back once.
    const cancelled = isCancellation(err);
    await CancellationScope.nonCancellable(() =>
      failSearchPass({ ...pass, reason: cancelled ? 'cancelled' : String(err), stopReason: cancelled ? 'cancelled' : 'error' }),
    );
    throw err;
  }
}

/**
 * A database pass: the same people re-scored against their latest stored profiles; no credits.
 * It takes one of the workspace's slots like any other pass.
 */
export async function databasePassWorkflow(input: SearchPassInput): Promise<{ rescored: number; refreshed: number }> {
  const ref = { searchId: input.searchId, pass: input.pass };
  try {
    await waitForSlot(input);
    const { wake, ...result } = await runDatabasePass(ref);
    await wakeWaiting(input, wake);
    return result;
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err; // still waiting for a slot, in a fresh run
    const cancelled = isCancellation(err);
    const reason = cancelled ? 'cancelled' : err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    const { wake } = await CancellationScope.nonCancellable(() => failSearchPass({ ...ref, reason, stopReason: cancelled ? 'cancelled' : 'error' }));
    await CancellationScope.nonCancellable(() => wakeWaiting(input, wake));
    if (cancelled) throw err;
    throw ApplicationFailure.nonRetryable(`database pass failed: ${reason}`, 'DatabasePassFailed');
  }
}

/** An applied scoring change: same people, new scores, the shortlist following; no credits. */
export async function rescoreWorkflow(input: { searchId: string; body: unknown; requestId: string }) {
  return applyScoringChange(input);
}
