#!/usr/bin/env node
// `npm test`: the same bootstrap on private ports with throw-away state, then jest.
// Extra arguments go to jest, e.g. `npm test -- test/unit`.
import {
  ensureChromium,
  ensureDependencies,
  ensureStripeMock,
  ensureTemporalCli,
  ensureTemporalServer,
  ensureZipkin,
  makeTestCa,
  ROOT,
  runTypeScript,
} from './lib/bootstrap.mjs';
import fs from 'node:fs';
import path from 'node:path';

const started = Date.now();
try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  const chromium = ensureChromium();
  const stripeMock = await ensureStripeMock();
  // The production-like stack's Temporal server (test/integration/prod-stack.test.ts); built once per machine.
  const temporalServerDir = await ensureTemporalServer();
  // The tracing test reads traces back from a real Zipkin (test/integration/tracing.test.ts).
  const zipkin = await ensureZipkin();
  // The run's own CA: webhook endpoints of the suite point at local HTTPS sinks it issued certificates for.
  const testCa = makeTestCa(path.join(ROOT, '.data', `test-ca-${process.pid}`));
  const code = await runTypeScript('tools/dev/test-run.ts', process.argv.slice(2), {
    ...testCa.env,
    TEMPORAL_CLI: temporalCli,
    ...(chromium ? { CHROMIUM_PATH: chromium } : {}),
    ...(stripeMock ? { STRIPE_MOCK: stripeMock } : {}),
    TEMPORAL_SERVER_DIR: temporalServerDir,
    ...(zipkin ? { ZIPKIN_JAVA: zipkin.java, ZIPKIN_JAR: zipkin.jar } : {}),
    BOOTSTRAP_STARTED_AT: String(started),
  });
  fs.rmSync(testCa.dir, { recursive: true, force: true });
  process.exit(code);
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
