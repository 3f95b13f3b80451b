import { executeChild, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { workflowIds } from '../src/temporal/workflow-ids';
import type * as registered from './index';
import type { SearchProgress } from './messages';
import { recordPassFailure } from './pass-failure';
import type { SearchPassInput } from './search-pass.workflow';

const { failSearchPass } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '20 seconds', maximumAttempts: 8 },
});

/** The type name the search pass is registered under (workflows/index.ts). */
const SEARCH_PASS_TYPE = 'searchWorkflow' satisfies keyof typeof registered;

/**
 * A project expansion: one new pass of the project's latest search with broadened criteria (the
 * pass row and the credit were booked by the API). The pass runs as the usual search-pass child
 * workflow, which gives the credit back if it fails.
 */
export async function expansionWorkflow(input: SearchPassInput & { projectId: string }): Promise<SearchProgress> {
  const pass = { searchId: input.searchId, pass: input.pass };
  try {
    // By type name: given the function, the SDK would name the child's type after the function.
    return await executeChild<(typeof registered)[typeof SEARCH_PASS_TYPE]>(SEARCH_PASS_TYPE, {
      workflowId: workflowIds.searchPass(input.searchId, input.pass),
      args: [pass],
      typedSearchAttributes: workflowInfo().typedSearchAttributes,
    });
  } catch (err) {
    // The child fails its own pass (and wakes the passes waiting for its slot); this covers an
    // expansion stopped before the child started.
    await recordPassFailure(pass, err, failSearchPass, String);
    throw err;
  }
}
