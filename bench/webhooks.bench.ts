import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { loadStackSettings } from '../src/config';
import { createDb, type Db } from '../src/db/knex';
import { workspaceRepository } from '../src/db/workspace.repository';
import { waitFor } from '../tools/dev/processes';
import { stackSecretsKey, startProdStack } from '../tools/dev/prod-stack';
import { writeEvent } from '../src/events/outbox';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver } from '../test/support/https-receiver';
import { deliveryHeaders, envelopeBody } from '../src/webhooks/delivery';
import { postWebhook } from '../src/webhooks/sender';
import {
  ROOT,
  anchorReport,
  cpuMeter,
  log,
  percentile,
  productionArgs,
  productionEnv,
  startBenchStack,
  benchKeyHeaders,
  tracingSettings,
  TRACING_NOT_MEASURED,
  runBench,
} from './lib';

/**
 * Webhook figures on this machine (`npm run bench -- webhooks`): 1,000 events fanned out
 * to 2 local HTTPS endpoints (2,000 deliveries), through the real path: outbox commit → dispatcher
 * (LISTEN/NOTIFY, Schedule as safety net) → one delivery workflow each → signed POST.
 *  - paced: events committed at a steady rate; latency = outbox created_at → receipt;
 *  - burst: all 1,000 committed at once; deliveries per second while draining (its latency is
 *    queueing: the last of 2,000 deliveries waits for the 1,999 before it).
 * Two anchors from the same run: a bare loop posting the same signed bodies (what the POSTs alone
 * cost), and the engine's floor (bench/webhook-floor/worker.ts: the same Temporal server running a
 * no-op workflow with one local activity per delivery, the least "one workflow per delivery" can
 * cost). Targets: 100/s offered with p99 < 1 s, a burst ≥ 150/s and ≥ 0.8× the floor. Each run
 * prints the CPU each process spent per delivery, ours beside the floor's.
 * Then, on the dev stack, what tracing costs the burst (BENCH_TRACING, default off, 1.0, 0.1; a
 * fresh worker each), and the same runs on the production-like stack (`npm run stack:prod`:
 * Temporal on PostgreSQL, 2 APIs, 2 workers; then the burst with one worker, to show how it scales).
 * BENCH_EVENTS, BENCH_RATES (events/s) and BENCH_STACKS (`dev,prod`) override.
 */

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
/** Events per second of the paced runs: 25/s = 50 deliveries/s, 50/s = the 100 deliveries/s target, 60/s = headroom. */
const RATES = (process.env.BENCH_RATES ?? '25,50,60').split(',').filter(Boolean).map(Number);
const STACKS = new Set((process.env.BENCH_STACKS ?? 'dev,prod').split(',').map((s) => s.trim()));
/** Deliveries in flight in the bare-loop anchor. */
const BARE_IN_FLIGHT = 100;
/** Events/s of the paced run the latency target is about (2 endpoints: 100 deliveries/s offered). */
const TARGET_RATE = 50;

type Report = ReturnType<typeof anchorReport>;

async function writeEvents(db: Db, workspaceId: string, count: number, perSecond: number | null, tag: string): Promise<string[]> {
  const ids: string[] = [];
  const started = Date.now();
  const one = async (i: number) => {
    const id = await writeEvent(db, {
      workspaceId,
      type: 'shortlist.changed',
      data: { bench: tag, n: i, project_id: randomUUID() },
      dedupeKey: `bench:${tag}:${i}`,
    });
    ids.push(id!);
  };
  if (perSecond === null) {
    // A burst: many small transactions at once, as concurrent state changes would commit them.
    for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => one(i + j)));
    return ids;
  }
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    void one(i);
  }
  await waitFor('all events written', async () => ids.length === count, 30_000, 10);
  return ids;
}

async function measure(db: Db, receivers: HttpsReceiver[], ids: string[], label: string, meter: ReturnType<typeof cpuMeter>) {
  const want = new Set(ids);
  const receipts = () => receivers.flatMap((r) => r.received.filter((q) => want.has(q.json?.id)));
  await waitFor(`${label}: ${ids.length * receivers.length} deliveries`, async () => receipts().length >= ids.length * receivers.length, 300_000, 50).catch(
    async (err) => {
      // Say where the missing deliveries are before giving up.
      const states = await db('webhook_deliveries as d')
        .join('outbox_events as e', 'e.id', 'd.event_id')
        .whereIn('e.id', ids)
        .groupBy('d.status', 'd.last_error')
        .select('d.status', 'd.last_error')
        .count({ n: '*' });
      const [{ undispatched }] = await db('outbox_events').whereIn('id', ids).whereNull('dispatched_at').count({ undispatched: '*' });
      log(`  received ${receipts().length}; undispatched events ${undispatched}; deliveries: ${JSON.stringify(states)}`);
      throw err;
    },
  );
  const cpu = meter.values(ids.length * receivers.length);
  const created = new Map<string, number>(
    (await db('outbox_events').whereIn('id', ids).select('id', 'created_at')).map((r: { id: string; created_at: Date }) => [r.id, r.created_at.getTime()]),
  );
  const got = receipts();
  const latencies = got.map((q) => q.at - created.get(q.json.id)!).sort((a, b) => a - b);
  const first = Math.min(...created.values());
  const last = Math.max(...got.map((q) => q.at));
  const perSecond = got.length / ((last - first) / 1000);
  const duplicates = got.length - new Set(got.map((q) => `${q.path}|${q.json.id}`)).size;
  // Where the time goes: commit → delivery row (dispatcher fan-out) → receipt (workflow start, attempt).
  const rows: { event_id: string; created_at: Date }[] = await db('webhook_deliveries').whereIn('event_id', ids).select('event_id', 'created_at');
  const fanout = rows.map((r) => r.created_at.getTime() - created.get(r.event_id)!).sort((a, b) => a - b);
  const rowAt = new Map(rows.map((r) => [r.event_id, r.created_at.getTime()]));
  const afterFanout = got.map((q) => q.at - rowAt.get(q.json.id)!).sort((a, b) => a - b);
  log(
    `  commit → delivery row p50 ${percentile(fanout, 50)} ms, p99 ${percentile(fanout, 99)} ms; delivery row → receipt p50 ${percentile(afterFanout, 50)} ms, p99 ${percentile(afterFanout, 99)} ms`,
  );
  log(
    `  ${got.length} deliveries in ${((last - first) / 1000).toFixed(1)} s = ${perSecond.toFixed(0)} deliveries/s; ` +
      `commit → receipt p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms; duplicates ${duplicates}`,
  );
  log(`  CPU ms per delivery: ${cpuText(cpu)}`);
  return { perSecond, p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpu };
}

const cpuText = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
    .join(', ');

/** A bench workspace with the two receivers as its endpoints, created through the API. */
async function benchEndpoints(db: Db, base: string, receivers: HttpsReceiver[]) {
  const workspace = await workspaceRepository(db).create({ name: 'Bench', plan: 'enterprise', credits: 10, rate_limit_per_minute: 10_000_000 });
  const headers = await benchKeyHeaders(db, workspace.id);
  const endpoints: { url: string; secret: string }[] = [];
  for (const [i, r] of receivers.entries()) {
    const url = `${r.origin}/endpoint-${i + 1}`;
    const res = await fetch(`${base}/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url }) });
    if (res.status !== 201) throw new Error(`webhook create failed: ${await res.text()}`);
    endpoints.push({ url, secret: ((await res.json()) as { data: { secret: string } }).data.secret });
  }
  return { workspaceId: workspace.id, endpoints };
}

/** Warm-up, the paced runs and the burst on one stack; the targets go to the report under `stack`. */
async function deliveryRuns(opts: {
  stack: string;
  db: Db;
  workspaceId: string;
  receivers: HttpsReceiver[];
  meter: () => ReturnType<typeof cpuMeter>;
  rates: number[];
  report: Report;
}) {
  const { stack, db, workspaceId, receivers, meter, report } = opts;
  log(`\n== ${stack}: warm-up, 50 events ==`);
  await measure(db, receivers, await writeEvents(db, workspaceId, 50, 25, `warm-${stack}`), 'warm-up', meter());
  for (const [run, rate] of opts.rates.entries()) {
    log(`\n== ${stack}: paced, ${EVENTS} events at ${rate}/s to 2 endpoints (${EVENTS * 2} deliveries, ${rate * 2} deliveries/s offered) ==`);
    const paced = await measure(db, receivers, await writeEvents(db, workspaceId, EVENTS, rate, `paced-${stack}-${run}-${rate}`), 'paced', meter());
    const goalMs = rate <= TARGET_RATE ? 1000 : 2000;
    report.target(
      `${stack}: paced ${rate * 2} deliveries/s offered: commit → receipt p99 < ${goalMs} ms`,
      `${paced.p99} ms (${paced.perSecond.toFixed(0)}/s delivered)`,
      paced.p99 < goalMs,
      'queueing once the offered rate nears what the host delivers (see the burst)',
    );
  }
  log(`\n== ${stack}: burst, ${EVENTS} events committed at once to 2 endpoints (${EVENTS * 2} deliveries) ==`);
  const burstIds = await writeEvents(db, workspaceId, EVENTS, null, `burst-${stack}`);
  const burst = await measure(db, receivers, burstIds, 'burst', meter());
  const [{ n }] = await db('webhook_deliveries').whereNot('status', 'delivered').count({ n: '*' });
  log(`  deliveries not delivered: ${n}`);
  return { burst, burstIds };
}

/**
 * The engine's floor on a Temporal server: `count` no-op workflows with one local activity each,
 * started and served by bench/webhook-floor/worker.ts (after a warm-up of 200), with the CPU the
 * server (`serverPids`: its process tree) and the floor process spent per workflow. With
 * `ourStartOptions`, each start carries our delivery's options (FLOOR_START_OPTIONS in the worker).
 */
async function temporalFloor(address: string, serverPids: Record<string, number | undefined>, count: number, opts: { ourStartOptions?: boolean } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/webhook-floor/worker.ts')], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: address, ...(opts.ourStartOptions ? { FLOOR_START_OPTIONS: 'ours' } : {}) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error('the floor worker exited');
    return line.value.startsWith('FLOOR ') ? line.value.slice('FLOOR '.length) : next();
  };
  try {
    if ((await next()) !== 'ready') throw new Error('the floor worker did not start');
    child.stdin.write('run 200\n');
    await next();
    const meter = cpuMeter({ ...serverPids, floor: child.pid });
    child.stdin.write(`run ${count}\n`);
    const result = JSON.parse(await next()) as { perSecond: number; p50: number; p99: number; seconds: number };
    const { bench: _bench, ...cpu } = meter.values(count);
    log(
      `  floor: ${count} workflows in ${result.seconds.toFixed(1)} s = ${result.perSecond.toFixed(0)}/s; start → local activity p50 ${result.p50} ms, p99 ${result.p99} ms; CPU ms per workflow: ${cpuText(cpu)}`,
    );
    return { ...result, cpu };
  } finally {
    // Nothing of it is worth a graceful shutdown (the SDK's would wait on a server that may be gone).
    child.kill('SIGKILL');
  }
}

/** Our burst beside the floor: the ratio goal and where the CPU per delivery differs. */
function reportAgainstFloor(
  report: Report,
  stack: string,
  burst: { perSecond: number; cpu: Record<string, number> },
  floor: { perSecond: number; cpu: Record<string, number> },
) {
  report.figure({
    name: `${stack}: webhook burst, deliveries/s through outbox → dispatcher → delivery workflows`,
    value: burst.perSecond,
    unit: 'deliveries/s',
    anchor: { name: "Temporal's floor (a no-op workflow with one local activity per delivery, same server)", value: floor.perSecond },
    better: 'higher',
    goal: 0.8,
    limits:
      'our work per delivery beside the floor’s (CPU per delivery above): the outbox, the delivery row and its attempt record in Postgres, the signed HTTPS POST, and a larger workflow input and bundle',
  });
  report.note(`${stack}: CPU ms per delivery, ours: ${cpuText(burst.cpu)}; the floor's, per workflow: ${cpuText(floor.cpu)}`);
}

async function devStack(receivers: HttpsReceiver[], cert: ReturnType<typeof makeTestCert>, report: Report): Promise<void> {
  const dataDir = path.join(ROOT, '.data', `bench-webhooks-${process.pid}`);
  const { infra, apiPort } = await startBenchStack({ dataDir, persistent: false, zipkin: true });
  const db = createDb(infra.databaseUrl, 8);
  try {
    const env = productionEnv(
      { infra, apiPort },
      {
        // The receivers are local: exempt loopback (tests and benchmarks only) and trust their certificate.
        WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8',
        NODE_EXTRA_CA_CERTS: cert.certFile,
      },
    );
    const api = infra.group.spawn('api', process.execPath, productionArgs('api/server'), { env, cwd: ROOT, quiet: true });
    let worker = infra.group.spawn('worker', process.execPath, productionArgs('activities/worker'), { env, cwd: ROOT, quiet: true });
    const base = `http://127.0.0.1:${apiPort}/v1`;
    await waitFor('api and worker', async () => (await fetch(`${base}/health?worker=true`)).ok, 120_000, 500);
    const { workspaceId, endpoints } = await benchEndpoints(db, base, receivers);

    // Where the two cores go, per delivery (the bench process is the load generator and the receivers).
    const meter = () => cpuMeter({ temporal: infra.temporal?.pid, worker: worker.pid, api: api.pid, postgres: infra.postgres?.pid, zipkin: infra.zipkin?.pid });
    const { burst, burstIds } = await deliveryRuns({ stack: 'dev stack', db, workspaceId, receivers, meter, rates: RATES, report });
    report.target('dev stack: burst ≥ 150 deliveries/s', `${burst.perSecond.toFixed(0)}/s`, burst.perSecond >= 150, 'the CPU per delivery above on two cores');

    // The anchor of the POSTs alone: the burst's events again, signed and posted by the same sender
    // (postWebhook, the same keep-alive pools) to the same receivers from a plain loop: no outbox,
    // dispatcher, workflows or attempt records.
    log(`\n== anchor: the same ${EVENTS * 2} signed deliveries posted by a bare loop (${BARE_IN_FLIGHT} in flight) ==`);
    const events: { id: string; workspace_id: string; type: string; data: Record<string, unknown>; created_at: Date }[] = await db('outbox_events')
      .whereIn('id', burstIds)
      .select('id', 'workspace_id', 'type', 'data', 'created_at');
    const jobs = events.flatMap((event) => endpoints.map((endpoint) => ({ event, endpoint })));
    const bareMeter = meter();
    const started = performance.now();
    let failed = 0;
    await Promise.all(
      Array.from({ length: BARE_IN_FLIGHT }, async () => {
        for (let job = jobs.pop(); job; job = jobs.pop()) {
          const body = envelopeBody(job.event);
          const result = await postWebhook(job.endpoint.url, body, deliveryHeaders(body, job.endpoint.secret, job.event), {
            policy: { allowedCidrs: ['127.0.0.0/8'] },
            ca: cert.ca,
          });
          if (!result.ok) failed++;
        }
      }),
    );
    const bareSeconds = (performance.now() - started) / 1000;
    const barePerSecond = (events.length * endpoints.length) / bareSeconds;
    log(`  ${events.length * endpoints.length} deliveries in ${bareSeconds.toFixed(1)} s = ${barePerSecond.toFixed(0)}/s, ${failed} failed`);
    log(`  CPU ms per delivery: ${bareMeter.perUnit(events.length * endpoints.length)}`);
    report.figure({
      name: 'dev stack: webhook burst, deliveries/s through outbox → dispatcher → delivery workflows',
      value: burst.perSecond,
      unit: 'deliveries/s',
      anchor: { name: 'a bare loop posting the same signed bodies', value: barePerSecond },
      better: 'higher',
    });

    log(`\n== anchor: Temporal's floor on the same dev server, ${EVENTS * 2} no-op workflows with one local activity each ==`);
    const floor = await temporalFloor(infra.temporalAddress, { temporal: infra.temporal?.pid }, EVENTS * 2);
    reportAgainstFloor(report, 'dev stack', burst, floor);
    // What the engine charges for our start options alone (DESIGN's WorkspaceId search attribute,
    // REJECT_DUPLICATE, the delivery's input): run after the floor, on a server holding more
    // closed workflows, so if anything this overstates their price.
    log(`\n== the floor again, each start with our delivery's options (search attribute, reuse policy, input) ==`);
    const withOptions = await temporalFloor(infra.temporalAddress, { temporal: infra.temporal?.pid }, EVENTS * 2, { ourStartOptions: true });
    report.figure({
      name: "dev stack: Temporal's floor with our start options (WorkspaceId search attribute, REJECT_DUPLICATE, a delivery's input)",
      value: withOptions.perSecond,
      unit: 'workflows/s',
      anchor: { name: 'the floor', value: floor.perSecond },
      better: 'higher',
    });

    await tracingCost({ db, infra, env, base, workspaceId, receivers, meter, report, replaceWorker: (w) => (worker = w), worker: () => worker });
  } finally {
    await db.destroy();
    await infra.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * What tracing costs the burst: the same burst once per setting with a fresh worker. Events
 * written outside any trace (as here) start their delivery's trace at the worker's ratio: its
 * workflow start, run, attempt, SQL and POST.
 */
async function tracingCost(opts: {
  db: Db;
  infra: Awaited<ReturnType<typeof startBenchStack>>['infra'];
  env: NodeJS.ProcessEnv;
  base: string;
  workspaceId: string;
  receivers: HttpsReceiver[];
  meter: () => ReturnType<typeof cpuMeter>;
  report: Report;
  worker: () => ReturnType<Awaited<ReturnType<typeof startBenchStack>>['infra']['group']['spawn']>;
  replaceWorker: (w: ReturnType<Awaited<ReturnType<typeof startBenchStack>>['infra']['group']['spawn']>) => void;
}): Promise<void> {
  const { db, infra, receivers, report } = opts;
  const settings = tracingSettings(infra.zipkin);
  if (!settings.length) return report.note(TRACING_NOT_MEASURED);
  const bursts = new Map<string, number>();
  const connection = await Connection.connect({ address: infra.temporalAddress });
  try {
    for (const [i, setting] of settings.entries()) {
      log(`\n== tracing cost: the burst again with a fresh worker, ${setting.label} ==`);
      // Each setting starts from a settled system: a worker left with open deliveries (workflow
      // tasks that timed out under the previous burst) would hand its backlog to the next one.
      const settling = Date.now();
      const open = async () =>
        (await new Client({ connection }).workflow.count(`WorkflowType = 'webhookDeliveryWorkflow' AND ExecutionStatus = 'Running'`)).count;
      await waitFor('open deliveries to finish', async () => (await open()) === 0, 600_000, 1000);
      log(`  (deliveries of the previous run all closed after ${((Date.now() - settling) / 1000).toFixed(0)} s more)`);
      const previous = opts.worker();
      const stopped = new Promise((resolve) => previous.once('exit', resolve));
      previous.kill('SIGTERM');
      await stopped;
      opts.replaceWorker(
        infra.group.spawn(`worker-${i}`, process.execPath, productionArgs('activities/worker'), {
          env: { ...opts.env, ...setting.env },
          cwd: ROOT,
          quiet: true,
        }),
      );
      await waitFor('the new worker', async () => (await fetch(`${opts.base}/health?worker=true`)).ok, 120_000, 500);
      // Its dispatcher running and its caches warm before the burst.
      await measure(db, receivers, await writeEvents(db, opts.workspaceId, 50, 25, `warm-${i}`), 'warm-up', opts.meter());
      const traced = await measure(db, receivers, await writeEvents(db, opts.workspaceId, EVENTS, null, `burst-${i}`), `burst, ${setting.label}`, opts.meter());
      bursts.set(setting.label, traced.perSecond);
    }
  } finally {
    await connection.close();
  }
  const off = bursts.get('tracing off');
  for (const [label, perSecond] of bursts)
    if (off !== undefined && label !== 'tracing off')
      report.figure({
        name: `dev stack: webhook burst, ${label}`,
        value: perSecond,
        unit: 'deliveries/s',
        anchor: { name: 'tracing off (a fresh worker of the same run)', value: off },
        better: 'higher',
      });
}

/**
 * The production-like stack (`npm run stack:prod`: Temporal on PostgreSQL with fsync on, 2 APIs
 * behind the load balancer, 2 workers), tracing off: the paced target run and the burst with both
 * workers, the burst again with one (how it scales with workers), and the floor on its server.
 */
async function prodStack(receivers: HttpsReceiver[], cert: ReturnType<typeof makeTestCert>, report: Report): Promise<void> {
  const settings = loadStackSettings();
  const serverDir = settings.passthrough.TEMPORAL_SERVER_DIR;
  if (!serverDir) return report.note('production-like stack: not measured (TEMPORAL_SERVER_DIR unset: run through `npm run bench`)');
  const dataDir = path.join(ROOT, '.data', `bench-webhooks-prod-${process.pid}`);
  productionArgs('api/server'); // builds dist/ once, as for the dev stack
  const stack = await startProdStack({
    dataDir,
    persistent: false,
    temporalServerDir: serverDir,
    temporalCli: settings.temporalCli,
    secretsKey: stackSecretsKey(dataDir),
    build: false,
    env: { WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8', NODE_EXTRA_CA_CERTS: cert.certFile, TRACING: 'off', LOG_LEVEL: 'warn' },
    log: (m) => log(`[stack:prod] ${m}`),
  });
  const db = createDb(stack.databaseUrl, 8);
  try {
    const pid = (name: string) => stack.component(name).pid();
    const meter = () =>
      cpuMeter({
        temporal: pid('temporal'),
        'worker-1': pid('worker-1'),
        'worker-2': pid('worker-2'),
        'api-1': pid('api-1'),
        'api-2': pid('api-2'),
        postgres: pid('postgres'),
      });
    const { workspaceId } = await benchEndpoints(db, `${stack.url}/v1`, receivers);
    const label = 'stack:prod, 2 workers';
    const { burst } = await deliveryRuns({ stack: label, db, workspaceId, receivers, meter, rates: [TARGET_RATE], report });
    report.target(`${label}: burst ≥ 150 deliveries/s`, `${burst.perSecond.toFixed(0)}/s`, burst.perSecond >= 150, 'the CPU per delivery above on two cores');

    log(`\n== stack:prod, 1 worker (worker-2 stopped): burst, ${EVENTS} events at once ==`);
    await stack.component('worker-2').kill();
    const one = await measure(db, receivers, await writeEvents(db, workspaceId, EVENTS, null, 'burst-prod-1'), 'burst, 1 worker', meter());
    report.figure({
      name: 'stack:prod: webhook burst with 2 workers',
      value: burst.perSecond,
      unit: 'deliveries/s',
      anchor: { name: 'the same burst with 1 worker', value: one.perSecond },
      better: 'higher',
    });

    log(`\n== anchor: Temporal's floor on the production-like server (PostgreSQL), ${EVENTS * 2} no-op workflows with one local activity each ==`);
    const floor = await temporalFloor(stack.temporalAddress, { temporal: pid('temporal'), postgres: pid('postgres') }, EVENTS * 2);
    reportAgainstFloor(report, label, burst, floor);
  } finally {
    await db.destroy();
    await stack.stop();
  }
}

async function main(): Promise<void> {
  const cert = makeTestCert();
  const receivers = await Promise.all([startHttpsReceiver(cert), startHttpsReceiver(cert)]);
  const report = anchorReport('npm run bench -- webhooks');
  try {
    if (STACKS.has('dev')) await devStack(receivers, cert, report);
    if (STACKS.has('prod')) await prodStack(receivers, cert, report);
    report.print();
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
  }
}

runBench(main);
