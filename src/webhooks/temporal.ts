import { ScheduleOverlapPolicy, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { Temporal } from '../temporal/client';
import { ensureSchedule } from '../temporal/schedules';
import { WorkspaceIdAttr } from '../temporal/search-attributes';
import { DELIVERY_WORKFLOW, deliveryWorkflowId, OUTBOX_SWEEP_WORKFLOW, outboxSweepScheduleId, REDELIVER_SIGNAL, redeliveryWorkflowId, type DeliveryWorkflowInput, type OutboxSweepInput } from './contract';
import type { StartDelivery } from './fanout';

/** How long one dispatcher run listens; the schedule (every 30 s, buffer one) starts the next at once. */
export const DISPATCHER_RUN_SECONDS = 300;
const SWEEP_EVERY = '30 seconds';

async function startDeliveryWorkflow(client: Client, taskQueue: string, workflowId: string, workspaceId: string, input: DeliveryWorkflowInput, eager = false): Promise<void> {
  try {
    await client.workflow.start(DELIVERY_WORKFLOW, {
      taskQueue,
      workflowId,
      args: [input],
      // Never a second run under the same id, even after the first finished.
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      requestEagerStart: eager,
      typedSearchAttributes: new TypedSearchAttributes([{ key: WorkspaceIdAttr, value: workspaceId }]),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Starts `webhook-delivery-<deliveryId>`; a repeat start is a no-op. `eager` (only with a worker's
 * own client, i.e. in an activity) hands the first workflow task straight to this worker: no
 * matching round trip, which is most of the commit → receipt latency at low load.
 */
export const deliveryStarter =
  (client: Client, taskQueue: string, opts: { eager?: boolean } = {}): StartDelivery =>
  (delivery, input) =>
    startDeliveryWorkflow(client, taskQueue, deliveryWorkflowId(delivery.id), delivery.workspace_id, input, opts.eager);

/**
 * An immediate attempt of a delivery with its same event: a running (sleeping) workflow is
 * signalled to attempt now; for a finished one a one-attempt workflow is started, on the task
 * queue the delivery ran on.
 */
export async function signalOrStartRedelivery(
  client: Client,
  fallbackTaskQueue: string,
  delivery: { id: string; workspace_id: string },
  nextRedelivery: () => Promise<number>,
): Promise<{ mode: 'signalled' | 'started'; workflowId: string }> {
  const handle = client.workflow.getHandle(deliveryWorkflowId(delivery.id));
  const description = await handle.describe().catch((err) => {
    if (err instanceof WorkflowNotFoundError) return null; // never started, or past retention
    throw err;
  });
  if (description?.status.name === 'RUNNING') {
    try {
      await handle.signal(REDELIVER_SIGNAL);
      return { mode: 'signalled', workflowId: handle.workflowId };
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err; // it finished meanwhile: start one
    }
  }
  const workflowId = redeliveryWorkflowId(delivery.id, await nextRedelivery());
  await startDeliveryWorkflow(client, description?.taskQueue ?? fallbackTaskQueue, workflowId, delivery.workspace_id, {
    deliveryId: delivery.id,
    retryScheduleSeconds: [],
    trigger: 'redeliver',
  });
  return { mode: 'started', workflowId };
}

/**
 * The outbox dispatcher's crash-safety net: a Temporal Schedule that keeps one sweep workflow
 * running per task queue (its activity listens for new events and fans them out). Idempotent.
 */
export async function ensureOutboxSweep(client: Client, taskQueue: string): Promise<void> {
  const input: OutboxSweepInput = { runSeconds: DISPATCHER_RUN_SECONDS };
  await ensureSchedule(client, {
    scheduleId: outboxSweepScheduleId(taskQueue),
    spec: { intervals: [{ every: SWEEP_EVERY }] },
    action: {
      type: 'startWorkflow',
      workflowType: OUTBOX_SWEEP_WORKFLOW,
      workflowId: outboxSweepScheduleId(taskQueue),
      taskQueue,
      args: [input],
      workflowRunTimeout: `${DISPATCHER_RUN_SECONDS * 2} seconds`,
    },
    // A tick during a run is kept and starts the next run as soon as this one ends: no gap.
    policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE, catchupWindow: '1 minute' },
    state: { triggerImmediately: true, note: 'Fans out the webhook outbox (src/webhooks)' },
  });
}

const ensured = new Map<string, Promise<void>>();

/** ensureOutboxSweep once per process and task queue; a failure is retried by the next call. */
export function ensureOutboxSweepOnce(temporal: Pick<Temporal, 'client' | 'taskQueue'>): Promise<void> {
  const key = `${temporal.client.options.namespace}/${temporal.taskQueue}`;
  let pending = ensured.get(key);
  if (!pending) {
    pending = ensureOutboxSweep(temporal.client, temporal.taskQueue).catch((err) => {
      ensured.delete(key);
      throw err;
    });
    ensured.set(key, pending);
  }
  return pending;
}
