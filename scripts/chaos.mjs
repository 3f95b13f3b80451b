#!/usr/bin/env node
// `npm run chaos`: fault runs on the production-like stack (tools/chaos/chaos.ts); prints a table.
import { ensureDependencies, ensureTemporalCli, ensureTemporalServer, runTypeScript } from './lib/bootstrap.mjs';

try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  const serverDir = await ensureTemporalServer();
  process.exit(await runTypeScript('tools/chaos/chaos.ts', process.argv.slice(2), { TEMPORAL_CLI: temporalCli, TEMPORAL_SERVER_DIR: serverDir }));
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
