import { ApplicationFailure, condition, getExternalWorkflowHandle, isCancellation, proxyActivities, setHandler, CancellationScope } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { workflowIds } from '../src/temporal/workflow-ids';
import { progressQuery, slotFreedSignal, type SearchProgress } from './messages';

const { claimSearchSlot, completeSearchPass, failSearchPass } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', maximumAttempts: 20 },
});
// One page per activity: idempotent (recorded per page), heartbeating while it reads.
const { runSearchPage } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 8 },
});

export interface SearchPassInput {
  searchId: string;
  pass: number;
}

const MAX_PAGES = 400; // 10,000 people: far beyond any read budget; guards against a runaway loop

/** One search pass: wait for a slot (FIFO), page → read → score → shortlist, then complete or fail. */
export async function searchWorkflow(input: SearchPassInput): Promise<SearchProgress> {
  const progress: SearchProgress = { search_id: input.searchId, pass: input.pass, phase: 'waiting_for_slot', pages: 0, profiles_read: 0, delivered: 0, shortlisted: 0 };
  let woken = false;
  setHandler(progressQuery, () => progress);
  setHandler(slotFreedSignal, () => {
    woken = true;
  });

  const wakeWaiting = async (waiting: string[]) => {
    for (const id of waiting) {
      if (id === workflowIds.searchPass(input.searchId, input.pass)) continue;
      await getExternalWorkflowHandle(id).signal(slotFreedSignal).catch(() => undefined);
    }
  };

  try {
    while (!(await claimSearchSlot(input)).claimed) {
      woken = false;
      await condition(() => woken, '15 seconds'); // a signal wakes us early; the timer heals a lost one
    }
    progress.phase = 'running';
    let stopReason = null;
    for (let page = 0; page < MAX_PAGES && !stopReason; page++) {
      const outcome = await runSearchPage({ ...input, page });
      progress.pages = page + 1;
      progress.profiles_read = outcome.profilesRead;
      progress.delivered = outcome.delivered;
      progress.shortlisted = outcome.shortlisted;
      stopReason = outcome.stop;
    }
    const { wake } = await completeSearchPass({ ...input, stopReason: stopReason ?? 'pool_exhausted' });
    progress.phase = 'complete';
    await wakeWaiting(wake);
    return progress;
  } catch (err) {
    const cancelled = isCancellation(err);
    const reason = cancelled ? 'cancelled' : err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    // Record the failure even when cancelled: the search must not stay "running" with its credit held.
    const { wake } = await CancellationScope.nonCancellable(() => failSearchPass({ ...input, reason, stopReason: cancelled ? 'cancelled' : 'error' }));
    progress.phase = 'failed';
    await CancellationScope.nonCancellable(() => wakeWaiting(wake));
    if (cancelled) throw err;
    throw ApplicationFailure.nonRetryable(`search pass failed: ${reason}`, 'SearchFailed');
  }
}
