import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { loadConfigOrExit, type Config } from '../src/config';
import { createDb, type Db } from '../src/db/knex';
import { createLogger, type Logger } from '../src/logger';
import { createTemporal } from '../src/temporal/client';
import { installTemporalRuntime } from '../src/temporal/runtime';
import { ensureStrandedPassSweep } from '../src/searches/recovery.service';
import { ensureOutboxSweep } from '../src/webhooks/temporal';
import { createActivities } from './index';

export interface WorkerHandle {
  worker: Worker;
  /** Resolves when the worker has stopped polling and finished its in-flight tasks. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

export interface StartWorkerOptions {
  config: Config;
  db: Db;
  logger: Logger;
  /** Tests pass a pre-built bundle so each test file does not rebuild the workflow code. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  taskQueue?: string;
}

/**
 * A webhook attempt is a local activity, which holds its workflow task slot while the endpoint
 * answers (up to 10 s). With the SDK's default of 40 slots a burst of deliveries took them all:
 * eager starts were refused (each start then costs the server a matching round trip, ~30% more
 * server CPU per delivery) and search workflow tasks queued behind webhooks. One fan-out batch
 * (FANOUT_BATCH events × endpoints, src/webhooks/fanout.ts) should fit with room to spare. Slots
 * are cheap; the work they wait on is I/O.
 */
const WORKFLOW_TASK_SLOTS = 500;

/** Starts a worker polling the task queue; used by `npm run start:worker`, dev and tests alike. */
export async function startWorker(opts: StartWorkerOptions): Promise<WorkerHandle> {
  const { config, db, logger } = opts;
  installTemporalRuntime(logger);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: opts.taskQueue ?? config.temporal.taskQueue,
    activities: createActivities({ config, db, logger }),
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: require.resolve('../workflows') }),
    shutdownGraceTime: config.shutdownTimeoutMs,
    maxConcurrentWorkflowTaskExecutions: WORKFLOW_TASK_SLOTS,
  });
  const done = worker.run().finally(() => connection.close());
  return {
    worker,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, 'worker');
  const db = createDb(config.databaseUrl, config.databasePoolMax, logger);
  const handle = await startWorker({ config, db, logger });
  logger.info({ taskQueue: config.temporal.taskQueue, address: config.temporal.address }, 'worker started');
  // The sweep Schedules must exist even when no API call has created them yet (e.g. after
  // Temporal's state was reset); creating them is idempotent. Tests that run short-lived workers
  // on a shared database turn this off so their workers never sweep other tests' rows.
  if (config.sweepSchedulesOnStart) {
    const temporal = createTemporal(config);
    await Promise.all([
      ensureOutboxSweep(temporal.client, config.temporal.taskQueue).catch((err) => logger.error({ err }, 'could not create the outbox sweep schedule')),
      ensureStrandedPassSweep(temporal.client, config.temporal.taskQueue).catch((err) => logger.error({ err }, 'could not create the stranded-pass sweep schedule')),
    ]).finally(() => temporal.close());
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
