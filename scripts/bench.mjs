#!/usr/bin/env node
// `npm run bench -- <name>`: runs bench/<name>.bench.ts on its own private stack and prints figures;
// `npm run bench` alone runs every benchmark, one after the other.
import fs from 'node:fs';
import path from 'node:path';
import { ensureDependencies, ensureTemporalCli, ensureTemporalServer, ensureZipkin, ROOT, runTypeScript } from './lib/bootstrap.mjs';

const name = process.argv[2];
const available = fs
  .readdirSync(path.join(ROOT, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace('.bench.ts', ''));
if (name && !available.includes(name)) {
  process.stderr.write(`usage: npm run bench [-- <${available.join('|')}>]\n`);
  process.exit(2);
}
try {
  ensureDependencies();
  const temporalCli = await ensureTemporalCli();
  // The searches and webhooks benches compare tracing off, 1.0 and 0.1, exporting to a real Zipkin.
  const zipkin = !name || name === 'searches' || name === 'webhooks' ? await ensureZipkin() : null;
  // The webhooks bench also runs on the production-like stack (Temporal server on PostgreSQL).
  const temporalServerDir = !name || name === 'webhooks' ? await ensureTemporalServer() : null;
  let code = 0;
  for (const one of name ? [name] : available) {
    if (!name) process.stdout.write(`\n######## npm run bench -- ${one} ########\n`);
    const exit = await runTypeScript(`bench/${one}.bench.ts`, process.argv.slice(3), {
      TEMPORAL_CLI: temporalCli,
      ...(zipkin ? { ZIPKIN_JAVA: zipkin.java, ZIPKIN_JAR: zipkin.jar } : {}),
      ...(temporalServerDir ? { TEMPORAL_SERVER_DIR: temporalServerDir } : {}),
    });
    code ||= exit;
  }
  process.exit(code);
} catch (err) {
  process.stderr.write(`[bootstrap] ${err.message}\n`);
  process.exit(1);
}
