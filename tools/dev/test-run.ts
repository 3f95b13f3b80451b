import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadStackSettings } from '../../src/config';
import { freePort, onParentExit, waitFor } from './processes';
import { ensureSchemathesis } from './schemathesis';
import { startInfrastructure } from './stack';

/**
 * `npm test` after the plain-Node bootstrap: a private stack (free ports, a throw-away database
 * and in-memory Temporal state), the type check and the import-cycle check, then jest against it.
 * Exits with jest's code.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const log = (msg: string) => process.stdout.write(`[test] ${msg}\n`);

const running = new Set<ChildProcess>();
let interrupted = false;

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: 'inherit' });
    running.add(child);
    child.on('close', (code) => {
      running.delete(child);
      resolve(interrupted ? 130 : (code ?? 1));
    });
  });
}

/** Ctrl-C, SIGTERM or a vanished parent: stop jest and tsc; main() then tears the stack down. */
function interrupt(): void {
  if (interrupted) return;
  interrupted = true;
  log('interrupted; stopping…');
  for (const child of running) child.kill('SIGTERM');
}

/** Checks that need no running service, run one after another while the stack starts; any failure fails `npm test`. */
const STATIC_CHECKS = [
  { name: 'type check', bin: 'typescript/bin/tsc', args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'web app type check', bin: 'typescript/bin/tsc', args: ['-p', 'web/tsconfig.json'] },
  // No module may import itself back at run time (DESIGN.md §1). Type-only imports are erased by the compiler and
  // skipped (.madgerc): workflows import the activities' types and the Temporal catalogue the workflows' types,
  // while activities start workflows, a cycle of types only.
  { name: 'import cycle check', bin: 'madge/bin/cli.js', args: ['--circular', '--no-spinner', '--no-color', 'src', 'api', 'workflows', 'activities'] },
  { name: 'lint', bin: 'eslint/bin/eslint.js', args: ['--max-warnings', '0', '.'] },
  { name: 'format check', bin: 'prettier/bin/prettier.cjs', args: ['--check', '--log-level', 'warn', '.'] },
  // The browser journeys (test/integration/app-*.test.ts) drive the built app at /app; a build takes seconds.
  { name: 'web app build', bin: 'vite/bin/vite.js', args: ['build', '--logLevel', 'warn'] },
];

async function staticChecks(env: NodeJS.ProcessEnv): Promise<{ name: string; code: number } | null> {
  for (const check of STATIC_CHECKS) {
    const code = await run(process.execPath, [path.join(ROOT, 'node_modules', check.bin), ...check.args], env);
    if (code !== 0) return { name: check.name, code };
  }
  return null;
}

const NETWORK_GUARD = path.join(ROOT, 'test', 'support', 'network-guard.cjs');

interface GuardRecord {
  pid: number;
  argv: string[];
  connections: Record<string, number>;
  refused: { what: string; target: string; class: string }[];
}

/**
 * What the network guard saw in every process of the run: connections by address class, and
 * every refused attempt to leave this machine (any refusal fails the run).
 */
function networkReport(dir: string): { refused: number } {
  const records: GuardRecord[] = fs.existsSync(dir)
    ? fs.readdirSync(dir).flatMap((f) => {
        try {
          return [JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as GuardRecord];
        } catch {
          return [];
        }
      })
    : [];
  const byClass = new Map<string, number>();
  for (const r of records) for (const [cls, n] of Object.entries(r.connections)) byClass.set(cls, (byClass.get(cls) ?? 0) + n);
  const refused = records.flatMap((r) => r.refused.map((x) => ({ ...x, process: `${r.argv.join(' ')} (pid ${r.pid})` })));
  const classes = [...byClass].map(([cls, n]) => `${cls} ${n}`).join(', ') || 'none recorded';
  log(`network guard: ${records.length} processes; outbound connections by address class: ${classes}; refused (off this machine): ${refused.length}`);
  for (const r of refused) log(`  refused ${r.what} ${r.target} (${r.class}) in ${r.process}`);
  return { refused: refused.length };
}

async function main(): Promise<number> {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, interrupt);
  onParentExit(interrupt);
  const settings = loadStackSettings();
  const runDir = path.join(ROOT, '.data', `test-${process.pid}`);
  fs.mkdirSync(runDir, { recursive: true });
  const [pgPort, temporalPort, httpPort, metricsPort, stripeMockPort, stripeMockTlsPort, zipkinPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);

  // STATIC_CHECKS=off skips them while iterating on a few test files (CI and a plain `npm test` run them).
  const checks = settings.passthrough.STATIC_CHECKS === 'off' ? Promise.resolve(null) : staticChecks(settings.passthrough);
  // The fuzz test's generator (a cached virtualenv; built once per machine, ~15 s). A failure is
  // reported by that test, not here, so the rest of the suite still runs.
  const schemathesis = ensureSchemathesis(settings.passthrough, log).catch((err: Error) => {
    log(`schemathesis is unavailable (${err.message}); the fuzz test will fail`);
    return null;
  });
  const started = Date.now();
  // stripe-mock (built by the bootstrap) answers the Stripe SDK for the payment adapter's tests.
  // It loads Stripe's whole OpenAPI document at start: seconds alone, far longer on a busy machine.
  const stripeMockUrl = `http://127.0.0.1:${stripeMockPort}`;
  const stripeMock = settings.passthrough.STRIPE_MOCK
    ? // Both listeners on free loopback ports: with only -http-addr it still opens HTTPS on the fixed port 12112, so
      // two runs on one machine would collide.
      spawn(settings.passthrough.STRIPE_MOCK, ['-http-addr', `127.0.0.1:${stripeMockPort}`, '-https-addr', `127.0.0.1:${stripeMockTlsPort}`], {
        stdio: 'ignore',
      })
    : null;
  if (stripeMock) running.add(stripeMock);
  const infra = await startInfrastructure({
    databaseUrl: settings.databaseUrl,
    temporalAddress: settings.temporalAddress,
    temporalCli: settings.temporalCli,
    namespace: settings.temporalNamespace,
    postgres: { dataDir: path.join(runDir, 'pg'), port: pgPort, database: 'sourcing_test', persistent: false, fast: true },
    temporal: { port: temporalPort, uiPort: null, httpPort, metricsPort, dbFile: null },
    // The tracing test's trace store (found by the bootstrap; without Java that test fails saying so).
    zipkin: settings.tracing.zipkin && { ...settings.tracing.zipkin, port: zipkinPort },
    quiet: true,
    log,
  });
  log(
    `postgres, temporal${infra.zipkin ? ' and zipkin' : ''} ready in ${((Date.now() - started) / 1000).toFixed(1)} s (bootstrap total ${((Date.now() - settings.bootstrapStartedAt) / 1000).toFixed(1)} s)`,
  );

  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    if (stripeMock) {
      stripeMock.kill('SIGTERM');
      running.delete(stripeMock);
    }
    await infra.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  };
  try {
    if (stripeMock) {
      // Fails at once when stripe-mock exits (e.g. a port taken) instead of waiting out the timeout.
      const exited = new Promise<never>((_, reject) =>
        stripeMock.once('exit', (code) => reject(new Error(`stripe-mock exited (code ${code}) before answering`))),
      );
      const answers = () =>
        fetch(`${stripeMockUrl}/v1/balance`, { headers: { Authorization: 'Bearer sk_test_123' } }).then(
          (r) => r.ok,
          () => false,
        );
      exited.catch(() => undefined); // its exit at cleanup is expected
      await Promise.race([waitFor('stripe-mock', answers, 180_000, 200), exited]);
    }
    const failed = await checks;
    const st = await schemathesis;
    if (interrupted) return 130;
    if (failed) {
      log(`${failed.name} failed`);
      return failed.code;
    }
    if (settings.passthrough.STATIC_CHECKS === 'off') log('static checks skipped (STATIC_CHECKS=off)');
    else log(`${STATIC_CHECKS.map((c) => c.name).join(', ')} passed`);
    const guardDir = path.join(runDir, 'network-guard');
    // The providers' real addresses are off this machine: a test that does not point a provider at
    // its local fake reaches a loopback port where nothing listens (refused at once), not the vendor.
    const offline = `http://127.0.0.1:${await freePort()}`;
    const offlineProviders = Object.fromEntries(
      ['PEOPLEDATALABS_BASE_URL', 'BRAVE_BASE_URL', 'OPENAI_BASE_URL', 'HUNTER_BASE_URL'].map((name) => [name, settings.passthrough[name] ?? offline]),
    );
    const env: NodeJS.ProcessEnv = {
      ...settings.passthrough,
      // Every Node process of the run (jest, its workers, whatever a test spawns) may reach only this machine.
      NODE_OPTIONS: [settings.passthrough.NODE_OPTIONS, `--require "${NETWORK_GUARD}"`].filter(Boolean).join(' '),
      NETWORK_GUARD_DIR: guardDir,
      ...offlineProviders,
      NODE_ENV: 'test',
      DATABASE_URL: infra.databaseUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      TEMPORAL_NAMESPACE: settings.temporalNamespace,
      TEMPORAL_CLI: settings.temporalCli,
      SECRETS_KEY: settings.passthrough.SECRETS_KEY ?? randomBytes(32).toString('base64'),
      LOG_LEVEL: settings.passthrough.LOG_LEVEL ?? 'silent',
      TEST_RUN_DIR: runDir,
      ...(stripeMock ? { STRIPE_MOCK_URL: stripeMockUrl } : {}),
      ...(infra.zipkin ? { TEST_ZIPKIN_URL: infra.zipkin.url } : {}),
      ...(st ? { SCHEMATHESIS: st } : {}),
      // Every worker the suite starts (in process or spawned) serves its metrics on a port of its own.
      WORKER_METRICS_PORT: settings.passthrough.WORKER_METRICS_PORT ?? '0',
    };
    const code = await run(process.execPath, [path.join(ROOT, 'node_modules/jest/bin/jest.js'), ...process.argv.slice(2)], env);
    const { refused } = networkReport(guardDir);
    if (refused > 0 && code === 0) {
      log('the suite tried to reach beyond this machine; failing the run');
      return 1;
    }
    return code;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[test] failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
