import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { loadCorpus } from '../../src/corpus/loader';
import { createDb, type Db } from '../../src/db/knex';
import { workspaceRepository } from '../../src/db/workspace.repository';
import { loadStackSettings } from '../../src/config';
import {
  chargedPassCounts,
  checkInvariants,
  waitForMonitorRunsEnded,
  waitForRatingsLearned,
  waitForSearchesSettled,
  waitForWebhooksDelivered,
  type InvariantResult,
  type InvariantScope,
} from './chaos-invariants';
import { waitFor } from '../dev/processes';
import { stackSecretsKey, startProdStack, type Component } from '../dev/prod-stack';
import { PDL_GOOD_KEY, person, startPdlFake } from '../../test/fakes/pdl-fake';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver } from '../../test/support/https-receiver';
import { benchKeyHeaders, log, ROOT, runBench } from '../../bench/lib';

/**
 * `npm run chaos`: fault runs on the production-like stack (tools/dev/prod-stack.ts). Under a steady
 * load of launches, expansions, shortlist edits and webhook deliveries to local HTTPS receivers,
 * each of a worker, an API process, the Temporal server and PostgreSQL in turn is killed with
 * SIGKILL, left down a few seconds and started again. After each fault the load stops, the stack
 * settles and tools/chaos/chaos-invariants.ts checks every promise by SQL and the receivers' records;
 * one webhook endpoint is disabled before the second fault. The last fault, `pdl-outage`, is not
 * a process: the load launches live searches (People Data Labs, a local fake of it) and the fake
 * answers every call with a 500 while "down", so passes in flight fail for real (past their
 * retries, once the circuit breaker opens) and must each be refunded exactly once. Prints a
 * table; exits 1 when any invariant was violated. The sourcing loop is in the load too: each
 * database-only search gets ratings (a calibration, which reads on as a new pass) and each
 * client's first search of a fault a monitor at a seconds cadence (MONITOR_EVERY_SECONDS), paused
 * before the stack settles: ratings sent while something is down must all be learned from, and a
 * monitor run killed mid-pass must write its `monitor.matched` once (or never, having found nobody). Bounded: CHAOS_DEADLINE_S (default 600) aborts
 * a run that hangs. CHAOS_FAULTS (e.g. `worker-1,postgres`) picks the faults, CHAOS_CLIENTS the
 * load's clients.
 */

const FAULTS = (process.env.CHAOS_FAULTS ?? 'worker-1,api-1,temporal,postgres,pdl-outage').split(',').filter(Boolean);
/** The fault that fails passes: the profile source (People Data Labs) answers 500 to everything while down. */
const PDL_OUTAGE = 'pdl-outage';
const CLIENTS = Number(process.env.CHAOS_CLIENTS ?? 4);
const DEADLINE_S = Number(process.env.CHAOS_DEADLINE_S ?? 600);
const BEFORE_MS = 8_000;
const DOWN_MS = 5_000;
const AFTER_MS = 8_000;
const SETTLE_MS = 180_000;
const CORPUS = { size: 4000, seed: 11 };
/** Long enough that searches are mid-pass when a component dies. */
const SEARCH_PAGE_DELAY_MS = 150;

interface PhaseCounters {
  sent: number;
  errors: number;
  samples: Map<string, number>;
  /** Answers a client may not see whatever is down: a 500, or a 503 without Retry-After. */
  unexplained: string[];
}

const newCounters = (): PhaseCounters => ({ sent: 0, errors: 0, samples: new Map(), unexplained: [] });

/** Keyed calls through the load balancer, counted per phase: a network error or a 5xx is a client-visible error. */
class Client {
  counters = newCounters();
  constructor(
    private readonly base: string,
    private readonly headers: Record<string, string>,
  ) {}

  async call(method: string, urlPath: string, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
    this.counters.sent++;
    try {
      const res = await fetch(`${this.base}${urlPath}`, {
        method,
        headers: { ...this.headers, ...opts.headers },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      const where = `${method} ${urlPath.replace(/[0-9a-f-]{36}/g, ':id')} → ${res.status}`;
      if (res.status >= 500) this.error(where);
      // An outage is a 503 with Retry-After (the load balancer's own 502 aside), never a 500.
      if (res.status === 500 || (res.status === 503 && !res.headers.get('retry-after'))) this.counters.unexplained.push(`${where} ${text.slice(0, 120)}`);
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    } catch (err) {
      this.error(`${method} ${urlPath.replace(/[0-9a-f-]{36}/g, ':id')} → ${(err as Error).name === 'TimeoutError' ? 'timeout' : 'network error'}`);
      return { status: 0, body: undefined };
    }
  }

  private error(what: string) {
    this.counters.errors++;
    this.counters.samples.set(what, (this.counters.samples.get(what) ?? 0) + 1);
  }

  /** Repeats a call until it answers below 500 (a client's retry; launches keep their Idempotency-Key). */
  async retry(method: string, urlPath: string, opts: { body?: unknown; headers?: Record<string, string> } = {}, timeoutMs = 90_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.call(method, urlPath, opts);
      if (res.status > 0 && res.status < 500) return res;
      if (Date.now() > deadline) throw new Error(`${method} ${urlPath} kept failing`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

const criteria = { family: 'software_engineering', read_budget: 100, target: 5, shortlist_threshold: 40, mode: 'database_only' };
/** Live passes of the People Data Labs fake: four pages of 25 and up to 100 profile reads, so an outage meets passes mid-way. */
const liveCriteria = { ...criteria, mode: 'live', shortlist_threshold: 95 };

/** People for the People Data Labs fake: software engineers the live query finds, a few pages of them. */
function pdlPeople() {
  return Array.from({ length: 150 }, (_, i) =>
    person({
      id: `pdl-chaos-${String(i).padStart(4, '0')}`,
      name: [`ada${i}`, `quinn${i}`],
      title: [i % 2 ? 'software engineer' : 'senior software engineer', 'engineering', 'software', i % 2 ? [] : ['senior']],
      company: ['acme robotics', 'computer software'],
      location: ['london, england, united kingdom', null],
      skills: ['typescript', 'postgresql'],
      years: 3 + (i % 10),
    }),
  );
}

/** Waits for the search to leave queued/running (polling through the load balancer). */
async function settled(client: Client, searchId: string): Promise<any> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const res = await client.call('GET', `/v1/searches/${searchId}`);
    if (res.status === 200 && ['complete', 'failed'].includes(res.body.data.status)) return res.body.data;
    if (Date.now() > deadline) throw new Error(`search ${searchId} did not settle`);
    await new Promise((r) => setTimeout(r, 400));
  }
}

/**
 * One user's loop: a project, a launch (retried with its Idempotency-Key), shortlist edits on its
 * people, one expansion. Data calls (`/v1/data/*`) are not on this branch's API yet; a step for
 * them goes into this loop once they are.
 */
/** Idempotency keys of the data calls answered 2xx (see the data-call invariant). */
const billedDataCalls = new Set<string>();

/** Projects the load watches: their monitors are paused before the stack settles, so no new run starts. */
const watchedProjects: string[] = [];

/** Pauses every monitor of the watched projects (one created by an attempt whose answer was lost too). */
async function pauseMonitors(client: Client): Promise<void> {
  for (const projectId of watchedProjects.splice(0)) {
    const listed = await client.retry('GET', `/v1/projects/${projectId}/monitors`);
    for (const m of listed.body?.data ?? []) await client.retry('PATCH', `/v1/monitors/${m.id}`, { body: { status: 'paused' } });
  }
}

async function userLoop(client: Client, stop: () => boolean, live: boolean): Promise<void> {
  let watching = live; // live monitor runs would spend credits; the load watches database-only searches
  while (!stop()) {
    // A billed data call, retried under the same idempotency key until answered: billed once.
    const dataKey = `chaos-data-${randomUUID()}`;
    const found = await client.retry('POST', '/v1/data/people/search', {
      body: { search: 'engineer', location: 'london', limit: 5 },
      headers: { 'Idempotency-Key': dataKey },
    });
    if (found.status !== 200) throw new Error(`data call: ${found.status} ${JSON.stringify(found.body)}`);
    billedDataCalls.add(dataKey);

    const project = await client.retry('POST', '/v1/projects', { body: { name: `chaos ${randomUUID().slice(0, 8)}` } });
    if (project.status !== 201) throw new Error(`project create: ${project.status} ${JSON.stringify(project.body)}`);
    const projectId = project.body.data.id;
    const launchKey = `chaos-${randomUUID()}`;
    let launched = await client.retry('POST', `/v1/projects/${projectId}/searches`, {
      body: { criteria: live ? liveCriteria : criteria },
      headers: { 'Idempotency-Key': launchKey },
    });
    // A live launch while the provider's circuit is open is refused before any charge (424
    // search_unavailable, Retry-After): a client waits and launches again under the same key.
    for (const deadline = Date.now() + SETTLE_MS; launched.status === 424 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, Math.min(2_000, 1000 * Number(launched.body?.error?.details?.retry_after_seconds ?? 1))));
      launched = await client.retry('POST', `/v1/projects/${projectId}/searches`, {
        body: { criteria: liveCriteria },
        headers: { 'Idempotency-Key': launchKey },
      });
    }
    if (launched.status !== 201 && launched.status !== 202 && launched.status !== 200)
      throw new Error(`launch: ${launched.status} ${JSON.stringify(launched.body)}`);
    const search = await settled(client, launched.body.data.id);
    if (search.status === 'complete') {
      const people = await client.retry('GET', `/v1/searches/${search.id}/people?limit=4&profile=false`);
      const ids: string[] = (people.body?.data?.people ?? []).map((p: { id: string }) => p.id);
      if (ids.length) {
        await client.retry('POST', `/v1/projects/${projectId}/shortlist/members`, { body: { candidate_ids: ids.slice(0, 2) } });
        await client.retry('DELETE', `/v1/projects/${projectId}/shortlist/members/${ids[0]}`);
        // Ratings are safe to repeat (a person's latest verdict wins): retried until answered.
        const ratings = ids.map((id, i) => ({ candidate_id: id, verdict: i % 2 ? 'bad' : 'good', reasons: i % 2 ? ['industry'] : ['title'] }));
        const rated = await client.retry('POST', `/v1/searches/${search.id}/feedback`, { body: { ratings } });
        if (rated.status !== 202 && rated.status !== 200) throw new Error(`feedback: ${rated.status} ${JSON.stringify(rated.body)}`);
      }
      if (!watching) {
        // One monitor per search: a retry after a lost answer meets the one it made (409).
        watchedProjects.push(projectId);
        const made = await client.retry('POST', `/v1/projects/${projectId}/monitors`, { body: { search_id: search.id, every: 'hour' } });
        if (made.status !== 201 && made.status !== 409) throw new Error(`monitor: ${made.status} ${JSON.stringify(made.body)}`);
        watching = true;
      }
      // Not idempotent (an expansion is a new pass): a lost answer is not retried.
      const expanded = await client.call('POST', `/v1/projects/${projectId}/expand`, { body: {} });
      if (expanded.status === 202) await settled(client, search.id);
    }
  }
}

/** What a fault takes down and brings back: a process of the stack, or the People Data Labs fake. */
type FaultTarget = Pick<Component, 'pid' | 'kill' | 'start'>;

interface Row {
  fault: string;
  sent: number;
  errors: number;
  samples: string;
  downMs: number;
  restartMs: number;
  recoveryMs: number;
  settleMs: number;
  /** Charged passes that failed during this fault's phase, and the refunds written for them. */
  failedPasses: number;
  refunds: number;
  invariants: InvariantResult[];
}

async function runFault(
  db: Db,
  clients: Client[],
  scope: InvariantScope,
  fault: string,
  component: FaultTarget,
  probe: () => Promise<boolean>,
  before?: () => Promise<void>,
): Promise<Row> {
  for (const c of clients) c.counters = newCounters();
  const passesBefore = await chargedPassCounts(db, scope.workspaceId);
  let stopping = false;
  // Live searches only under the provider outage: the other faults keep their database-only load.
  const loops = clients.map((c) => userLoop(c, () => stopping, fault === PDL_OUTAGE));
  const loopsDone = Promise.allSettled(loops);
  await new Promise((r) => setTimeout(r, BEFORE_MS));
  await before?.();
  log(fault === PDL_OUTAGE ? `  ${fault}: every People Data Labs call answers 500` : `  kill -9 ${fault} (pid ${component.pid()})`);
  await component.kill();
  const killedAt = Date.now();
  await new Promise((r) => setTimeout(r, DOWN_MS));
  const restartAt = Date.now();
  await component.start();
  const backAt = Date.now();
  // The API must answer a keyed call (database read) within 10 s of the component being back.
  await waitFor('the API to answer', probe, 60_000, 100);
  const recoveryMs = Date.now() - backAt;
  log(`  ${fault} back after ${((backAt - killedAt) / 1000).toFixed(1)} s down; API answering ${recoveryMs} ms later`);
  await new Promise((r) => setTimeout(r, AFTER_MS));
  stopping = true;
  const outcomes = await loopsDone;
  const settleStart = Date.now();
  await pauseMonitors(clients[0]);
  await waitForMonitorRunsEnded(db, scope.workspaceId, SETTLE_MS).catch((err: Error) => log(`  ${err.message}`));
  await waitForRatingsLearned(db, scope.workspaceId, SETTLE_MS).catch((err: Error) => log(`  ${err.message}`));
  await waitForSearchesSettled(db, scope.workspaceId, SETTLE_MS).catch((err: Error) => log(`  ${err.message}`));
  await waitForWebhooksDelivered(db, scope, SETTLE_MS).catch((err: Error) => log(`  ${err.message}`));
  const settleMs = Date.now() - settleStart;
  const invariants = await checkInvariants(db, scope);
  const passesAfter = await chargedPassCounts(db, scope.workspaceId);
  const failedPasses = passesAfter.failed - passesBefore.failed;
  const refunds = passesAfter.refunds - passesBefore.refunds;
  if (fault === PDL_OUTAGE) {
    // Without a failure the refund path would be checked only as "no refund without a failure".
    invariants.push({
      name: 'passes failed under the outage, each refunded once',
      held: failedPasses > 0 && refunds === failedPasses,
      detail: `${failedPasses} charged passes failed, ${refunds} refunds`,
    });
  }
  invariants.push({
    name: 'API answered within 10 s of the component coming back',
    held: recoveryMs <= 10_000,
    detail: `${recoveryMs} ms`,
  });
  const loopFailures = outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason?.message));
  invariants.push({
    name: 'every client flow finished (retries succeeded)',
    held: loopFailures.length === 0,
    detail: loopFailures.length ? loopFailures.slice(0, 2).join('; ') : `${clients.length} clients`,
  });
  const unexplained = clients.flatMap((c) => c.counters.unexplained);
  invariants.push({
    name: 'every 5xx an outage answer (503 with Retry-After), never a 500',
    held: unexplained.length === 0,
    detail: unexplained.length ? `${unexplained.length}: ${unexplained.slice(0, 2).join('; ')}` : 'none unexplained',
  });
  const sum = (f: (c: PhaseCounters) => number) => clients.reduce((n, c) => n + f(c.counters), 0);
  const samples = new Map<string, number>();
  for (const c of clients) for (const [k, v] of c.counters.samples) samples.set(k, (samples.get(k) ?? 0) + v);
  return {
    fault,
    sent: sum((c) => c.sent),
    errors: sum((c) => c.errors),
    samples: [...samples.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([k, v]) => `${v}× ${k}`)
      .join('; '),
    downMs: restartAt - killedAt,
    restartMs: backAt - restartAt,
    recoveryMs,
    settleMs,
    failedPasses,
    refunds,
    invariants,
  };
}

function printTable(rows: Row[]): void {
  const header = ['fault (kill -9)', 'requests', 'client errors', 'down', 'restart', 'API recovery', 'settle', 'failed passes / refunds', 'invariants'];
  const lines = rows.map((r) => [
    r.fault,
    String(r.sent),
    String(r.errors),
    `${(r.downMs / 1000).toFixed(1)} s`,
    `${(r.restartMs / 1000).toFixed(1)} s`,
    `${(r.recoveryMs / 1000).toFixed(1)} s`,
    `${(r.settleMs / 1000).toFixed(1)} s`,
    `${r.failedPasses} / ${r.refunds}`,
    r.invariants.every((i) => i.held)
      ? `all ${r.invariants.length} held`
      : `VIOLATED: ${r.invariants
          .filter((i) => !i.held)
          .map((i) => i.name)
          .join(', ')}`,
  ]);
  log(`\n| ${header.join(' | ')} |\n| ${header.map(() => '---').join(' | ')} |`);
  for (const l of lines) log(`| ${l.join(' | ')} |`);
  for (const r of rows) {
    log(`\n${r.fault}: ${r.samples ? `client errors: ${r.samples}` : 'no client errors'}`);
    for (const i of r.invariants) log(`  ${i.held ? 'held    ' : 'VIOLATED'} ${i.name}: ${i.detail}`);
  }
}

async function main(): Promise<number> {
  const settings = loadStackSettings();
  const serverDir = settings.passthrough.TEMPORAL_SERVER_DIR;
  if (!serverDir) throw new Error('TEMPORAL_SERVER_DIR is unset: run this through `npm run chaos`');
  const deadline = setTimeout(() => {
    log(`chaos run exceeded ${DEADLINE_S} s; aborting`);
    process.exit(2);
  }, DEADLINE_S * 1000);
  deadline.unref();
  const started = Date.now();
  const dataDir = path.join(ROOT, '.data', `chaos-${process.pid}`);
  const cert = makeTestCert();
  const receivers: HttpsReceiver[] = await Promise.all([startHttpsReceiver(cert), startHttpsReceiver(cert)]);
  const pdl = await startPdlFake({ people: pdlPeople() });
  // A little latency per call, as a vendor has, so live passes last long enough to be met mid-way.
  pdl.mode = 'slow';
  pdl.delayMs = 20;
  const stack = await startProdStack({
    dataDir,
    persistent: false,
    temporalServerDir: serverDir,
    temporalCli: settings.temporalCli,
    secretsKey: stackSecretsKey(dataDir),
    env: {
      // The receivers are local: exempt loopback (tests and fault runs only) and trust their certificate.
      WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
      NODE_EXTRA_CA_CERTS: cert.certFile,
      // Short retry steps, so a delivery failed during an outage is retried within the run.
      WEBHOOK_RETRY_SCHEDULE: '1,2,4,8,15,30',
      SEARCH_PAGE_DELAY_MS: String(SEARCH_PAGE_DELAY_MS),
      // People Data Labs: the local fake, with a server-wide key (launches name their mode).
      PEOPLEDATALABS_BASE_URL: pdl.url,
      PEOPLEDATALABS_API_KEY: PDL_GOOD_KEY,
      // The circuit opens after 5 failures in a row and tries again 3 s later, within the run.
      PROVIDER_CIRCUIT_OPEN_MS: '3000',
      // Monitors run every few seconds and calibrations start a second after the last rating, so faults meet both.
      MONITOR_EVERY_SECONDS: '4',
      CALIBRATION_QUIET_SECONDS: '1',
    },
    log: (m) => log(`[stack] ${m}`),
    // CHAOS_VERBOSE=1 prints every line the stack's processes write (with LOG_LEVEL=error: their failures).
    verbose: process.env.CHAOS_VERBOSE === '1',
  });
  const db = createDb(stack.databaseUrl, 4);
  try {
    await loadCorpus(db, CORPUS);
    const workspace = await workspaceRepository(db).create({ name: 'Chaos', plan: 'enterprise', credits: 100_000, rate_limit_per_minute: 10_000_000 });
    const headers = await benchKeyHeaders(db, workspace.id);
    const base = stack.url;
    const admin = new Client(base, headers);
    const endpoints: { id: string; path: string }[] = [];
    for (const [i, receiver] of [receivers[0], receivers[1], receivers[0]].entries()) {
      const res = await admin.call('POST', '/v1/webhooks', { body: { url: `${receiver.origin}/endpoint-${i + 1}` } });
      if (res.status !== 201) throw new Error(`webhook create: ${res.status} ${JSON.stringify(res.body)}`);
      endpoints.push({ id: res.body.data.id as string, path: `/endpoint-${i + 1}` });
    }
    const scope: InvariantScope = {
      workspaceId: workspace.id,
      endpoints,
      billedDataCalls: () => billedDataCalls,
      receipts: () => receivers.flatMap((r) => r.received.filter((q) => q.json?.id).map((q) => ({ at: q.at, path: q.path, eventId: q.json.id as string }))),
    };
    const probe = async () => (await fetch(`${base}/v1/projects?limit=1`, { headers, signal: AbortSignal.timeout(2000) }).catch(() => null))?.status === 200;
    log(`stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s; ${CLIENTS} clients; faults: ${FAULTS.join(', ')}`);

    const clients = Array.from({ length: CLIENTS }, () => new Client(base, headers));
    const rows: Row[] = [];
    for (const [i, fault] of FAULTS.entries()) {
      log(`\n== fault ${i + 1}/${FAULTS.length}: ${fault} ==`);
      // Before the second fault one endpoint is disabled: from then on nothing may reach it.
      const disable =
        i === 1
          ? async () => {
              const res = await admin.retry('PATCH', `/v1/webhooks/${endpoints[2].id}`, { body: { enabled: false } });
              log(`  disabled endpoint-3 (${res.status})`);
            }
          : undefined;
      const target: FaultTarget =
        fault === PDL_OUTAGE
          ? {
              pid: () => undefined,
              kill: async () => {
                pdl.mode = 'error';
              },
              start: async () => {
                pdl.mode = 'slow';
              },
            }
          : stack.component(fault);
      rows.push(await runFault(db, clients, scope, fault, target, probe, disable));
    }
    printTable(rows);
    log(
      `\nload balancer: ${stack.lb.stats.proxied} proxied, ${stack.lb.stats.retried} retried on another API (refused), ${stack.lb.stats.failed} answered 502`,
    );
    log(`total ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return rows.every((r) => r.invariants.every((i) => i.held)) ? 0 : 1;
  } finally {
    await db.destroy();
    await stack.stop();
    await Promise.all(receivers.map((r) => r.close()));
    await pdl.close();
  }
}

runBench(main, 'chaos');
