import { patched, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { progressQuery, type SearchProgress } from './messages';
import { failPass } from './pass-failure';
import { claimSearchSlot, waitForSlot, wakeWaiting, type SlotWaitInput } from './slots';

const { completeSearchPass, failSearchPass } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds', maximumAttempts: 20 },
});
// One page per activity: idempotent (recorded per page), heartbeating while it reads.
const { runSearchPage } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 8 },
});

/**
 * A pass's steps (slot claim, pages, completion) run as local activities: each is recorded as a
 * marker in the workflow's own task instead of an activity task sent through the server and back,
 * which would be most of Temporal's share of a pass (bench/searches.bench.ts). The durability is the
 * same: a step's result is kept once recorded, and a step whose result was not recorded (a crash,
 * a workflow task the server refused) runs again, so every step is idempotent for its pass, also
 * after the pass closed (pass.service.ts). A local activity cannot heartbeat: its startToClose
 * bounds a page instead, and the worker keeps the workflow task alive meanwhile. Runs whose
 * history has the steps as activities replay them as activities (`patched`).
 */
const LOCAL_PASS_STEPS = 'pass-steps-local-activities';
const localSteps = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 8 },
  // Retries that wait longer wait on a durable timer instead of inside the workflow task, which
  // would otherwise stay open (and keep a stopping worker waiting) through minutes of backoff.
  localRetryThreshold: '5 seconds',
});

export type SearchPassInput = SlotWaitInput;

const MAX_PAGES = 400; // 10,000 people: far beyond any read budget; guards against a runaway loop

/**
 * One search pass: wait for a slot (FIFO), page → read → score → shortlist, then complete or fail.
 * Registered under the type name `searchWorkflow` (workflows/index.ts).
 */
export async function searchPassWorkflow(input: SearchPassInput): Promise<SearchProgress> {
  const progress: SearchProgress = {
    search_id: input.searchId,
    pass: input.pass,
    phase: 'waiting_for_slot',
    pages: 0,
    profiles_read: 0,
    delivered: 0,
    shortlisted: 0,
  };
  setHandler(progressQuery, () => progress);
  const ref = { searchId: input.searchId, pass: input.pass };

  const steps = patched(LOCAL_PASS_STEPS) ? localSteps : { claimSearchSlot, runSearchPage, completeSearchPass };
  try {
    await waitForSlot(input, steps.claimSearchSlot);
    progress.phase = 'running';
    let stopReason = null;
    for (let page = 0; page < MAX_PAGES && !stopReason; page++) {
      const outcome = await steps.runSearchPage({ ...ref, page });
      progress.pages = page + 1;
      progress.profiles_read = outcome.profilesRead;
      progress.delivered = outcome.delivered;
      progress.shortlisted = outcome.shortlisted;
      stopReason = outcome.stop;
    }
    const { wake } = await steps.completeSearchPass({ ...ref, stopReason: stopReason ?? 'pool_exhausted' });
    progress.phase = 'complete';
    await wakeWaiting(input, wake);
    return progress;
  } catch (err) {
    return failPass(input, err, {
      failSearchPass,
      what: 'search pass',
      type: 'SearchFailed',
      recorded: () => {
        progress.phase = 'failed';
      },
    });
  }
}
