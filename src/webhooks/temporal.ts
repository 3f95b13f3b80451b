import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { catalog, ensureSchedules, startWorkflow, type TemporalTarget } from '../temporal/catalog';
import { WorkspaceIdAttr } from '../temporal/search-attributes';
import { withTraceCarrier } from '../tracing/trace-context';
import { REDELIVER_SIGNAL, type DeliveryWorkflowInput } from './contract';
import type { StartDelivery } from './fanout';

/** `target.taskQueue` is the main queue; deliveries run on the webhooks queue the catalogue derives from it. */
async function startDeliveryWorkflow(
  target: TemporalTarget,
  workflowId: string,
  workspaceId: string,
  input: DeliveryWorkflowInput,
  opts: { eager?: boolean; taskQueue?: string } = {},
): Promise<void> {
  try {
    await startWorkflow(target, catalog.webhookDelivery, {
      workflowId,
      taskQueue: opts.taskQueue,
      args: [input],
      // Never a second run under the same id, even after the first finished.
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      requestEagerStart: opts.eager ?? false,
      typedSearchAttributes: new TypedSearchAttributes([{ key: WorkspaceIdAttr, value: workspaceId }]),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Starts `webhook-delivery-<deliveryId>`; a repeat start is a no-op. `eager` (only with a worker's
 * own client, i.e. in an activity) hands the first workflow task straight to this worker: no
 * matching round trip, which is most of the commit → receipt latency at low load. The start (and
 * so the delivery's workflow, attempts and POSTs) continues the trace its event was written in,
 * not the dispatcher's.
 */
export const deliveryStarter =
  (target: TemporalTarget, opts: { eager?: boolean } = {}): StartDelivery =>
  (delivery, input) =>
    withTraceCarrier(delivery.trace_context, () => startDeliveryWorkflow(target, catalog.webhookDelivery.id(delivery.id), delivery.workspace_id, input, opts));

/**
 * An immediate attempt of a delivery with its same event: a running (sleeping) workflow is
 * signalled to attempt now; for a finished one a one-attempt workflow is started, on the task
 * queue the delivery ran on (the caller, e.g. the operator CLI, may not know the worker's queue).
 */
export async function signalOrStartRedelivery(
  target: TemporalTarget,
  delivery: { id: string; workspace_id: string },
  nextRedelivery: () => Promise<number>,
): Promise<{ mode: 'signalled' | 'started'; workflowId: string }> {
  const handle = target.client.workflow.getHandle(catalog.webhookDelivery.id(delivery.id));
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
  const workflowId = catalog.webhookDelivery.redeliveryId(delivery.id, await nextRedelivery());
  await startDeliveryWorkflow(
    target,
    workflowId,
    delivery.workspace_id,
    { deliveryId: delivery.id, retryScheduleSeconds: [], trigger: 'redeliver' },
    { taskQueue: description?.taskQueue },
  );
  return { mode: 'started', workflowId };
}

const ensured = new Map<string, Promise<void>>();

/**
 * The outbox sweep Schedule (src/temporal/catalog.ts) once per process and task queue, for the
 * API when a webhook is created (workers ensure it at start); a failure is retried by the next call.
 */
export function ensureOutboxSweepOnce(temporal: TemporalTarget): Promise<void> {
  const key = `${temporal.client.options.namespace}/${temporal.taskQueue}`;
  let pending = ensured.get(key);
  if (!pending) {
    pending = ensureSchedules(temporal.client, temporal.taskQueue, ['outboxSweep']).then(
      () => undefined,
      (err) => {
        ensured.delete(key);
        throw err;
      },
    );
    ensured.set(key, pending);
  }
  return pending;
}

/**
 * Waits for the Schedule ensures still under way: a process closes its Temporal connection only
 * after them (a call still retrying on a closed connection throws from its timer).
 */
export async function outboxSweepEnsuresSettled(): Promise<void> {
  await Promise.allSettled([...ensured.values()]);
}
