#!/usr/bin/env node
// `npm run stack:prod`: the production-like stack (Temporal server on PostgreSQL, 2 APIs behind a
// load balancer, 2 workers, all compiled, and Zipkin unless TRACING=off) after installing what is missing
// and building the server.
import { ensureDependencies, ensureTemporalCli, ensureTemporalServer, ensureZipkin, runTypeScript } from './lib/bootstrap.mjs';

try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  const serverDir = await ensureTemporalServer();
  const zipkin = process.env.TRACING === 'off' || process.env.TRACING_ZIPKIN_URL ? null : await ensureZipkin();
  process.exit(
    await runTypeScript('tools/dev/stack-prod.ts', process.argv.slice(2), {
      TEMPORAL_CLI: temporalCli,
      TEMPORAL_SERVER_DIR: serverDir,
      ...(zipkin ? { ZIPKIN_JAVA: zipkin.java, ZIPKIN_JAR: zipkin.jar } : {}),
    }),
  );
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
