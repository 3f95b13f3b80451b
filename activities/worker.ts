import { bundleWorkflowCode, NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { loadConfigOrExit, type Config } from '../src/config';
import { createDb, type Db } from '../src/db/knex';
import { createLogger, type Logger } from '../src/logger';
import { createTemporal } from '../src/temporal/client';
import { installTemporalRuntime } from '../src/temporal/runtime';
import { ensureSchedules, QUEUE_KINDS, schedulesOfQueues, taskQueueName, type QueueKind } from '../src/temporal/catalog';
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
 * Starts a worker per task queue (all by default, on one connection); used by
 * `npm run start:worker`, dev and tests alike. Every worker registers every workflow and
 * activity, so a workflow started on another queue by an older release still runs.
 */
export async function startWorker(opts: StartWorkerOptions): Promise<WorkerHandle> {
  const { config, db, logger } = opts;
  const queues = [...(opts.queues ?? QUEUE_KINDS)];
  const temporalMetricsUrl = await installTemporalRuntime(logger, { metrics: config.metrics.enabled });
  // One bundle for every queue's worker: bundling is the slow part of a worker start.
  const workflowBundle = opts.workflowBundle ?? {
    code: (await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: bundlerLogger(logger) })).code,
  };
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

/** `--queues main,webhooks` (default: all): which task queues this worker process serves. */
export function parseQueues(argv: string[]): QueueKind[] {
  const at = argv.findIndex((a) => a === '--queues' || a.startsWith('--queues='));
  if (at < 0) return [...QUEUE_KINDS];
  const value = argv[at].includes('=') ? argv[at].slice('--queues='.length) : argv[at + 1];
  const kinds = (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = kinds.filter((k) => !(QUEUE_KINDS as readonly string[]).includes(k));
  if (kinds.length === 0 || unknown.length)
    throw new Error(`--queues takes a comma-separated list of ${QUEUE_KINDS.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`);
  return [...new Set(kinds)] as QueueKind[];
}

async function main(): Promise<void> {
  let queues: QueueKind[];
  try {
    queues = parseQueues(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, 'worker');
  const db = createDb(config.databaseUrl, config.databasePoolMax, logger, { taskQueue: config.temporal.taskQueue });
  const handle = await startWorker({ config, db, logger, queues });
  logger.info(
    { taskQueues: queues.map((q) => taskQueueName(config.temporal.taskQueue, q)), address: config.temporal.address, metrics_url: handle.metricsUrl },
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
    await db.destroy();
    logger.info('worker stopped');
  }
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`worker failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
