import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { applyScoringChange } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '20 seconds', maximumAttempts: 8 },
});

/** An applied scoring change: same people, new scores, the shortlist following; no credits. */
export async function rescoreWorkflow(input: { searchId: string; body: unknown; requestId: string }) {
  return applyScoringChange(input);
}
