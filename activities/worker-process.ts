import { bundleWorkflowCode, NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Config } from '../src/config';
import { createDb, type Db } from '../src/db/knex';
import type { Logger } from '../src/logger';
import { workerTracingOptions } from '../src/tracing/temporal-tracing';
import { TRACING_OFF, type Tracing } from '../src/tracing/tracing';
import { createTemporal } from '../src/temporal/client';
import { installTemporalRuntime } from '../src/temporal/runtime';
import { ensureSchedules, schedulesOfQueues } from '../src/temporal/catalog';
import { QUEUE_KINDS, taskQueueName, type QueueKind } from '../src/temporal/queues';
import type { MetricsServer } from '../src/metrics/metrics-server';
import { createActivities } from './index';
import { createWorkerMetrics, startWorkerMetricsServer } from './worker-metrics';

export interface WorkerHandle {
  /** One Worker per task queue this process serves. */
  workers: Worker[];
  queues: QueueKind[];
  /** The worker's /metrics, /livez and /readyz (WORKER_METRICS_PORT) unless metrics are off. */
  metricsUrl?: string;
  /** Resolves when every worker has stopped polling and finished its in-flight tasks. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

export interface StartWorkerOptions {
  config: Config;
  db: Db;
  logger: Logger;
  /** Tests pass a pre-built bundle so each test file does not rebuild the workflow code. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** The task queues to serve (src/temporal/catalog.ts); default all of them. */
  queues?: readonly QueueKind[];
  /**
   * Started tracing (the worker process's): workflows, activities and their calls become spans.
   * A pre-built `workflowBundle` must then be built with `traced` (workflowBundleCode).
   */
  tracing?: Tracing;
}

/**
 * Workflow task slots per queue. A webhook attempt is a local activity, which holds its workflow
 * task slot while the endpoint answers (up to 10 s). With the SDK's default of 40 slots a burst of
 * deliveries took them all: eager starts were refused (each start then costs the server a
 * matching round trip, ~30% more server CPU per delivery) and, while they shared a queue, search
 * workflow tasks queued behind webhooks. One fan-out batch (FANOUT_BATCH events × endpoints,
 * src/webhooks/fanout.ts) should fit with room to spare. Slots are cheap; the work they wait on
 * is I/O. The main queue's workflow tasks only schedule activities and timers (milliseconds), so
 * the SDK default would do; 100 leaves room for a workspace's queue of waiting searches being
 * woken at once.
 */
const WORKFLOW_TASK_SLOTS: Record<QueueKind, number> = { main: 100, webhooks: 500 };

/** The bundler's progress lines at debug level; its warnings and errors as such. */
const bundlerLogger = (logger: Logger) => {
  const child = logger.child({ component: 'workflow-bundler' });
  return {
    log: (_level: string, message: string) => child.debug(message),
    trace: (message: string) => child.trace(message),
    debug: (message: string) => child.debug(message),
    info: (message: string) => child.debug(message),
    warn: (message: string) => child.warn(message),
    error: (message: string) => child.error(message),
  };
};

/**
 * The workflow code as one bundle; `traced` adds the tracing workflow interceptors
 * (workflows/tracing-interceptors.ts), which run inside the sandbox and add headers and spans,
 * never commands (the replay test replays every recorded history with them too).
 */
export async function workflowBundleCode(opts: { traced: boolean; logger?: Parameters<typeof bundleWorkflowCode>[0]['logger'] }): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    workflowInterceptorModules: opts.traced ? [require.resolve('../workflows/tracing-interceptors')] : [],
    // Constants only, thousands of them: evaluated once per sandbox instead of once per traced workflow.
    preloadModules: opts.traced ? ['@opentelemetry/semantic-conventions'] : [],
    logger: opts.logger,
  });
  return code;
}

/**
 * Starts a worker per task queue (all by default, on one connection); used by
 * `npm run start:worker`, dev and tests alike. Every worker registers every workflow and
 * activity, so a workflow started on another queue by an older release still runs.
 */
export async function startWorker(opts: StartWorkerOptions): Promise<WorkerHandle> {
  const { config, db, logger } = opts;
  const tracing = opts.tracing ?? TRACING_OFF;
  const queues = [...(opts.queues ?? QUEUE_KINDS)];
  const temporalMetricsUrl = await installTemporalRuntime(logger, { metrics: config.metrics.enabled });
  // One bundle for every queue's worker: bundling is the slow part of a worker start.
  const workflowBundle = opts.workflowBundle ?? { code: await workflowBundleCode({ traced: tracing.enabled, logger: bundlerLogger(logger) }) };
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const metrics = createWorkerMetrics();
  const activities = createActivities({ config, db, logger, metrics });
  let workers: Worker[];
  try {
    workers = await Promise.all(
      queues.map((kind) =>
        Worker.create({
          connection,
          namespace: config.temporal.namespace,
          taskQueue: taskQueueName(config.temporal.taskQueue, kind),
          activities,
          workflowBundle,
          shutdownGraceTime: config.shutdownTimeoutMs,
          maxConcurrentWorkflowTaskExecutions: WORKFLOW_TASK_SLOTS[kind],
          ...workerTracingOptions(tracing),
        }),
      ),
    );
  } catch (err) {
    await connection.close();
    throw err;
  }
  let metricsServer: MetricsServer | undefined;
  if (config.metrics.enabled) {
    try {
      metricsServer = await startWorkerMetricsServer({
        metrics,
        temporalMetricsUrl,
        host: config.host,
        port: config.metrics.workerPort,
        // Ready while every worker polls its queue.
        ready: async () => {
          const ok = workers.every((w) => w.getState() === 'RUNNING');
          return { ok, checks: { workers: ok ? 'ok' : 'error' } };
        },
      });
    } catch (err) {
      await connection.close();
      throw err;
    }
  }
  const done = Promise.all(workers.map((w) => w.run()))
    .then(() => undefined)
    .finally(() => Promise.all([connection.close(), metricsServer?.close()]));
  return {
    workers,
    queues,
    metricsUrl: metricsServer?.url,
    done,
    async shutdown() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await done;
    },
  };
}

/**
 * The worker process (`npm run start:worker [-- --queues main|webhooks]`, started through
 * activities/worker.ts, which starts tracing first): polls until SIGINT/SIGTERM, then lets
 * running activities finish and closes its pool.
 */
export async function runWorkerProcess(config: Config, logger: Logger, tracing: Tracing, queues: QueueKind[]): Promise<void> {
  const db = createDb(config.databaseUrl, config.databasePoolMax, logger, { taskQueue: config.temporal.taskQueue });
  const handle = await startWorker({ config, db, logger, queues, tracing });
  logger.info(
    {
      taskQueues: queues.map((q) => taskQueueName(config.temporal.taskQueue, q)),
      address: config.temporal.address,
      metrics_url: handle.metricsUrl,
      tracing: tracing.enabled,
    },
    'worker started',
  );
  // The Schedules of the queues this worker serves must exist even when no API call has created
  // them yet (e.g. after Temporal's state was reset), and must follow a new release's catalogue.
  // Tests that run short-lived workers on a shared database turn this off so their workers never
  // sweep other tests' rows.
  if (config.sweepSchedulesOnStart) {
    const temporal = createTemporal(config);
    try {
      for (const outcome of await ensureSchedules(temporal.client, config.temporal.taskQueue, schedulesOfQueues(queues)))
        logger.info(outcome, 'schedule ensured');
    } catch (err) {
      logger.error({ err }, 'could not ensure the Schedules; the next worker start retries');
    } finally {
      await temporal.close();
    }
  }

  // We own shutdown: stop polling, let running activities finish, then close the pool.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    void handle.shutdown();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  try {
    await handle.done;
  } finally {
    await Promise.allSettled([db.destroy(), tracing.shutdown()]);
    logger.info('worker stopped');
  }
}
