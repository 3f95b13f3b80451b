#!/usr/bin/env node
// `npm run fuzz`: the long Schemathesis run against a private stack (see tools/dev/fuzz.ts).
// Extra arguments go to it, e.g. `npm run fuzz -- --max-examples 1000 --seed 3`.
import fs from 'node:fs';
import path from 'node:path';
import { ensureDependencies, ensureTemporalCli, makeTestCa, ROOT, runTypeScript } from './lib/bootstrap.mjs';

try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  // The fuzzed webhooks go to a local HTTPS sink whose certificate this CA issued.
  const testCa = makeTestCa(path.join(ROOT, '.data', `fuzz-ca-${process.pid}`));
  const code = await runTypeScript('tools/dev/fuzz.ts', process.argv.slice(2), { TEMPORAL_CLI: temporalCli, ...testCa.env });
  fs.rmSync(testCa.dir, { recursive: true, force: true });
  process.exit(code);
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
