import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { failPass } from './pass-failure';
import type { SearchPassInput } from './search-pass.workflow';
import { waitForSlot, wakeWaiting } from './slots';

const { runDatabasePass, failSearchPass } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '20 seconds', maximumAttempts: 8 },
});

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
    return failPass(input, err, { failSearchPass, what: 'database pass', type: 'DatabasePassFailed' });
  }
}
