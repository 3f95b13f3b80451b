import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, loadStackSettings } from '../../src/config';
import { loadCorpus } from '../../src/corpus/loader';
import { createDb } from '../../src/db/knex';
import { createLogger } from '../../src/logger';
import { createTemporal } from '../../src/temporal/client';
import { startApiServer } from '../../api/api-server';
import { startWorker } from '../../activities/worker-process';
import { freePort, onParentExit } from './processes';
import { ensureSchemathesis, FUZZ_DOCUMENTS, runSchemathesis, seedFuzzSession, seedFuzzWorkspace, type FuzzDocument, type FuzzFigures } from './schemathesis';
import { startInfrastructure } from './stack';

/**
 * `npm run fuzz`: the long generated-request run. A private stack (throw-away Postgres, in-memory
 * Temporal, the API and a worker in this process), seeded workspaces, then Schemathesis with
 * every check against both documents (`--document key|session|both`, default both): the key
 * API's /v1/openapi.json and the session API's /api/openapi.json. Prints the figures; exits 1 on
 * any 5xx or failed check.
 *
 *   npm run fuzz -- --max-examples 500 --seed 7 --workers 2 --max-time 900
 *   npm run fuzz -- --max-time 60 -- --include-name 'POST /projects/{projectId}/searches'   (after `--`: Schemathesis's own options)
 */

const ROOT = path.resolve(__dirname, '..', '..');
const log = (msg: string) => process.stdout.write(`[fuzz] ${msg}\n`);

export function printFigures(figures: FuzzFigures, say: (msg: string) => void = log): void {
  say(`requests: ${figures.requests} in ${figures.seconds.toFixed(0)} s`);
  const histogram = Object.entries(figures.statuses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  say(`statuses: ${histogram}`);
  say(`5xx: ${figures.serverErrors}`);
  for (const sample of figures.serverErrorSamples) say(`  ${sample}`);
  const failed = Object.entries(figures.failures);
  say(`failed checks: ${failed.length ? failed.map(([check, n]) => `${check} × ${n}`).join(', ') : 'none'}`);
  // Schemathesis's own crashes (not the API's): the operation's remaining cases of that phase were skipped.
  for (const [error, n] of Object.entries(figures.toolErrors)) say(`schemathesis error (its own, not the API's): ${error} × ${n}`);
}

/**
 * Where the fuzzed webhooks are delivered: an HTTPS server on 127.0.0.1 with the certificate the
 * bootstrap's CA issued (TEST_CA_DIR; this process trusts the CA through NODE_EXTRA_CA_CERTS).
 * It answers 200 to everything, so test and redelivery calls finish at once.
 */
async function startSink(caDir: string): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = https.createServer(
    { cert: fs.readFileSync(path.join(caDir, 'server.pem')), key: fs.readFileSync(path.join(caDir, 'server-key.pem')) },
    (req, res) => {
      received += 1;
      req.resume();
      req.on('end', () => res.end('ok'));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}/fuzz-hook`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'max-examples': { type: 'string', default: '300' },
      seed: { type: 'string', default: '1' },
      workers: { type: 'string', default: '2' },
      'max-time': { type: 'string', default: '1200' },
      document: { type: 'string', default: 'both' },
    },
  });
  const settings = loadStackSettings();
  const caDir = settings.passthrough.TEST_CA_DIR;
  if (!caDir) throw new Error('TEST_CA_DIR is not set: run the fuzzer with `npm run fuzz`, whose bootstrap makes the sink its certificate');
  const sink = await startSink(caDir);
  const runDir = path.join(ROOT, '.data', `fuzz-${process.pid}`);
  fs.mkdirSync(runDir, { recursive: true });
  const [pgPort, temporalPort, httpPort, metricsPort, offlinePort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  // Generated requests reach the provider calls (credential checks, intake): at a closed local
  // port, never at the vendors.
  const offline = `http://127.0.0.1:${offlinePort}`;
  const [st, infra] = await Promise.all([
    ensureSchemathesis(settings.passthrough, log),
    startInfrastructure({
      databaseUrl: settings.databaseUrl,
      temporalAddress: settings.temporalAddress,
      temporalCli: settings.temporalCli,
      namespace: settings.temporalNamespace,
      postgres: { dataDir: path.join(runDir, 'pg'), port: pgPort, database: 'sourcing_fuzz', persistent: false, fast: true },
      temporal: { port: temporalPort, uiPort: null, httpPort, metricsPort, dbFile: null },
      quiet: true,
      log,
    }),
  ]);
  const config = loadConfig({
    ...settings.passthrough,
    DATABASE_URL: infra.databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: settings.passthrough.LOG_LEVEL ?? 'silent',
    UNAUTHENTICATED_RATE_LIMIT: '1000000',
    // The session fuzz signs in with generated credentials from one address: keep its answers about the input.
    SIGN_IN_IP_MAX_FAILURES: '1000000',
    SIGN_IN_GLOBAL_MAX_FAILURES: '1000000',
    WORKER_METRICS_PORT: '0',
    SHUTDOWN_TIMEOUT_MS: '2000',
    // The sink is on loopback, which webhook URLs may otherwise not name.
    WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
    PEOPLEDATALABS_BASE_URL: offline,
    BRAVE_BASE_URL: offline,
    OPENAI_BASE_URL: offline,
    HUNTER_BASE_URL: offline,
  });
  const logger = createLogger(config.logLevel, 'fuzz');
  const db = createDb(config.databaseUrl, 10, logger, { taskQueue: config.temporal.taskQueue });
  const temporal = createTemporal(config);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await api?.close();
    await worker?.shutdown();
    await temporal.close();
    await db.destroy();
    await infra.stop();
    await sink.close();
    fs.rmSync(runDir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop().then(() => process.exit(130)));
  onParentExit(() => void stop().then(() => process.exit(130)));
  let api: Awaited<ReturnType<typeof startApiServer>> | undefined;
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  try {
    log('loading the corpus and bundling the workflows…');
    await loadCorpus(db, { size: 6000, seed: 7 });
    worker = await startWorker({ config, db, logger });
    api = await startApiServer({ config, db, temporal, logger });
    const seeded = await seedFuzzWorkspace(db, api.url, sink.url);
    const session = await seedFuzzSession(db, api.url);
    const documents: FuzzDocument[] = values.document === 'both' ? ['key', 'session'] : [values.document as FuzzDocument];
    if (!documents.every((d) => d in FUZZ_DOCUMENTS)) throw new Error(`--document must be key, session or both, not ${values.document}`);
    let failed = false;
    for (const document of documents) {
      log(`fuzzing the ${document} API's document (max ${values['max-examples']} examples per operation, seed ${values.seed}, ${values.workers} workers)…`);
      const figures = await runSchemathesis({
        st,
        apiUrl: api.url,
        document,
        key: document === 'key' ? seeded.key : session.cookie,
        ids: document === 'key' ? seeded.ids : session.ids,
        workDir: path.join(ROOT, '.data', 'fuzz-report', document),
        webhookUrl: sink.url,
        maxExamples: Number(values['max-examples']),
        seed: Number(values.seed),
        workers: Number(values.workers),
        maxTimeSeconds: Number(values['max-time']),
        extraArgs: positionals,
        log,
      });
      if (figures.exitCode !== 0) process.stdout.write(`${figures.output}\n`);
      if (figures.exitCode !== 0 && !Object.keys(figures.failures).length && !Object.keys(figures.toolErrors).length) {
        log(`schemathesis exited ${figures.exitCode} without a summary: see its output above`);
        failed = true;
        continue;
      }
      printFigures(figures);
      log(`HAR report: ${path.join('.data', 'fuzz-report', document, 'fuzz.har')}`);
      failed ||= Object.keys(figures.failures).length > 0 || figures.serverErrors > 0;
    }
    log(`webhook deliveries received by the local sink: ${sink.received()}`);
    return failed ? 1 : 0;
  } finally {
    await stop();
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`[fuzz] failed: ${err?.stack ?? err}\n`);
      process.exit(1);
    },
  );
}
