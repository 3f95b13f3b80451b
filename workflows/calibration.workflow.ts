import {
  condition,
  continueAsNew,
  defineSignal,
  executeChild,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { FEEDBACK_SIGNAL, type CalibrationInput, type CalibrationOutcome } from '../src/feedback/calibration.contract';
import { workflowIds } from '../src/temporal/workflow-ids';
import type * as registered from './index';

const { calibrateSearch } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '20 seconds', maximumAttempts: 8 },
});

/** Every feedback call signals it (signal-with-start from POST /searches/{id}/feedback). */
export const feedbackSignal = defineSignal(FEEDBACK_SIGNAL);

/** The type name the search pass is registered under (workflows/index.ts). */
const SEARCH_PASS_TYPE = 'searchWorkflow' satisfies keyof typeof registered;
/** Calibrations one run makes before it continues as new, so a search rated all day keeps a short history. */
const ROUNDS_PER_RUN = 20;
/** While a pass of the search runs, look again after 2 s, then less often, up to every 30 s. */
const BUSY_FIRST_WAIT_S = 2;
const BUSY_LONGEST_WAIT_S = 30;

/**
 * `calibration-<searchId>`: one per search. Waits until no rating has come for `quietSeconds`,
 * then calibrates from every rating of the search (src/searches/calibration.service.ts: learn,
 * re-score, book a pass) once no pass of it runs, and runs the booked pass as the usual search-pass
 * child. Ratings that came meanwhile start another round; otherwise it ends, and the next rating
 * starts a new run. The database decides what is learned, so a lost or repeated signal costs at
 * most one round that changes nothing.
 */
export async function calibrationWorkflow(input: CalibrationInput): Promise<CalibrationOutcome> {
  let received = 0;
  setHandler(feedbackSignal, () => {
    received += 1;
  });
  const quietMs = input.quietSeconds * 1000;
  for (let round = 1; ; round++) {
    // The quiet period: a rating that comes during it starts it again.
    let seen = received;
    while (quietMs > 0 && (await condition(() => received !== seen, quietMs))) seen = received;

    const request = { searchId: input.searchId, requestId: `${workflowInfo().runId}-${round}` };
    let outcome = await calibrateSearch(request);
    for (let wait = BUSY_FIRST_WAIT_S; outcome.state === 'busy'; wait = Math.min(2 * wait, BUSY_LONGEST_WAIT_S)) {
      // A rating while we wait is learned from too: the attempt reads every rating when it runs.
      await sleep(wait * 1000);
      outcome = await calibrateSearch(request);
    }
    if (outcome.state === 'calibrated' && outcome.pass !== null) {
      try {
        // By type name (see expansion.workflow.ts); abandoned on close: a pass must end on its own terms.
        await executeChild<(typeof registered)[typeof SEARCH_PASS_TYPE]>(SEARCH_PASS_TYPE, {
          workflowId: workflowIds.searchPass(input.searchId, outcome.pass),
          args: [{ searchId: input.searchId, pass: outcome.pass }],
          typedSearchAttributes: workflowInfo().typedSearchAttributes,
          parentClosePolicy: ParentClosePolicy.ABANDON,
        });
      } catch {
        // The pass records its own failure and puts the search back as it was.
      }
    }
    if (received === seen) return outcome;
    if (round >= ROUNDS_PER_RUN || workflowInfo().continueAsNewSuggested) await continueAsNew<typeof calibrationWorkflow>(input);
  }
}
