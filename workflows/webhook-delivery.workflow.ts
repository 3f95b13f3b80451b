import { condition, defineSignal, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { REDELIVER_SIGNAL, type AttemptOutcome, type AttemptTrigger, type DeliveryWorkflowInput } from '../src/webhooks/contract';

// One attempt = one activity. HTTP outcomes come back as results; only infrastructure errors
// (database, decrypt) throw, and those are what this retry policy is for. A local activity: it
// runs inside the workflow task, so the Temporal server (the bottleneck of the dispatch path)
// has no activity task to schedule; ~1.5x the deliveries/s of a regular activity in
// bench/webhooks.bench.ts. Its result is still recorded in history.
const { attemptWebhookDelivery } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

export const redeliverNowSignal = defineSignal(REDELIVER_SIGNAL);

/**
 * `webhook-delivery-<deliveryId>`: attempt, and after a failure wait the schedule's next step
 * as a durable timer (a redeliver signal cuts it short), until delivered, abandoned after the
 * last step, or stopped because the endpoint is off. A test or manual redelivery has an empty
 * schedule: one attempt.
 */
export async function webhookDeliveryWorkflow(input: DeliveryWorkflowInput): Promise<AttemptOutcome> {
  let requested = false;
  setHandler(redeliverNowSignal, () => {
    requested = true;
  });
  const workflowId = workflowInfo().workflowId;
  const manual = input.trigger === 'redeliver';
  const schedule = input.retryScheduleSeconds;
  let step = 0;
  let trigger: AttemptTrigger = input.trigger ?? 'scheduled';
  const attempt = (retryInSeconds: number | null, manualRedelivery: boolean) =>
    attemptWebhookDelivery({ deliveryId: input.deliveryId, attemptKey: `${workflowId}#${step}`, retryInSeconds, trigger, manualRedelivery });

  let outcome: AttemptOutcome;
  for (;;) {
    requested = false;
    const wait = manual ? null : (schedule[step] ?? null);
    outcome = await attempt(wait, manual);
    step++;
    if (!outcome.retry || wait === null) break;
    const signalled = requested || (wait > 0 && (await condition(() => requested, wait * 1000)));
    trigger = signalled ? 'redeliver' : 'scheduled';
  }
  // A redeliver request that arrived during the final attempt still gets its attempt.
  while (requested && outcome.status !== 'stopped') {
    requested = false;
    trigger = 'redeliver';
    outcome = await attempt(null, true);
    step++;
  }
  return outcome;
}
