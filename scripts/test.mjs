#!/usr/bin/env node
// `npm test`: the same bootstrap on private ports with throw-away state, then jest.
// Extra arguments go to jest, e.g. `npm test -- test/unit`.
import { ensureChromium, ensureDependencies, ensureStripeMock, ensureTemporalCli, ensureTemporalServer, runTypeScript } from './lib/bootstrap.mjs';

const started = Date.now();
try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  const chromium = ensureChromium();
  const stripeMock = await ensureStripeMock();
  // The production-like stack's Temporal server (test/integration/prod-stack.test.ts); built once per machine.
  const temporalServerDir = await ensureTemporalServer();
  const code = await runTypeScript('src/dev/test-run.ts', process.argv.slice(2), {
    TEMPORAL_CLI: temporalCli,
    ...(chromium ? { CHROMIUM_PATH: chromium } : {}),
    ...(stripeMock ? { STRIPE_MOCK: stripeMock } : {}),
    TEMPORAL_SERVER_DIR: temporalServerDir,
    BOOTSTRAP_STARTED_AT: String(started),
  });
  process.exit(code);
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
