/**
 * Entry point of the worker process (`node dist/activities/worker.js [--queues main|webhooks]`,
 * `npm run start:worker`). Tracing must start before the modules it instruments (http, https,
 * pg) are loaded, so this file imports only the arguments, the configuration, the logger and
 * tracing, and loads the worker (activities/worker-process.ts) afterwards. Code that runs a worker
 * in process (tests, the fuzz stack) imports activities/worker-process.ts.
 */
import { loadConfigOrExit } from '../src/config';
import { createLogger } from '../src/logger';
import { parseQueues, type QueueKind } from '../src/temporal/queues';
import { startTracing } from '../src/tracing/tracing';

let queues: QueueKind[];
try {
  queues = parseQueues(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
const config = loadConfigOrExit();
const logger = createLogger(config.logLevel, 'worker');
const tracing = startTracing(config, 'worker', logger);

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only now, once tracing is in place (see above)
const { runWorkerProcess } = require('./worker-process') as typeof import('./worker-process');
runWorkerProcess(config, logger, tracing, queues).catch((err) => {
  process.stderr.write(`worker failed: ${err?.stack ?? err}\n`);
  process.exit(1);
});
