import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { apiKeyRepository } from '../../src/db/api-key.repository';
import type { Db } from '../../src/db/knex';
import { workspaceRepository } from '../../src/db/workspace.repository';
import { createUser } from '../../src/users/users.service';
import { waitFor } from './processes';

/**
 * Schemathesis (PyPI), the property-based request generator behind the fuzz test and `npm run
 * fuzz`: it reads /v1/openapi.json and checks every answer against the document. It lives in a
 * virtualenv cached outside the checkout, built once per machine, like the Temporal CLI.
 */
export const SCHEMATHESIS_VERSION = '4.32.5';
/** Schemathesis and its dependencies, each pinned. */
const REQUIREMENTS = path.join(__dirname, 'schemathesis.requirements.txt');
/** Where schemathesis_hooks.py lives (tools/dev; the build ships no tooling, fuzz runs use the sources). */
const HOOKS_DIR = __dirname;

type Log = (msg: string) => void;

export function schemathesisDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'candidate-sourcing', `schemathesis-${SCHEMATHESIS_VERSION}`);
}

/** The `st` executable of the cached virtualenv; builds it (python3 -m venv + pip) when missing. */
export async function ensureSchemathesis(env: NodeJS.ProcessEnv, log: Log): Promise<string> {
  const dir = schemathesisDir(env);
  const st = path.join(dir, 'bin', 'st');
  // A virtualenv's scripts name its own path, so it is built in place; this marker, written last,
  // holds the requirements it was built from: an interrupted or outdated install is rebuilt.
  const done = path.join(dir, '.installed');
  const wanted = fs.readFileSync(REQUIREMENTS, 'utf8');
  const current = () => fs.existsSync(done) && fs.readFileSync(done, 'utf8') === wanted;
  if (current()) return st;
  ensurePythonVenv(log);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await withDirLock(`${dir}.lock`, log, async () => {
    if (current()) return; // another run built it while we waited
    log(`installing schemathesis ${SCHEMATHESIS_VERSION} into ${dir} (python3 -m venv + pip, once per machine)…`);
    const started = Date.now();
    fs.rmSync(dir, { recursive: true, force: true });
    await runLogged('python3', ['-m', 'venv', dir], 'python3 -m venv', log, started);
    await runLogged(path.join(dir, 'bin', 'pip'), ['install', '--disable-pip-version-check', '--no-deps', '-r', REQUIREMENTS], 'pip install', log, started);
    fs.writeFileSync(done, wanted);
    log(`schemathesis ${SCHEMATHESIS_VERSION} installed in ${Math.round((Date.now() - started) / 1000)} s`);
  });
  if (!fs.existsSync(st)) throw new Error(`the schemathesis install did not produce ${st}`);
  return st;
}

/** Debian splits ensurepip (needed by `python3 -m venv`) into python3-venv: install it like Chromium when we can. */
function ensurePythonVenv(log: Log): void {
  const probe = () => spawnSync('python3', ['-c', 'import ensurepip, venv'], { stdio: 'ignore' }).status === 0;
  if (probe()) return;
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error('python3 with venv/ensurepip is needed for the fuzz test (apt-get install python3-venv)');
  }
  log('installing python3-venv (apt-get, once per machine)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'python3-venv'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (!probe()) throw new Error('apt-get could not install python3-venv; the fuzz test needs it');
}

/** Runs a build step, printing progress every 15 s and its last output line on failure. */
function runLogged(cmd: string, args: string[], label: string, log: Log, started: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let last = '';
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        lines += 1;
        last = line.trim();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const tick = setInterval(
      () => log(`  …${label}: ${lines} lines of output, ${Math.round((Date.now() - started) / 1000)} s elapsed (${last.slice(0, 100)})`),
      15_000,
    );
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(tick);
      if (code === 0) resolve();
      else reject(new Error(`${label} failed with exit code ${code}; last output: ${last}`));
    });
  });
}

/** A directory as a cross-process lock; one older than an hour is taken as abandoned. */
async function withDirLock(lockDir: string, log: Log, work: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (Date.now() - fs.statSync(lockDir).mtimeMs > 60 * 60 * 1000) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      log('another process is installing schemathesis; waiting…');
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
  try {
    await work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/** Real ids of the fuzzed workspace, by path placeholder: generated requests use them half the time. */
export type FuzzIds = Record<string, string[]>;

/** The two OpenAPI documents and how a request of each authenticates. */
export const FUZZ_DOCUMENTS = {
  key: { document: '/v1/openapi.json', base: '/v1', header: (credential: string) => ['--header', `Authorization: Bearer ${credential}`], auth: () => [] },
  // The cookie goes through the document's security scheme, so Schemathesis knows it for the
  // credential (a Cookie header would be taken for a parameter, and its changes for bad data).
  session: {
    document: '/api/openapi.json',
    base: '',
    header: () => [],
    auth: (credential: string) => ['[auth.openapi.sessionCookie]', `api_key = ${JSON.stringify(credential.replace(/^sid=/, ''))}`],
  },
} as const;
export type FuzzDocument = keyof typeof FUZZ_DOCUMENTS;

export interface FuzzRunOptions {
  st: string;
  /** The API's origin, e.g. http://127.0.0.1:1234. */
  apiUrl: string;
  /** Which document to fuzz; default the key API's. */
  document?: FuzzDocument;
  /** The key API: a key of the fuzzed workspace with every scope; the session API: its `sid=…` cookie (an admin's). */
  key: string;
  ids: FuzzIds;
  /** Where the config and the HAR report go. */
  workDir: string;
  /** The local HTTPS sink every generated webhook URL is set to (the hooks' rule: a URL must resolve to an allowed address). */
  webhookUrl: string;
  maxExamples: number;
  seed: number;
  workers: number;
  /** Stops generating after this many seconds (the run's time bound). */
  maxTimeSeconds?: number;
  /** More `st run` options, e.g. --include-name to fuzz one operation. */
  extraArgs?: string[];
  log?: Log;
}

export interface FuzzFigures {
  /** Schemathesis's exit code: 0 when every check passed and it met no error of its own. */
  exitCode: number;
  /** Check failures by code, from its summary (`ST101 Server error: 1`, …). */
  failures: Record<string, number>;
  /** Errors of Schemathesis itself (not of the API), e.g. a Python crash while generating. */
  toolErrors: Record<string, number>;
  requests: number;
  /** Requests by status code. */
  statuses: Record<string, number>;
  serverErrors: number;
  /** The route and status of each 5xx, for the failure message. */
  serverErrorSamples: string[];
  seconds: number;
  /** The tail of Schemathesis's own report (its failures, with reproducing curl commands). */
  output: string;
}

/**
 * Checks left out because this API contradicts them on purpose, each with why. Every other check
 * of `--checks all` runs, among them positive_data_acceptance (ST202: a request the document
 * allows, refused as invalid) and negative_data_rejection (a request the document forbids,
 * accepted): the documents state every limit the server enforces, and the few rules OpenAPI
 * cannot state (two related values, a webhook host that must resolve to an allowed address, a job description that must
 * name a role, the search's own weights) are kept by the generated requests themselves
 * (tools/dev/schemathesis_hooks.py, valid cases only).
 */
export const EXCLUDED_CHECKS: Record<string, string> = {
  // "A 404 right after a POST created the resource is a bug". Its stateful links feed a project
  // just created into POST /projects/{id}/shortlist/members, whose body names candidates that
  // are not among that (empty) project's people: the spec's 404 `candidate_not_found`, which the
  // check takes for the project being missing. The tenant-isolation and route tests cover real 404s.
  ensure_resource_availability: "adding unknown candidates to a new project is the spec's 404 candidate_not_found",
};

/**
 * Statuses a request valid by the document may get: success, and refusals that depend on state,
 * not on the request's form (no credits 402, a conflict 409, gone 410, a missing provider 424, a
 * limit 429, unknown ids 404). A 400, 413, 415 or 422 is a failure (ST202).
 */
export const POSITIVE_STATUSES = ['2xx', '401', '402', '403', '404', '409', '410', '424', '429'];

/**
 * 5xx answers an operation declares for a dependency the fuzz run cannot reach, each with why: not
 * counted as server errors (or as valid data refused) for that operation alone.
 */
export const DEPENDENCY_FAILURES: Record<FuzzDocument, Record<string, { status: number; why: string }>> = {
  key: {},
  session: {
    'POST /api/intake': {
      status: 502,
      why: 'extraction_failed: no language model answers a fuzz run (its provider address is a closed local port; the openai credentials are ones the run itself created)',
    },
  },
};

/** Operations not fuzzed, each with why. */
export const EXCLUDED_OPERATIONS: Record<FuzzDocument, Record<string, string>> = {
  key: {},
  // It ends the session the run signs its requests with.
  session: { 'POST /api/auth/sign-out': 'ends the session every other request uses' },
};

/**
 * Runs `st run` against one document (the key API's by default) with its credential, every check
 * and the given bounds, and counts what the API answered from the HAR report (every request
 * Schemathesis made).
 */
export async function runSchemathesis(opts: FuzzRunOptions): Promise<FuzzFigures> {
  const target = FUZZ_DOCUMENTS[opts.document ?? 'key'];
  fs.mkdirSync(opts.workDir, { recursive: true });
  const configFile = path.join(opts.workDir, 'schemathesis.toml');
  const dependencyFailures = DEPENDENCY_FAILURES[opts.document ?? 'key'];
  fs.writeFileSync(configFile, fuzzConfig(opts.ids, target.auth(opts.key), dependencyFailures));
  const har = path.join(opts.workDir, 'fuzz.har');
  fs.rmSync(har, { force: true });
  const args = [
    '--config-file',
    configFile,
    'run',
    `${opts.apiUrl}${target.document}`,
    '--url',
    `${opts.apiUrl}${target.base}`,
    ...target.header(opts.key),
    ...Object.keys(EXCLUDED_OPERATIONS[opts.document ?? 'key']).flatMap((name) => ['--exclude-name', name]),
    '--checks',
    'all',
    ...(Object.keys(EXCLUDED_CHECKS).length ? ['--exclude-checks', Object.keys(EXCLUDED_CHECKS).join(',')] : []),
    '--max-examples',
    String(opts.maxExamples),
    '--seed',
    String(opts.seed),
    '--workers',
    String(opts.workers),
    ...(opts.maxTimeSeconds ? ['--max-time', String(opts.maxTimeSeconds)] : []),
    '--request-timeout',
    '30',
    '--continue-on-failure',
    '--report',
    'har',
    '--report-har-path',
    har,
    '--no-color',
    ...(opts.extraArgs ?? []),
  ];
  const started = Date.now();
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve, reject) => {
    const child = spawn(opts.st, args, {
      cwd: opts.workDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      // The hooks module beside this file (the rules OpenAPI cannot state).
      env: {
        ...process.env,
        NO_COLOR: '1',
        COLUMNS: '160',
        SCHEMATHESIS_HOOKS: 'schemathesis_hooks',
        PYTHONPATH: HOOKS_DIR,
        FUZZ_WEBHOOK_URL: opts.webhookUrl,
      },
    });
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.length > 400_000) out = out.slice(-200_000);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const tick = opts.log && setInterval(() => opts.log!(`  …fuzzing, ${Math.round((Date.now() - started) / 1000)} s elapsed`), 30_000);
    child.on('error', reject);
    child.on('close', (exit) => {
      if (tick) clearInterval(tick);
      resolve({ code: exit ?? 1, output: out });
    });
  });
  const entries: { request: { method: string; url: string }; response: { status: number } }[] = fs.existsSync(har)
    ? JSON.parse(fs.readFileSync(har, 'utf8')).log.entries
    : [];
  const statuses: Record<string, number> = {};
  for (const e of entries) statuses[e.response.status] = (statuses[e.response.status] ?? 0) + 1;
  const allowed = (e: (typeof entries)[number]) =>
    Object.entries(dependencyFailures).some(
      ([name, { status }]) => e.response.status === status && name === `${e.request.method} ${new URL(e.request.url).pathname.slice(target.base.length)}`,
    );
  const errors = entries.filter((e) => e.response.status >= 500 && !allowed(e));
  return {
    exitCode: code,
    failures: summarySection(output, 'Failures'),
    toolErrors: summarySection(output, 'Errors'),
    requests: entries.length,
    statuses,
    serverErrors: errors.length,
    serverErrorSamples: errors.slice(0, 10).map((e) => `${e.request.method} ${e.request.url} → ${e.response.status}`),
    seconds: (Date.now() - started) / 1000,
    output: output.slice(-20_000),
  };
}

/** The `<title>:` block of the run's SUMMARY: `  ❌ ST202 Schema-valid request rejected: 9` → {'ST202 Schema-valid request rejected': 9}. */
export function summarySection(output: string, title: string): Record<string, number> {
  const summary = output.slice(output.lastIndexOf(' SUMMARY '));
  const block = new RegExp(`\\n[ \\t]*${title}:\\n((?:[ \\t]+\\S.*\\n)+)`).exec(summary);
  const counts: Record<string, number> = {};
  for (const line of block?.[1].split('\n') ?? []) {
    const m = /^\s+\S+\s+(.+): (\d+)$/.exec(line);
    if (m) counts[m[1]] = Number(m[2]);
  }
  return counts;
}

/** schemathesis.toml: path ids drawn from the workspace's real records half the time, generated otherwise. */
function fuzzConfig(ids: FuzzIds, auth: string[], dependencyFailures: Record<string, { status: number }>): string {
  const lines: string[] = auth.length ? [...auth, ''] : [];
  for (const [name, values] of Object.entries(ids)) {
    if (!values.length) continue;
    lines.push(`[dictionaries.${name}]`, `values = [${values.map((v) => JSON.stringify(v)).join(', ')}]`, '');
  }
  lines.push('[parameters]');
  for (const [name, values] of Object.entries(ids)) {
    if (values.length) lines.push(`"path.${name}" = { dictionary = "${name}", probability = 0.5 }`);
  }
  // Shortlist additions name candidates in the body: real ones half the time, so they get past the 404.
  if (ids.candidateId?.length) lines.push('"body.candidate_ids[*]" = { dictionary = "candidateId", probability = 0.5 }');
  // A scan (session API) names its project in the body.
  if (ids.projectId?.length) lines.push('"body.project_id" = { dictionary = "projectId", probability = 0.5 }');
  const list = (statuses: string[]) => `[${statuses.map((s) => JSON.stringify(s)).join(', ')}]`;
  lines.push('', '[checks.positive_data_acceptance]', `expected-statuses = ${list(POSITIVE_STATUSES)}`);
  for (const [name, { status }] of Object.entries(dependencyFailures)) {
    lines.push(
      '',
      '[[operations]]',
      `include-name = ${JSON.stringify(name)}`,
      `checks.not_a_server_error.expected-statuses = ${list(['2xx', '3xx', '4xx', String(status)])}`,
      `checks.positive_data_acceptance.expected-statuses = ${list([...POSITIVE_STATUSES, String(status)])}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export interface FuzzWorkspace {
  workspaceId: string;
  key: string;
  ids: FuzzIds;
}

/**
 * The fuzzed workspace: plenty of credits, high limits and an all-scopes key, with a project, a
 * finished search (so candidates exist), a shortlisted candidate and a webhook, made through the
 * API itself so their rows are what real calls leave.
 */
export async function seedFuzzWorkspace(db: Db, apiUrl: string, webhookUrl: string): Promise<FuzzWorkspace> {
  const workspace = await workspaceRepository(db).create({
    name: 'Fuzz workspace',
    plan: 'starter',
    credits: 1_000_000,
    rate_limit_per_minute: 1_000_000,
    max_concurrent_searches: 1000,
  });
  const { raw } = await apiKeyRepository(db).issue({
    workspaceId: workspace.id,
    name: 'fuzz',
    scopes: ['*'],
    fundingMode: 'workspace',
    environment: 'test',
    rateLimitPerMinute: 1_000_000,
    expiresAt: null,
  });
  const call = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${apiUrl}/v1${p}`, {
      method,
      headers: { Authorization: `Bearer ${raw}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: any };
    if (!res.ok) throw new Error(`seeding the fuzz workspace: ${method} ${p} → ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const project = await call('POST', '/projects', { name: 'Fuzz project' });
  const criteria = { family: 'software_engineering', read_budget: 30, target: 10, shortlist_threshold: 50 };
  const search = await call('POST', `/projects/${project.id}/searches`, { criteria }, { 'Idempotency-Key': `fuzz-seed-${workspace.id}` });
  await waitFor('the seeded search to finish', async () => ['complete', 'failed'].includes((await call('GET', `/searches/${search.id}`)).status), 120_000, 250);
  const people: { id: string }[] = (await call('GET', `/searches/${search.id}/people?limit=20&profile=false`)).people;
  if (people.length) await call('POST', `/projects/${project.id}/shortlist/members`, { candidate_ids: [people[0].id] });
  // The run's local sink (the stack allows loopback for it): test events and redeliveries arrive there.
  const webhook = await call('POST', '/webhooks', { url: webhookUrl });
  return {
    workspaceId: workspace.id,
    key: raw,
    ids: { projectId: [project.id], searchId: [search.id], candidateId: people.slice(0, 5).map((p) => p.id), webhookId: [webhook.id] },
  };
}

export interface FuzzSession {
  /** The admin's `sid=…` cookie. */
  cookie: string;
  ids: FuzzIds;
}

/**
 * The session API's fuzzed workspace: plenty of credits, an admin signed in (its cookie signs
 * every request) and a project for scans, made through the API.
 */
export async function seedFuzzSession(db: Db, apiUrl: string): Promise<FuzzSession> {
  const workspace = await workspaceRepository(db).create({
    name: 'Fuzz session workspace',
    plan: 'starter',
    credits: 1_000_000,
    max_concurrent_searches: 1000,
  });
  const email = `fuzz-admin-${workspace.id}@example.test`;
  const password = randomBytes(18).toString('base64url');
  await createUser(db, { email, password, workspaceId: workspace.id, role: 'admin' });
  const signedIn = await fetch(`${apiUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith('sid='))
    ?.split(';')[0];
  if (!cookie) throw new Error(`seeding the session fuzz: sign-in answered ${signedIn.status}`);
  const project = await fetch(`${apiUrl}/api/v1/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: 'Fuzz session project' }),
  });
  if (project.status !== 201) throw new Error(`seeding the session fuzz: project → ${project.status} ${await project.text()}`);
  const { data } = (await project.json()) as { data: { id: string } };
  return { cookie, ids: { projectId: [data.id] } };
}
