import { condition, continueAsNew, getExternalWorkflowHandle, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { workflowIds } from '../src/temporal/workflow-ids';
import { slotFreedSignal } from './messages';

export const { claimSearchSlot } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', maximumAttempts: 20 },
});

/**
 * Slot claims one run makes before it continues as new (~10 history events each: ~40 min of
 * waiting per run at the 15 s re-check), unless the server suggests it earlier. A search queued
 * for a day thus never carries a huge history.
 */
export const WAIT_ROUNDS_PER_RUN = 150;

export interface SlotWaitInput {
  searchId: string;
  pass: number;
  /** Overrides WAIT_ROUNDS_PER_RUN; tests lower it to see the wait continue as new. */
  waitRoundsPerRun?: number;
}

/**
 * Waits FIFO for one of the workspace's running slots (DESIGN.md §4), for every kind of pass.
 * When the history grows, continues as new with the same input: the workflow id, its search
 * attributes and its queries carry over, and signals keep reaching the latest run. The caller's
 * `catch` must let the ContinueAsNew error through (workflows/pass-failure.ts does). `claim`: the
 * claim as an activity (default) or as a local one (the search pass's steps).
 */
export async function waitForSlot(
  input: SlotWaitInput,
  claim: (ref: { searchId: string; pass: number }) => Promise<{ claimed: boolean }> = claimSearchSlot,
): Promise<void> {
  let woken = false;
  setHandler(slotFreedSignal, () => {
    woken = true;
  });
  const ref = { searchId: input.searchId, pass: input.pass };
  const limit = input.waitRoundsPerRun ?? WAIT_ROUNDS_PER_RUN;
  for (let round = 1; !(await claim(ref)).claimed; round++) {
    if (round >= limit || workflowInfo().continueAsNewSuggested) await continueAsNew(input);
    woken = false;
    await condition(() => woken, '15 seconds'); // a signal wakes us early; the timer heals a lost one
  }
}

/** A pass that held a slot ended: wake the searches waiting in the workspace so one claims it. */
export async function wakeWaiting(self: SlotWaitInput, waiting: string[]): Promise<void> {
  for (const id of waiting) {
    if (id === workflowIds.searchPass(self.searchId, self.pass)) continue;
    await getExternalWorkflowHandle(id)
      .signal(slotFreedSignal)
      .catch(() => undefined);
  }
}
