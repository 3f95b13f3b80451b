import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptions,
  type ScheduleOptionsStartWorkflowAction,
  type WorkflowHandle,
  type WorkflowHandleWithFirstExecutionRunId,
  type WorkflowStartOptions,
} from '@temporalio/client';
import { msOptionalToNumber, msToNumber, type Duration } from '@temporalio/common/lib/time';
import { isDeepStrictEqual } from 'node:util';
import type * as workflows from '../../workflows';
import { taskQueueName, type QueueKind } from './queues';
import { workflowIds } from './workflow-ids';

/**
 * Every workflow of the service: its type name, id builder, task queue and input type, and every
 * Schedule. Client code (API, worker, activities) starts workflows only through `startWorkflow`,
 * so a renamed workflow or a changed input is a type error here instead of a workflow that never
 * runs. Workflow code cannot import this module (it imports the client); it uses workflow-ids.ts.
 */

type Workflows = typeof workflows;
/**
 * Export names of workflows/index.ts: the type names the worker registers, which every start
 * below uses (a function exported under another name keeps that name as its type, e.g. the search pass).
 */
export type WorkflowName = keyof Workflows;
export type WorkflowArgs<N extends WorkflowName> = Parameters<Workflows[N]>;

/** Task queues (QUEUE_KINDS, taskQueueName) live in ./queues, which imports nothing. */
export { QUEUE_KINDS, taskQueueName, type QueueKind } from './queues';

export interface WorkflowDef<N extends WorkflowName> {
  type: N;
  queue: QueueKind;
}

const def = <N extends WorkflowName>(type: N, queue: QueueKind): WorkflowDef<N> => ({ type, queue });

export const catalog = {
  healthProbe: { ...def('healthProbeWorkflow', 'main'), id: workflowIds.healthProbe },
  search: { ...def('searchWorkflow', 'main'), id: workflowIds.searchPass },
  expansion: { ...def('expansionWorkflow', 'main'), id: workflowIds.expansion },
  databasePass: { ...def('databasePassWorkflow', 'main'), id: workflowIds.searchPass },
  rescore: { ...def('rescoreWorkflow', 'main'), id: workflowIds.rescore },
  webhookDelivery: { ...def('webhookDeliveryWorkflow', 'webhooks'), id: workflowIds.webhookDelivery, redeliveryId: workflowIds.webhookRedelivery },
  outboxSweep: def('outboxSweepWorkflow', 'webhooks'),
  strandedPassSweep: def('strandedPassSweepWorkflow', 'main'),
  topUp: { ...def('topUpWorkflow', 'main'), id: workflowIds.topUp },
  calibration: { ...def('calibrationWorkflow', 'main'), id: workflowIds.calibration },
  // Started only by each monitor's own Schedule (src/monitors/monitor-schedule.ts).
  monitorRun: def('monitorRunWorkflow', 'main'),
};

// Every registered workflow has an entry (a workflow added to workflows/index.ts without one fails the type check).
type Cataloged = (typeof catalog)[keyof typeof catalog]['type'];
const _everyWorkflowCataloged: [WorkflowName] extends [Cataloged] ? true : never = true;
void _everyWorkflowCataloged;

/** The client and the main task queue of this deployment (`Temporal` from client.ts fits). */
export interface TemporalTarget {
  client: Client;
  taskQueue: string;
}

export type StartOptions<N extends WorkflowName> = Omit<WorkflowStartOptions<Workflows[N]>, 'taskQueue' | 'args'> & {
  args: WorkflowArgs<N>;
  /** Only to follow an earlier run onto the exact queue it ran on; default the catalogue's queue. */
  taskQueue?: string;
};

/** Starts a catalogued workflow on its task queue, with arguments typed by the workflow function. */
export function startWorkflow<N extends WorkflowName>(
  target: TemporalTarget,
  wf: WorkflowDef<N>,
  options: StartOptions<N>,
): Promise<WorkflowHandleWithFirstExecutionRunId<Workflows[N]>> {
  const full = { ...options, taskQueue: options.taskQueue ?? taskQueueName(target.taskQueue, wf.queue) } as unknown as WorkflowStartOptions<Workflows[N]>;
  return target.client.workflow.start<Workflows[N]>(wf.type, full);
}

/**
 * Signals a catalogued workflow, starting it first when no run of its id is open (signal-with-start):
 * the signal reaches the open run, or the first activation of a new one.
 */
export function signalWithStartWorkflow<N extends WorkflowName>(
  target: TemporalTarget,
  wf: WorkflowDef<N>,
  options: StartOptions<N> & { signal: string; signalArgs?: unknown[] },
): Promise<WorkflowHandle<Workflows[N]>> {
  const full = { ...options, signalArgs: options.signalArgs ?? [], taskQueue: options.taskQueue ?? taskQueueName(target.taskQueue, wf.queue) };
  type Options = Parameters<typeof target.client.workflow.signalWithStart<Workflows[N], unknown[]>>[1];
  return target.client.workflow.signalWithStart<Workflows[N], unknown[]>(wf.type, full as unknown as Options);
}

// --- Schedules -------------------------------------------------------------------------------

/** How long one outbox dispatcher run listens; the Schedule (every 30 s, buffer one) starts the next at once. */
export const DISPATCHER_RUN_SECONDS = 300;

export const scheduledStart = <N extends WorkflowName>(
  mainQueue: string,
  wf: WorkflowDef<N>,
  workflowId: string,
  args: WorkflowArgs<N>,
  extra: Partial<ScheduleOptionsStartWorkflowAction<Workflows[N]>> = {},
) => ({ type: 'startWorkflow', workflowType: wf.type, workflowId, taskQueue: taskQueueName(mainQueue, wf.queue), args, ...extra }) as ScheduleOptions['action'];

/** Schedule ids carry the main task queue: one set of sweeps per deployment (and per test stack). */
export const scheduleIds = {
  outboxSweep: (mainQueue: string) => `outbox-sweep-${mainQueue}`,
  strandedPassSweep: (mainQueue: string) => `stranded-pass-sweep-${mainQueue}`,
  /** One per monitor (a uuid: unique across deployments); its runs are `monitor-<id>-<scheduled time>`. */
  monitor: (monitorId: string) => `monitor-${monitorId}`,
};

export const schedules = {
  /**
   * The outbox dispatcher's crash-safety net: keeps one sweep workflow running (its activity
   * listens for new events and fans them out, src/webhooks/fanout.ts).
   */
  outboxSweep: {
    queue: catalog.outboxSweep.queue,
    options: (mainQueue: string): ScheduleOptions => ({
      scheduleId: scheduleIds.outboxSweep(mainQueue),
      spec: { intervals: [{ every: '30 seconds' }] },
      action: scheduledStart(mainQueue, catalog.outboxSweep, scheduleIds.outboxSweep(mainQueue), [{ runSeconds: DISPATCHER_RUN_SECONDS }], {
        workflowRunTimeout: `${DISPATCHER_RUN_SECONDS * 2} seconds`,
      }),
      // A tick during a run is kept and starts the next run as soon as this one ends: no gap.
      policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE, catchupWindow: '1 minute' },
      state: { triggerImmediately: true, note: 'Fans out the webhook outbox (src/webhooks)' },
    }),
  },
  /** Starts search passes booked while Temporal could not be reached (src/searches/recovery.ts). */
  strandedPassSweep: {
    queue: catalog.strandedPassSweep.queue,
    options: (mainQueue: string): ScheduleOptions => ({
      scheduleId: scheduleIds.strandedPassSweep(mainQueue),
      spec: { intervals: [{ every: '1 minute' }] },
      action: scheduledStart(mainQueue, catalog.strandedPassSweep, scheduleIds.strandedPassSweep(mainQueue), []),
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      state: { note: 'Starts search passes whose workflow never started (src/searches/recovery.ts)' },
    }),
  },
};
export type ScheduleName = keyof typeof schedules;
export const SCHEDULE_NAMES = Object.keys(schedules) as ScheduleName[];

/**
 * What differs between a Schedule as it is and as the catalogue declares it: the spec's
 * intervals, the action's workflow, queue, arguments and run timeout, and the overlap policy.
 * Empty when it is up to date.
 */
export function scheduleDifferences(desired: ScheduleOptions, current: ScheduleDescription): string[] {
  const diffs: string[] = [];
  const intervals = (list: { every: Duration; offset?: Duration }[] | undefined) =>
    (list ?? []).map((i) => ({ every: msToNumber(i.every), offset: msOptionalToNumber(i.offset) ?? 0 }));
  if (!isDeepStrictEqual(intervals(desired.spec.intervals), intervals(current.spec.intervals))) diffs.push('spec.intervals');
  const want = desired.action;
  const have = current.action;
  const wantType = typeof want.workflowType === 'string' ? want.workflowType : want.workflowType.name;
  if (wantType !== have.workflowType) diffs.push('action.workflowType');
  if (want.taskQueue !== have.taskQueue) diffs.push('action.taskQueue');
  if (want.workflowId !== undefined && want.workflowId !== have.workflowId) diffs.push('action.workflowId');
  if (!isDeepStrictEqual(want.args ?? [], have.args ?? [])) diffs.push('action.args');
  if ((msOptionalToNumber(want.workflowRunTimeout) ?? null) !== (msOptionalToNumber(have.workflowRunTimeout) ?? null)) diffs.push('action.workflowRunTimeout');
  if ((desired.policies?.overlap ?? ScheduleOverlapPolicy.SKIP) !== current.policies.overlap) diffs.push('policies.overlap');
  if (desired.policies?.catchupWindow !== undefined && msToNumber(desired.policies.catchupWindow) !== current.policies.catchupWindow)
    diffs.push('policies.catchupWindow');
  return diffs;
}

export type EnsureOutcome =
  | { schedule: ScheduleName; scheduleId: string; result: 'created' | 'unchanged' }
  | { schedule: ScheduleName; scheduleId: string; result: 'updated'; changed: string[] };

/**
 * Creates each Schedule of the catalogue (or only `only`); one that exists already is compared
 * with its declaration and updated when its spec, action or overlap policy changed (its paused
 * state and note, which operators may set, are kept). Called by every worker at start.
 */
export async function ensureSchedules(client: Client, mainQueue: string, only: ScheduleName[] = SCHEDULE_NAMES): Promise<EnsureOutcome[]> {
  return Promise.all(
    only.map(async (name): Promise<EnsureOutcome> => {
      const desired = schedules[name].options(mainQueue);
      try {
        await client.schedule.create(desired);
        return { schedule: name, scheduleId: desired.scheduleId, result: 'created' };
      } catch (err) {
        if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      }
      const handle = client.schedule.getHandle(desired.scheduleId);
      const changed = scheduleDifferences(desired, await handle.describe());
      if (changed.length === 0) return { schedule: name, scheduleId: desired.scheduleId, result: 'unchanged' };
      await handle.update((previous) => ({
        spec: desired.spec,
        action: desired.action,
        policies: { ...previous.policies, ...desired.policies },
        state: { paused: previous.state.paused, note: previous.state.note ?? desired.state?.note, remainingActions: previous.state.remainingActions },
      }));
      return { schedule: name, scheduleId: desired.scheduleId, result: 'updated', changed };
    }),
  );
}

/** The Schedules whose workflows run on the given queues: what a worker of those queues ensures. */
export const schedulesOfQueues = (queues: readonly QueueKind[]): ScheduleName[] => SCHEDULE_NAMES.filter((name) => queues.includes(schedules[name].queue));
