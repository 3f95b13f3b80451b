import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { OutboxSweepInput } from '../src/webhooks/contract';

// The dispatcher heartbeats every second; a dead worker is noticed within 5 s and the activity
// is retried on another one.
const { runOutboxDispatcher } = proxyActivities<Activities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '5 seconds' },
});

/** Started by the `outbox-sweep-<taskQueue>` Schedule: runs the outbox dispatcher for a while. */
export async function outboxSweepWorkflow(input: OutboxSweepInput): Promise<void> {
  await runOutboxDispatcher(input);
}
