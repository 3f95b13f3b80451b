import { inlineBriefReader } from '../../src/briefs/brief-reader';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { testProvider } from '../../src/billing/payments/test-provider';
import { createTopUp } from '../../src/billing/top-up.service';
import { waitFor } from '../../tools/dev/processes';
import { createLogger } from '../../src/logger';
import { writeEvent } from '../../src/events/outbox';
import { launchSearch } from '../../src/searches/launch.service';
import { searchAttributes } from '../../src/searches/start.service';
import { catalog, scheduleIds, startWorkflow } from '../../src/temporal/catalog';
import type { calibrationWorkflow } from '../../workflows/calibration.workflow';
import { payCheckout, tokenOf } from '../support/billing';
import { workspaceWithKey } from '../support/fixtures';
import { historyToJson } from '../support/histories';
import { createProject, launch, softwareCriteria, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * Records one history per workflow scenario into test/histories/<type>-<scenario>.json, which
 * test/unit/workflow-replay.test.ts replays against the current workflow code. Run with
 * `npm run record-histories` (the test bootstrap, then only this file), after a deliberate,
 * versioned change to a workflow (README, "Changing a workflow"); review and commit the files.
 */

const DIR = __dirname;
// Retries one second apart, so a retried delivery is recorded in seconds.
const ENV = { WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' };
const criteria = { ...softwareCriteria, read_budget: 30 };

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ env: ENV });
});
afterAll(async () => {
  // Creating the webhook made this stack's outbox sweep Schedule.
  await stack.temporal.client.schedule.getHandle(scheduleIds.outboxSweep(stack.config.temporal.taskQueue)).delete().catch(() => undefined);
  await stack.stop();
});

async function save(name: string, workflowId: string, runId?: string): Promise<void> {
  const handle = stack.temporal.client.workflow.getHandle(workflowId, runId);
  await handle.result().catch(() => undefined); // finished, whichever way
  const history = await handle.fetchHistory();
  fs.writeFileSync(path.join(DIR, `${name}.json`), `${JSON.stringify(historyToJson(history), null, 2)}\n`);
}

async function completedSearch(f: Awaited<ReturnType<typeof workspaceWithKey>>) {
  const project = await createProject(stack, f.headers);
  const search = await waitForSearch(stack, f.headers, (await launch(stack, f.headers, project, { criteria })).body.data.id);
  return { project, search };
}

/** A port nobody listens on: every delivery attempt is refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('record workflow histories', () => {
  it('search: a normal pass', async () => {
    const f = await workspaceWithKey(stack.db);
    const { search } = await completedSearch(f);
    await save('search-normal', catalog.search.id(search.id, 1));
  });

  it('search: a pass that waited for a slot (woken by a signal) and one that continued as new', async () => {
    const f = await workspaceWithKey(stack.db, { workspace: { max_concurrent_searches: 1 } });
    const project = await createProject(stack, f.headers);
    const first = (await launch(stack, f.headers, project, { criteria })).body.data.id;
    const second = (await launch(stack, f.headers, project, { criteria })).body.data.id;
    await waitForSearch(stack, f.headers, second);
    await waitForSearch(stack, f.headers, first);
    await save('search-waited-for-slot', catalog.search.id(second, 1));

    // A tiny wait bound: the first run ends in continue-as-new, the second completes. Booked as
    // the API books it, started here with the bound.
    await stack.db('workspaces').where({ id: f.workspace.id }).update({ max_concurrent_searches: 0 });
    const { search } = await launchSearch(stack.db, { workspace: f.workspace, key: f.key, projectId: project, idempotencyKey: `record-${randomUUID()}`, body: { criteria }, baseUrl: stack.config.publicBaseUrl, config: stack.config, reader: inlineBriefReader });
    const id = catalog.search.id(search.id, 1);
    const handle = await startWorkflow(stack.temporal, catalog.search, { workflowId: id, args: [{ searchId: search.id, pass: 1, waitRoundsPerRun: 2 }], typedSearchAttributes: searchAttributes(search) });
    const firstRun = handle.firstExecutionRunId;
    const latest = stack.temporal.client.workflow.getHandle(id);
    const signal = () => latest.signal('slotFreed').catch(() => undefined);
    await waitFor('continue-as-new', async () => (await signal(), (await latest.describe()).runId !== firstRun), 20_000, 300);
    await stack.db('workspaces').where({ id: f.workspace.id }).update({ max_concurrent_searches: 1 });
    await signal();
    await latest.result();
    await save('search-continued-as-new', id, firstRun);
  });

  it('expansion (parent and its search pass)', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 5 });
    const { project, search } = await completedSearch(f);
    const res = await stack.request('POST', `/v1/projects/${project}/expand`, { headers: f.headers });
    if (res.status !== 202) throw new Error(res.text);
    await save('expansion-normal', res.body.data.workflow_id);
    await save('search-expansion-pass', catalog.search.id(search.id, res.body.data.pass));
  });

  it('database pass and rescore', async () => {
    const f = await workspaceWithKey(stack.db);
    const { search } = await completedSearch(f);
    const pass = await stack.request('POST', `/v1/searches/${search.id}/database-pass`, { headers: f.headers });
    if (pass.status !== 202) throw new Error(pass.text);
    await save('database-pass-normal', pass.body.data.workflow_id);
    await waitForSearch(stack, f.headers, search.id);
    const applied = await stack.request('POST', `/v1/searches/${search.id}/scoring/apply`, { headers: f.headers, body: { weights: { skills: 60, title: 10 } } });
    if (applied.status !== 200) throw new Error(applied.text);
    await save('rescore-normal', applied.body.data.workflow_id);
  });

  it('webhook delivery that retried (and was abandoned), and an outbox sweep that fanned it out', async () => {
    const f = await workspaceWithKey(stack.db);
    const port = await closedPort();
    const hook = await stack.request('POST', '/v1/webhooks', { headers: f.headers, body: { url: `https://127.0.0.1:${port}/hook`, events: ['search.completed'] } });
    if (hook.status !== 201) throw new Error(hook.text);
    // A short dispatcher run of our own, recorded as it fans the event out.
    const sweepId = `outbox-sweep-record-${randomUUID()}`;
    const sweep = await startWorkflow(stack.temporal, catalog.outboxSweep, { workflowId: sweepId, args: [{ runSeconds: 3 }] });
    await writeEvent(stack.db, { workspaceId: f.workspace.id, type: 'search.completed', data: { recorded: true }, dedupeKey: `record:${randomUUID()}` });
    await sweep.result();
    await save('outbox-sweep-normal', sweepId);
    const delivery = await stack.db('webhook_deliveries').where({ endpoint_id: hook.body.data.id }).first();
    await save('webhook-delivery-retried', catalog.webhookDelivery.id(delivery.id));
  });

  it('stranded-pass sweep and health probe', async () => {
    const sweep = await startWorkflow(stack.temporal, catalog.strandedPassSweep, { workflowId: `stranded-pass-sweep-record-${randomUUID()}`, args: [] });
    await save('stranded-pass-sweep-normal', sweep.workflowId);
    const probe = await stack.request('GET', '/v1/health?worker=true');
    if (probe.status !== 200) throw new Error(probe.text);
    const [row] = await stack.db('health_probes').orderBy('requested_at', 'desc').limit(1).select('id');
    await save('health-probe-normal', catalog.healthProbe.id(row.id));
  });

  it('monitor run: one that found people (with its search pass), and one of a paused monitor', async () => {
    const f = await workspaceWithKey(stack.db);
    const { project, search } = await completedSearch(f);
    const res = await stack.request('POST', `/v1/projects/${project}/monitors`, { headers: f.headers, body: { search_id: search.id, every: 'week' } });
    if (res.status !== 201) throw new Error(res.text);
    const monitorId = res.body.data.id;
    const row = await stack.db('searches').where({ id: search.id }).first();
    // Started here rather than waiting a week for the Schedule, as the Schedule starts it.
    const run = (name: string) =>
      startWorkflow(stack.temporal, catalog.monitorRun, {
        workflowId: `${scheduleIds.monitor(monitorId)}-${name}`,
        args: [{ monitorId }],
        typedSearchAttributes: searchAttributes(row),
      });
    const matched = await run('matched');
    const outcome = await matched.result();
    if (outcome.status !== 'matched') throw new Error(JSON.stringify(outcome));
    await save('monitor-run-matched', matched.workflowId);
    await save('search-monitor-pass', catalog.search.id(search.id, outcome.pass!));
    await stack.request('PATCH', `/v1/monitors/${monitorId}`, { headers: f.headers, body: { status: 'paused' } });
    await save('monitor-run-paused', (await run('paused')).workflowId);
    await stack.request('DELETE', `/v1/monitors/${monitorId}`, { headers: f.headers });
  });

  it('calibration: ratings in two calls (the second restarts the quiet period), a calibration and the pass it read on with', async () => {
    const f = await workspaceWithKey(stack.db);
    const { search } = await completedSearch(f);
    const people: { id: string }[] = (await stack.request('GET', `/v1/searches/${search.id}/people?limit=6&profile=false`, { headers: f.headers })).body.data.people;
    const rate = async (some: { id: string }[], verdict: 'good' | 'bad') => {
      const res = await stack.request('POST', `/v1/searches/${search.id}/feedback`, { headers: f.headers, body: { ratings: some.map((p) => ({ candidate_id: p.id, verdict })) } });
      if (res.status !== 200) throw new Error(res.text);
    };
    await rate(people.slice(0, 3), 'good');
    await rate(people.slice(3), 'bad');
    const id = catalog.calibration.id(search.id);
    const outcome = await stack.temporal.client.workflow.getHandle<typeof calibrationWorkflow>(id).result();
    if (outcome.state !== 'calibrated' || outcome.pass === null) throw new Error(JSON.stringify(outcome));
    await save('calibration-normal', id);
    await save('search-calibration-pass', catalog.search.id(search.id, outcome.pass));
  });

  it('calibration that waited while a pass of the search ran', async () => {
    const f = await workspaceWithKey(stack.db);
    const { search } = await completedSearch(f);
    // A database pass that cannot get a slot yet: the search is queued when the ratings settle.
    await stack.db('workspaces').where({ id: f.workspace.id }).update({ max_concurrent_searches: 0 });
    const pass = await stack.request('POST', `/v1/searches/${search.id}/database-pass`, { headers: f.headers });
    if (pass.status !== 202) throw new Error(pass.text);
    const [person] = (await stack.request('GET', `/v1/searches/${search.id}/people?limit=1&profile=false`, { headers: f.headers })).body.data.people;
    const rated = await stack.request('POST', `/v1/searches/${search.id}/feedback`, { headers: f.headers, body: { ratings: [{ candidate_id: person.id, verdict: 'good' }] } });
    if (rated.status !== 200) throw new Error(rated.text);
    const id = catalog.calibration.id(search.id);
    const calibrations = async () => (await stack.temporal.client.workflow.getHandle(id).fetchHistory()).events!.filter((e) => e.activityTaskCompletedEventAttributes).length;
    await waitFor('a calibration attempt that found the search busy', async () => (await calibrations()) >= 1, 30_000, 200);
    await stack.db('workspaces').where({ id: f.workspace.id }).update({ max_concurrent_searches: 3 });
    await stack.temporal.client.workflow.getHandle(pass.body.data.workflow_id).signal('slotFreed');
    await save('calibration-waited', id);
  });

  it('top-up: paid after a stray signal, and one that expired', async () => {
    const f = await workspaceWithKey(stack.db);
    const res = await stack.request('POST', '/v1/billing/top-up', { headers: f.headers, body: { amount_usd: 20 } });
    if (res.status !== 201) throw new Error(res.text);
    const paidId = catalog.topUp.id(res.body.data.id);
    // A signal without a recorded payment: the workflow checks, grants nothing and waits on.
    await stack.temporal.client.workflow.getHandle(paidId).signal('paid');
    await waitFor('stray signal handled', async () => (await stack.temporal.client.workflow.getHandle(paidId).fetchHistory()).events!.some((e) => e.activityTaskCompletedEventAttributes), 20_000, 200);
    const paid = await payCheckout(stack, tokenOf(res.body.data.url));
    if (paid.status !== 200) throw new Error(await paid.text());
    await save('topup-paid', paidId);

    const deps = { db: stack.db, temporal: stack.temporal, provider: testProvider(stack.config), expirySeconds: 1, logger: createLogger('silent', 'record') };
    const expired = await createTopUp(deps, { workspace: f.workspace, key: f.key, amountUsd: 20, requestId: `record-${randomUUID()}` });
    await save('topup-expired', expired.workflow_id);
  });
});
