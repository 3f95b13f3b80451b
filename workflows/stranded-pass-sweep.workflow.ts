import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { restartStrandedPasses } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/** Started every minute by the `stranded-pass-sweep-<taskQueue>` Schedule (src/searches/recovery.ts). */
export async function strandedPassSweepWorkflow(): Promise<number> {
  return restartStrandedPasses();
}
