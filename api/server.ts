/**
 * Entry point of the API process (`node dist/api/server.js`, `npm run start:api`). Tracing must
 * start before the modules it instruments (http, pg) are loaded, so this file imports only the
 * configuration, the logger and tracing, and loads the API (api/api-server.ts) afterwards. Code
 * that runs an API in process (tests, the fuzz stack) imports api/api-server.ts.
 */
import { loadConfigOrExit } from '../src/config';
import { createLogger } from '../src/logger';
import { startTracing } from '../src/tracing/tracing';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel, 'api');
const tracing = startTracing(config, 'api', logger);

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only now, once tracing is in place (see above)
const { runApiProcess } = require('./api-server') as typeof import('./api-server');
runApiProcess(config, logger, tracing).catch((err) => {
  process.stderr.write(`api failed: ${err?.stack ?? err}\n`);
  process.exit(1);
});
