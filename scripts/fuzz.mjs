#!/usr/bin/env node
// `npm run fuzz`: the long Schemathesis run against a private stack (see src/dev/fuzz.ts).
// Extra arguments go to it, e.g. `npm run fuzz -- --max-examples 1000 --seed 3`.
import { ensureDependencies, ensureTemporalCli, runTypeScript } from './lib/bootstrap.mjs';

try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  process.exit(await runTypeScript('src/dev/fuzz.ts', process.argv.slice(2), { TEMPORAL_CLI: temporalCli }));
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
