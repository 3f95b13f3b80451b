import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { devEnvFile, loadStackSettings } from '../../src/config';
import { freePort, onParentExit, waitFor } from './processes';
import { seedDemo } from './seed';
import { seedDemoUser } from './seed-user';
import { corpusSize, DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, loadBuiltinSources, loadCorpus } from '../../src/corpus/loader';
import { createProgressWriter, progressLine } from '../../src/cli/progress';
import { startInfrastructure } from './stack';
import { createDb } from '../../src/db/knex';
import { devEntryArgs, devProcessEnv } from './dev-env';

/** `npm run dev` after the plain-Node bootstrap: the whole stack on the default ports. */

const ROOT = path.resolve(__dirname, '..', '..');
const log = (msg: string) => process.stdout.write(`[dev] ${msg}\n`);

function devSecretsKey(dataDir: string): string {
  const file = path.join(dataDir, 'secrets.key');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

async function main(): Promise<void> {
  const settings = loadStackSettings();
  const DATA = settings.dataDir;
  fs.mkdirSync(DATA, { recursive: true });
  // Zipkin of our own unless TRACING=off, TRACING_ZIPKIN_URL names another, or Java is missing.
  const { tracing } = settings;
  const ownZipkin = tracing.enabled && !tracing.zipkinUrl && tracing.zipkin ? { ...tracing.zipkin, port: tracing.zipkinPort } : undefined;

  const infra = await startInfrastructure({
    databaseUrl: settings.databaseUrl,
    temporalAddress: settings.temporalAddress,
    temporalCli: settings.temporalCli,
    namespace: settings.temporalNamespace,
    postgres: { dataDir: path.join(DATA, 'pg'), port: settings.postgresPort, database: 'sourcing', persistent: true },
    temporal: {
      port: settings.temporalPort,
      uiPort: settings.temporalUiPort,
      httpPort: await freePort(),
      metricsPort: await freePort(),
      dbFile: path.join(DATA, 'temporal.db'),
    },
    zipkin: ownZipkin,
    quiet: true,
    log,
  });
  const zipkinSpansUrl = tracing.enabled ? (tracing.zipkinUrl ?? infra.zipkin?.spansUrl) : undefined;
  if (!tracing.enabled) log('tracing is off (TRACING=off): no Zipkin');
  else if (!zipkinSpansUrl) log('tracing is off: Zipkin needs Java 17+ (see the bootstrap line above)');

  const seedDb = createDb(infra.databaseUrl, 2);
  const demo = await (async () => {
    const people = await corpusSize(seedDb);
    if (people < DEFAULT_CORPUS_SIZE) {
      log(`loading the people corpus (${DEFAULT_CORPUS_SIZE.toLocaleString('en')} profiles, first start only)…`);
      const bar = createProgressWriter(process.stdout);
      await loadCorpus(seedDb, {
        size: DEFAULT_CORPUS_SIZE,
        seed: DEFAULT_CORPUS_SEED,
        onProgress: (p) => bar.update(progressLine('[dev] people', p.loaded, p.total, `${p.perSecond}/s`)),
      });
      bar.done(progressLine('[dev] people', DEFAULT_CORPUS_SIZE, DEFAULT_CORPUS_SIZE));
    }
    // Databases from before the built-in companies and web pages get them (a no-op when present).
    await loadBuiltinSources(seedDb, DEFAULT_CORPUS_SEED);
    const access = await seedDemo(seedDb, DATA);
    return { ...access, user: await seedDemoUser(seedDb, DATA, access.workspaceId) };
  })().finally(() => seedDb.destroy());

  const env = devProcessEnv({
    passthrough: settings.passthrough,
    port: settings.port,
    databaseUrl: infra.databaseUrl,
    temporalAddress: infra.temporalAddress,
    namespace: settings.temporalNamespace,
    secretsKey: settings.passthrough.SECRETS_KEY ?? devSecretsKey(DATA),
    logLevel: settings.logLevel,
    zipkinSpansUrl,
  });
  // The operator CLI reads this when its own environment does not name a database.
  const recorded = [
    'DATABASE_URL',
    'TEMPORAL_ADDRESS',
    'TEMPORAL_NAMESPACE',
    'SECRETS_KEY',
    'PORT',
    'PUBLIC_BASE_URL',
    'APP_URL',
    'API_URL',
    'MONITOR_EVERY_SECONDS',
  ];
  fs.writeFileSync(devEnvFile(DATA), JSON.stringify(Object.fromEntries(recorded.filter((k) => env[k]).map((k) => [k, env[k]])), null, 2), { mode: 0o600 });

  // A crashed API or worker is restarted with backoff; Postgres or Temporal dying still stops all.
  const restart = { log };
  infra.group.spawn('api', process.execPath, devEntryArgs('api/server'), { env, cwd: ROOT, restart });
  infra.group.spawn('worker', process.execPath, devEntryArgs('activities/worker'), { env, cwd: ROOT, restart });

  let stopping = false;
  const shutdown = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    log(`${reason}; stopping…`);
    await infra.stop();
    log('stopped');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(`received ${signal}`, 0));
  onParentExit(() => void shutdown('the bootstrap process went away', 1));
  void infra.failure.then((msg) => shutdown(msg, 1));

  const apiUrl = `http://localhost:${settings.port}`;
  // Healthy means the whole path works: API → Temporal → worker → Postgres and back.
  try {
    await waitFor('the API and worker', async () => (await fetch(`${apiUrl}/v1/health?worker=true`)).ok, 120_000, 500);
  } catch (err) {
    return shutdown((err as Error).message, 1);
  }
  const seconds = ((Date.now() - settings.bootstrapStartedAt) / 1000).toFixed(1);
  log(`ready in ${seconds} s`);
  process.stdout.write(
    [
      '',
      `  Web app       ${apiUrl}/app/   (sign in as the demo admin below; live reload on edits under web/)`,
      `  API           ${apiUrl}/v1   (health: ${apiUrl}/v1/health)`,
      `  Temporal UI   ${infra.temporalUiUrl ?? '(external Temporal server: ' + infra.temporalAddress + ')'}`,
      `  Zipkin UI     ${zipkinUiLine(tracing.enabled, infra.zipkin?.url, tracing.zipkinUrl, tracing.zipkinPort)}`,
      `  Temporal      ${infra.temporalAddress}   (CLI: ${settings.temporalCli})`,
      `  Database      ${infra.databaseUrl}`,
      '',
      `  Demo workspace ${demo.workspaceId} (100 credits), API key with every scope:`,
      `    export API_KEY=${demo.key}`,
      `    curl -s ${apiUrl}/v1/projects -H "Authorization: Bearer $API_KEY"`,
      `  Session API (${apiUrl}/api, cookie sid; OpenAPI at ${apiUrl}/api/openapi.json), demo admin:`,
      `    email ${demo.user.email}   password ${demo.user.password}`,
      `    curl -s -c /tmp/sid -H 'content-type: application/json' -d '{"email":"${demo.user.email}","password":"${demo.user.password}"}' ${apiUrl}/api/auth/sign-in`,
      `    curl -s -b /tmp/sid ${apiUrl}/api/me`,
      '  More keys and workspaces:',
      '    npm run cli -- workspaces create --name "My team" --credits 100 --json',
      '    npm run cli -- keys create --workspace <workspace id> --name dev --scopes "*"',
      '    npm run cli -- users create --email you@example.com --password <8+ chars> --workspace <workspace id> --role admin',
      '',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

/** Where to see traces, or why there are none. */
function zipkinUiLine(enabled: boolean, ownUrl: string | undefined, externalSpansUrl: string | undefined, port: number): string {
  if (!enabled) return 'off (TRACING=off)';
  if (externalSpansUrl) return `(spans go to ${externalSpansUrl})`;
  if (!ownUrl) return 'off (Zipkin needs Java 17+)';
  return `http://localhost:${port}   (traces: each request, workflow, activity and SQL statement)`;
}

main().catch((err) => {
  process.stderr.write(`[dev] failed: ${err?.stack ?? err}\n`);
  process.exit(1);
});
