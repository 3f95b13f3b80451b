#!/usr/bin/env node
// `npm run dev`: install what is missing, obtain the Temporal CLI (and Zipkin unless TRACING=off),
// then start the whole stack.
import { ensureDependencies, ensureTemporalCli, ensureZipkin, runTypeScript } from './lib/bootstrap.mjs';

const started = Date.now();
try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  // No Zipkin of our own when tracing is off or another one takes the spans.
  const zipkin = process.env.TRACING === 'off' || process.env.TRACING_ZIPKIN_URL ? null : await ensureZipkin();
  const code = await runTypeScript('tools/dev/dev.ts', process.argv.slice(2), {
    TEMPORAL_CLI: temporalCli,
    ...(zipkin ? { ZIPKIN_JAVA: zipkin.java, ZIPKIN_JAR: zipkin.jar } : {}),
    BOOTSTRAP_STARTED_AT: String(started),
  });
  process.exit(code);
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
