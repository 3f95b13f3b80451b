import path from 'node:path';
import { loadStackSettings } from '../../src/config';
import { onParentExit } from './processes';
import { stackSecretsKey, startProdStack } from './prod-stack';

/**
 * `npm run stack:prod` after the plain-Node bootstrap: the production-like stack (tools/dev/prod-stack.ts)
 * with its state in `.data/prod/`, on the load balancer port PORT (default 3000) and free private
 * ports for the rest; runs until Ctrl-C, then stops everything.
 */

const log = (msg: string) => process.stdout.write(`[stack:prod] ${msg}\n`);

async function main(): Promise<void> {
  const settings = loadStackSettings();
  const dataDir = path.join(settings.dataDir, 'prod');
  const serverDir = settings.passthrough.TEMPORAL_SERVER_DIR;
  if (!serverDir) throw new Error('TEMPORAL_SERVER_DIR is unset: run this through `npm run stack:prod`, which builds the Temporal server');
  const stack = await startProdStack({
    dataDir,
    persistent: true,
    temporalServerDir: serverDir,
    temporalCli: settings.temporalCli,
    port: settings.port,
    secretsKey: stackSecretsKey(dataDir),
    log,
    verbose: settings.logLevel === 'debug',
    // Traces into a Zipkin of its own (port ZIPKIN_PORT), or into TRACING_ZIPKIN_URL's; none with TRACING=off.
    zipkin:
      settings.tracing.enabled && !settings.tracing.zipkinUrl && settings.tracing.zipkin
        ? { ...settings.tracing.zipkin, port: settings.tracing.zipkinPort }
        : undefined,
    env: settings.tracing.enabled && settings.tracing.zipkinUrl ? { TRACING: 'on', TRACING_ZIPKIN_URL: settings.tracing.zipkinUrl } : undefined,
  });
  const lines = [
    `API (load balancer)  ${stack.url}/v1   (health: ${stack.url}/v1/health?worker=true)`,
    ...stack.apiUrls.map((u, i) => `  api-${i + 1}             ${u}`),
    `Temporal frontend    ${stack.temporalAddress}   (namespace ${stack.namespace}; no UI: use \`temporal --address ${stack.temporalAddress} workflow list\`)`,
    `PostgreSQL           ${stack.databaseUrl.replace(/:[^:@/]+@/, ':***@')} (+ temporal, temporal_visibility)`,
    `Zipkin UI            ${stack.zipkin ? `http://localhost:${settings.tracing.zipkinPort}` : settings.tracing.zipkinUrl ? `(spans go to ${settings.tracing.zipkinUrl})` : `off (${settings.tracing.enabled ? 'Zipkin needs Java 17+' : 'TRACING=off'})`}`,
    ...stack.components.map((c) => `  ${c.name.padEnd(10)} pid ${c.pid()}`),
    `State: ${dataDir} — Ctrl-C stops everything.`,
  ];
  process.stdout.write(`\n${lines.map((l) => `  ${l}`).join('\n')}\n\n`);

  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    stack.stop().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`${err?.stack ?? err}\n`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, shutdown);
  onParentExit(shutdown);
}

main().catch((err) => {
  process.stderr.write(`[stack:prod] failed: ${err?.stack ?? err}\n`);
  process.exit(1);
});
