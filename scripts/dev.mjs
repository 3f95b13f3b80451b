#!/usr/bin/env node
// `npm run dev`: install what is missing, obtain the Temporal CLI, then start the whole stack.
import { ensureDependencies, ensureTemporalCli, runTypeScript } from './lib/bootstrap.mjs';

const started = Date.now();
try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  const code = await runTypeScript('src/dev/dev.ts', process.argv.slice(2), {
    TEMPORAL_CLI: temporalCli,
    BOOTSTRAP_STARTED_AT: String(started),
  });
  process.exit(code);
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
