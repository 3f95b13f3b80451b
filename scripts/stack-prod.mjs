#!/usr/bin/env node
// `npm run stack:prod`: the production-like stack (Temporal server on PostgreSQL, 2 APIs behind a
// load balancer, 2 workers, all compiled) after installing what is missing and building the server.
import { ensureDependencies, ensureTemporalCli, ensureTemporalServer, runTypeScript } from './lib/bootstrap.mjs';

try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  const serverDir = await ensureTemporalServer();
  process.exit(await runTypeScript('src/dev/stack-prod.ts', process.argv.slice(2), { TEMPORAL_CLI: temporalCli, TEMPORAL_SERVER_DIR: serverDir }));
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
