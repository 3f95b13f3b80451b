import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { runCli } from '../../src/cli/main';
import { waitFor } from '../../tools/dev/processes';
import { newEventId, writeEvent, type EventType } from '../../src/events/outbox';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { catalog, scheduleIds, startWorkflow, taskQueueName } from '../../src/temporal/catalog';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver, type Received, type Reply, type TestCert } from '../support/https-receiver';
import { createProject, launch, softwareCriteria, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';
import { expectSignedEnvelope as expectSigned } from '../support/webhook-sink';

/**
 * Webhooks end to end: the API in this process, the worker as a child process (it must trust
 * the receiver's self-signed certificate, and NODE_EXTRA_CA_CERTS is read only at start), a real
 * HTTPS receiver on 127.0.0.1, and a retry schedule scaled down to 1,1,0,0,0,0 seconds.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const ENV = { WEBHOOK_RETRY_SCHEDULE: '1,1,0,0,0,0', WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' };

let cert: TestCert;
let receiver: HttpsReceiver;
let stack: TestStack;
let worker: ChildProcess;
/** Per receiver path: how to answer (default 200). */
const replies = new Map<string, (req: Received, nth: number) => Reply>();

function startWorker(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'activities/worker.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...ENV, TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue, NODE_EXTRA_CA_CERTS: cert.certFile, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
}
const workerReady = () => waitFor('the webhook worker', async () => (await stack.request('GET', '/v1/health?worker=true')).status === 200, 120_000, 500);

beforeAll(async () => {
  cert = makeTestCert();
  receiver = await startHttpsReceiver(cert, (req) => {
    const reply = replies.get(req.path);
    return reply ? reply(req, receiver.received.filter((r) => r.path === req.path).length) : { status: 200, body: 'ok' };
  });
  stack = await startTestStack({ worker: false, env: ENV });
  worker = startWorker();
  await workerReady();
}, 180_000);
afterAll(async () => {
  worker?.kill('SIGKILL');
  await stack?.stop();
  await receiver?.close();
});

async function endpoint(f: KeyFixture, hookPath: string, events?: string[]) {
  const res = await stack.request('POST', '/v1/webhooks', {
    headers: f.headers,
    body: { url: `${receiver.origin}${hookPath}`, ...(events ? { events } : {}) },
  });
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.text}`);
  return res.body.data as { id: string; secret: string; url: string };
}

const event = (workspaceId: string, type: EventType, data: Record<string, unknown> = {}) =>
  writeEvent(stack.db, { workspaceId, type, data, dedupeKey: `test:${randomUUID()}` }) as Promise<string>;

const deliveryOf = (endpointId: string, eventId: string) => stack.db('webhook_deliveries').where({ endpoint_id: endpointId, event_id: eventId }).first();

async function getDelivery(f: KeyFixture, endpointId: string, deliveryId: string) {
  return (await stack.request('GET', `/v1/webhooks/${endpointId}/deliveries/${deliveryId}`, { headers: f.headers })).body.data;
}

async function waitForDelivery(f: KeyFixture, endpointId: string, eventId: string, until: (d: any) => boolean, timeoutMs = 30_000) {
  let last: any;
  await waitFor(
    `delivery of ${eventId}`,
    async () => {
      const row = await deliveryOf(endpointId, eventId);
      last = row && (await getDelivery(f, endpointId, row.id));
      return !!last && until(last);
    },
    timeoutMs,
    50,
  );
  return last;
}

const expectSignedEnvelope = (req: Received, secret: string, workspaceId: string) => expectSigned(stack.db, req, secret, workspaceId);

describe('webhook delivery', () => {
  it('delivers every event type, signed and verifiable, from real searches, a shortlist change and a test', async () => {
    const busy = await workspaceWithKey(stack.db, { workspace: { max_concurrent_searches: 1 } });
    const blocked = await workspaceWithKey(stack.db, { workspace: { max_concurrent_searches: 0 } });
    const hookA = await endpoint(busy, '/all-a');
    const hookB = await endpoint(blocked, '/all-b');

    // Two launches with one slot: the second waits (search.queued), then both run and complete.
    const project = await createProject(stack, busy.headers);
    const first = (await launch(stack, busy.headers, project, { criteria: { ...softwareCriteria, shortlist_threshold: 30 } })).body.data;
    const second = (await launch(stack, busy.headers, project, { criteria: { ...softwareCriteria, read_budget: 40 } })).body.data;
    expect((await waitForSearch(stack, busy.headers, first.id)).status).toBe('complete');
    expect((await waitForSearch(stack, busy.headers, second.id)).status).toBe('complete');
    const listed = (await stack.request('GET', `/v1/projects/${project}/shortlist`, { headers: busy.headers })).body.data;
    const removed = await stack.request('DELETE', `/v1/projects/${project}/shortlist/members/${listed[0].candidate_id}`, { headers: busy.headers });
    expect(removed.body.data.removed).toBe(true);
    const test = await stack.request('POST', `/v1/webhooks/${hookA.id}/test`, { headers: busy.headers });
    expect(test.status).toBe(200);
    expect(test.body.data).toMatchObject({ status: 'delivered', event_type: 'webhook.test', attempt_count: 1, status_code: 200 });

    // No slot at all: queued, then cancelled → search.failed.
    const stuck = (await launch(stack, blocked.headers, await createProject(stack, blocked.headers), { criteria: softwareCriteria })).body.data;
    await stack.temporal.client.workflow.getHandle(workflowIds.searchPass(stuck.id, 1)).cancel();
    await waitForSearch(stack, blocked.headers, stuck.id);

    for (const [f, hook, hookPath] of [
      [busy, hookA, '/all-a'],
      [blocked, hookB, '/all-b'],
    ] as const) {
      const written: { id: string; type: string }[] = await stack.db('outbox_events').where({ workspace_id: f.workspace.id }).select('id', 'type');
      const arrived = () => new Set(receiver.received.filter((r) => r.path === hookPath).map((r) => r.json.id));
      await waitFor(`every event of ${hookPath}`, async () => written.every((e) => arrived().has(e.id)), 30_000, 50);
      const requests = receiver.received.filter((r) => r.path === hookPath);
      expect(requests).toHaveLength(written.length); // each exactly once
      for (const req of requests) await expectSignedEnvelope(req, hook.secret, f.workspace.id);
    }
    const types = new Set(receiver.received.filter((r) => r.path.startsWith('/all-')).map((r) => r.json.type));
    expect([...types].sort()).toEqual(['search.completed', 'search.failed', 'search.queued', 'search.started', 'shortlist.changed', 'webhook.test']);
    const completed = receiver.received.find((r) => r.path === '/all-a' && r.json.type === 'search.completed')!;
    expect(completed.json.data.links.search).toMatch(new RegExp(`^http.*/v1/searches/${completed.json.data.search_id}$`)); // base_url of the worker that wrote it
    const test2 = receiver.received.find((r) => r.path === '/all-a' && r.json.type === 'webhook.test')!;
    expect(test2.json.data).toEqual({ webhook_id: hookA.id, message: expect.any(String) });

    // The dispatcher is a Temporal Schedule on this task queue.
    const schedule = await stack.temporal.client.schedule.getHandle(scheduleIds.outboxSweep(stack.config.temporal.taskQueue)).describe();
    // The fan-out runs on the webhooks queue with the deliveries it starts.
    expect(schedule.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'outboxSweepWorkflow',
      taskQueue: taskQueueName(stack.config.temporal.taskQueue, 'webhooks'),
    });
  }, 120_000);

  it('sends only to enabled endpoints of the workspace subscribed to the type; a test only to the tested endpoint', async () => {
    const f = await workspaceWithKey(stack.db);
    const other = await workspaceWithKey(stack.db);
    const onlyCompleted = await endpoint(f, '/only-completed', ['search.completed']);
    const off = await endpoint(f, '/off');
    await stack.request('PATCH', `/v1/webhooks/${off.id}`, { headers: f.headers, body: { enabled: false } });
    const everything = await endpoint(f, '/everything', ['*']);
    await endpoint(other, '/other-workspace');

    const completed = await event(f.workspace.id, 'search.completed', { search_id: randomUUID() });
    const changed = await event(f.workspace.id, 'shortlist.changed', { project_id: randomUUID() });
    await receiver.waitFor('/only-completed', 1);
    await receiver.waitFor('/everything', 2);
    const test = await stack.request('POST', `/v1/webhooks/${onlyCompleted.id}/test`, { headers: f.headers });
    expect(test.body.data.status).toBe('delivered');
    await new Promise((r) => setTimeout(r, 1000)); // anything misrouted would have arrived by now

    expect(receiver.received.filter((r) => r.path === '/only-completed').map((r) => r.json.type)).toEqual(['search.completed', 'webhook.test']);
    expect(
      receiver.received
        .filter((r) => r.path === '/everything')
        .map((r) => r.json.id)
        .sort(),
    ).toEqual([completed, changed].sort());
    expect(receiver.received.filter((r) => r.path === '/off' || r.path === '/other-workspace')).toEqual([]);
    expect(await stack.db('webhook_deliveries').where({ endpoint_id: off.id })).toEqual([]);
    expect(await stack.db('webhook_deliveries').where({ endpoint_id: everything.id })).toHaveLength(2);
  }, 60_000);

  it('retries a failing endpoint on the (scaled) schedule until it recovers, showing next_retry_at while failed', async () => {
    const f = await workspaceWithKey(stack.db);
    const hook = await endpoint(f, '/flaky');
    replies.set('/flaky', (_req, nth) => (nth <= 2 ? { status: 500, body: 'not now' } : { status: 204 }));
    const eventId = await event(f.workspace.id, 'search.completed', { search_id: randomUUID() });

    const failed = await waitForDelivery(f, hook.id, eventId, (d) => d.attempt_count >= 1, 30_000);
    expect(failed).toMatchObject({ status: 'failed', status_code: 500, attempt_count: 1 });
    expect(new Date(failed.next_retry_at).getTime()).toBeGreaterThan(Date.now() - 1000);
    const done = await waitForDelivery(f, hook.id, eventId, (d) => d.status === 'delivered');
    expect(done).toMatchObject({ status: 'delivered', status_code: 204, attempt_count: 3, next_retry_at: null, event_id: eventId });
    expect(done.attempts.map((a: any) => [a.number, a.status_code, a.trigger])).toEqual([
      [1, 500, 'scheduled'],
      [2, 500, 'scheduled'],
      [3, 204, 'scheduled'],
    ]);
    expect(done.attempts[0]).toMatchObject({ error: 'endpoint answered 500', response_excerpt: 'not now', duration_ms: expect.any(Number) });

    const requests = receiver.received.filter((r) => r.path === '/flaky');
    expect(requests.map((r) => r.json.id)).toEqual([eventId, eventId, eventId]);
    for (let i = 1; i < requests.length; i++) {
      const gap = requests[i].at - requests[i - 1].at;
      expect(gap).toBeGreaterThanOrEqual(900); // the 1 s step, as a durable timer
      expect(gap).toBeLessThan(4000);
    }
  }, 60_000);

  it('abandons after the seventh failure; 20 abandoned in a row turn the endpoint off; re-enabling clears; redelivery revives', async () => {
    const f = await workspaceWithKey(stack.db);
    const hook = await endpoint(f, '/down');
    let healthy = false;
    replies.set('/down', () => (healthy ? { status: 200 } : { status: 503, body: 'down' }));
    const events = await Promise.all(Array.from({ length: 20 }, (_, i) => event(f.workspace.id, 'shortlist.changed', { n: i })));

    const get = async () => (await stack.request('GET', `/v1/webhooks/${hook.id}`, { headers: f.headers })).body.data;
    await waitFor('the endpoint to be turned off', async () => !(await get()).enabled, 60_000, 200);
    expect(await get()).toMatchObject({ enabled: false, abandoned_in_a_row: 20, disabled_reason: 'Turned off after 20 abandoned deliveries in a row' });
    const list = await stack.request('GET', `/v1/webhooks/${hook.id}/deliveries?status=abandoned&limit=100`, { headers: f.headers });
    expect(list.body.meta.total).toBe(20);
    expect(list.body.data.every((d: any) => d.attempt_count === 7 && d.next_retry_at === null && d.status_code === 503)).toBe(true);
    expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(140);

    // Off: nothing is delivered, not even a test.
    const ignored = await event(f.workspace.id, 'search.completed', {});
    await new Promise((r) => setTimeout(r, 1000));
    expect(await deliveryOf(hook.id, ignored)).toBeUndefined();
    expect((await stack.request('POST', `/v1/webhooks/${hook.id}/test`, { headers: f.headers })).status).toBe(409);

    const enabled = await stack.request('PATCH', `/v1/webhooks/${hook.id}`, { headers: f.headers, body: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ enabled: true, abandoned_in_a_row: 0, disabled_reason: null });

    // One more abandon counts 1; a delivered one resets the count.
    const again = await event(f.workspace.id, 'search.completed', {});
    await waitForDelivery(f, hook.id, again, (d) => d.status === 'abandoned');
    expect((await get()).abandoned_in_a_row).toBe(1);
    healthy = true;
    const ok = await event(f.workspace.id, 'search.completed', {});
    await waitForDelivery(f, hook.id, ok, (d) => d.status === 'delivered');
    expect((await get()).abandoned_in_a_row).toBe(0);

    // Support staff redeliver an abandoned delivery with the CLI: same event id, now delivered.
    const abandoned = await deliveryOf(hook.id, events[0]);
    const out: string[] = [];
    expect(
      await runCli(
        ['webhooks', 'redeliver', abandoned.id, '--json'],
        (l) => out.push(l),
        (l) => out.push(l),
      ),
    ).toBe(0);
    const printed = JSON.parse(out[0]);
    expect(printed).toMatchObject({
      id: abandoned.id,
      event_id: events[0],
      status: 'delivered',
      attempt_count: 8,
      mode: 'started',
      workflow_id: `webhook-delivery-${abandoned.id}-redeliver-1`,
    });
    const last = receiver.received.filter((r) => r.path === '/down' && r.json.id === events[0]);
    expect(last).toHaveLength(8);
    expect(last[7].headers['service-event-id']).toBe(events[0]);
    expect(
      await runCli(
        ['webhooks', 'redeliver', 'nope'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(2);
  }, 120_000);

  it('redelivers with the same event id: a finished delivery in a one-attempt workflow, a waiting one by signal', async () => {
    const f = await workspaceWithKey(stack.db);
    const hook = await endpoint(f, '/again');
    let status = 200;
    replies.set('/again', () => ({ status }));
    const test = (await stack.request('POST', `/v1/webhooks/${hook.id}/test`, { headers: f.headers })).body.data;
    expect(test).toMatchObject({ status: 'delivered', attempt_count: 1 });

    const redeliver = (id: string) => stack.request('POST', `/v1/webhooks/${hook.id}/deliveries/${id}/redeliver`, { headers: f.headers });
    const res = await redeliver(test.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: test.id, event_id: test.event_id, status: 'delivered', attempt_count: 2 });
    expect(res.body.data.attempts[1]).toMatchObject({ number: 2, trigger: 'redeliver', status_code: 200 });
    status = 500; // a failed manual attempt leaves the delivery as it was
    const failedAgain = (await redeliver(test.id)).body.data;
    expect(failedAgain).toMatchObject({ status: 'delivered', attempt_count: 3, status_code: 500 });
    const sent = receiver.received.filter((r) => r.path === '/again');
    expect(sent.map((r) => r.headers['service-event-id'])).toEqual([test.event_id, test.event_id, test.event_id]);
    expect(new Set(sent.map((r) => r.raw.toString())).size).toBe(1); // the same envelope bytes each time

    // A delivery waiting an hour before its next retry is attempted at once when redelivered.
    const eventId = newEventId();
    await stack
      .db('outbox_events')
      .insert({ id: eventId, workspace_id: f.workspace.id, type: 'search.completed', data: {}, dedupe_key: `t:${eventId}`, dispatched_at: stack.db.fn.now() });
    const [row] = await stack
      .db('webhook_deliveries')
      .insert({ id: randomUUID(), workspace_id: f.workspace.id, endpoint_id: hook.id, event_id: eventId })
      .returning('*');
    await startWorkflow(stack.temporal, catalog.webhookDelivery, {
      workflowId: catalog.webhookDelivery.id(row.id),
      args: [{ deliveryId: row.id, retryScheduleSeconds: [3600, 3600] }],
    });
    const waiting = await waitForDelivery(f, hook.id, eventId, (d) => d.attempt_count === 1);
    expect(waiting.status).toBe('failed');
    expect(new Date(waiting.next_retry_at).getTime()).toBeGreaterThan(Date.now() + 3500_000);
    status = 200;
    const started = Date.now();
    const signalled = (await redeliver(row.id)).body.data;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(signalled).toMatchObject({ status: 'delivered', attempt_count: 2, next_retry_at: null, event_id: eventId });
    expect(signalled.attempts[1].trigger).toBe('redeliver');
    // The attempt is recorded inside the workflow task that then completes the workflow.
    await stack.temporal.client.workflow.getHandle(catalog.webhookDelivery.id(row.id)).result();
  }, 60_000);

  it('loses no delivery when the worker is killed between attempts', async () => {
    const f = await workspaceWithKey(stack.db);
    const hook = await endpoint(f, '/kill');
    replies.set('/kill', (_req, nth) => (nth <= 1 ? { status: 500 } : { status: 200 }));
    const eventId = await event(f.workspace.id, 'search.completed', { search_id: randomUUID() });
    await waitFor('the first attempt', async () => (await deliveryOf(hook.id, eventId))?.attempt_count >= 1, 30_000, 10);
    worker.kill('SIGKILL'); // the delivery now sleeps on a durable timer with no worker alive
    await new Promise((r) => worker.once('exit', r));
    const pending = await deliveryOf(hook.id, eventId);
    expect(pending.status).toBe('failed');

    worker = startWorker();
    const done = await waitForDelivery(f, hook.id, eventId, (d) => d.status === 'delivered', 120_000);
    expect(done.attempts.map((a: any) => a.number)).toEqual(done.attempts.map((_: unknown, i: number) => i + 1));
    expect(done.attempts.at(-1).status_code).toBe(200);
    expect(receiver.received.filter((r) => r.path === '/kill').every((r) => r.json.id === eventId)).toBe(true);
    // The restarted worker's dispatcher carries on too.
    const later = await event(f.workspace.id, 'search.completed', {});
    await waitForDelivery(f, hook.id, later, (d) => d.status === 'delivered', 60_000);
  }, 180_000);
});
