import { randomUUID } from 'node:crypto';
import { webhookRepository } from '../../src/db/webhook.repository';
import type { Db } from '../../src/db/knex';
import { newEventId } from '../../src/events/outbox';
import { fanOutEvents } from '../../src/webhooks/fanout';
import { decryptSecret } from '../../src/webhooks/secrets';
import type { DeliveryWorkflowInput } from '../../src/webhooks/contract';
import { keyFor, workspaceWithKey, type KeyFixture } from '../support/fixtures';
import type { HttpsReceiver } from '../support/https-receiver';
import { startTestStack, type TestStack } from '../support/stack';
import { SINK_ENV, startWebhookSink } from '../support/webhook-sink';

/**
 * The webhook endpoints API without a worker (nothing is sent here; see webhooks.test.ts).
 * Endpoints point at a local sink, which `stack` allows (SINK_ENV); the SSRF refusals are proven
 * on `strict`, an API in the default configuration, where no private range is exempt.
 */

let stack: TestStack;
let strict: TestStack;
let sink: HttpsReceiver;
let sinkUrl: string;
beforeAll(async () => {
  sink = await startWebhookSink();
  sinkUrl = `${sink.origin}/hooks/candidates`;
  [stack, strict] = await Promise.all([startTestStack({ worker: false, env: SINK_ENV }), startTestStack({ worker: false })]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), strict?.stop()]);
  await sink?.close();
  // Nothing here delivers: the sink must have received nothing.
  expect(sink.received).toEqual([]);
});

const create = (f: KeyFixture, body: unknown, on: TestStack = stack) => on.request('POST', '/v1/webhooks', { headers: f.headers, body });

/** An event that no dispatcher will pick up (already dispatched), with a delivery row in `status`. */
async function deliveryRow(db: Db, workspaceId: string, endpointId: string, status: string, extra: Record<string, unknown> = {}) {
  const eventId = newEventId();
  await db('outbox_events').insert({
    id: eventId,
    workspace_id: workspaceId,
    type: 'search.completed',
    data: { search_id: randomUUID() },
    dedupe_key: `test:${eventId}`,
    dispatched_at: db.fn.now(),
  });
  const [row] = await db('webhook_deliveries')
    .insert({ id: randomUUID(), workspace_id: workspaceId, endpoint_id: endpointId, event_id: eventId, status, ...extra })
    .returning('*');
  return row;
}

describe('POST /v1/webhooks', () => {
  it('creates an endpoint for every event by default and shows the whsec_ secret only once', async () => {
    const f = await workspaceWithKey(stack.db);
    const res = await create(f, { url: sinkUrl });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toMatchObject({ url: sinkUrl, events: ['*'], enabled: true, disabled_reason: null, abandoned_in_a_row: 0 });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const list = await stack.request('GET', '/v1/webhooks', { headers: f.headers });
    expect(list.body.meta.total).toBe(1);
    // The listing shows only the secret's last four characters, in the spec's `secret` field.
    expect(list.body.data[0]).toEqual({ ...created, secret: created.secret.slice(-4) });
    expect(list.text).not.toContain(created.secret);
    const one = await stack.request('GET', `/v1/webhooks/${created.id}`, { headers: f.headers });
    expect(one.body.data.secret).toBe(created.secret.slice(-4));

    // At rest: AES-256-GCM under SECRETS_KEY, bound to the endpoint id.
    const row = await stack.db('webhook_endpoints').where({ id: created.id }).first();
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
    expect(decryptSecret(stack.config.secretsKey, row.secret_ciphertext, created.id)).toBe(created.secret);
  });

  it('validates events: known types or "*", unknown ones listed', async () => {
    const f = await workspaceWithKey(stack.db);
    const unknown = await create(f, { url: sinkUrl, events: ['search.completed', 'search.exploded', 'nope'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('invalid_request');
    expect(unknown.body.error.message).toContain('search.exploded, nope');
    expect(unknown.body.error.details.unknown_event_types).toEqual(['search.exploded', 'nope']);
    expect((await create(f, { url: sinkUrl, events: [] })).body.error.code).toBe('invalid_request');
    expect((await create(f, { url: sinkUrl, events: 'search.completed' })).body.error.code).toBe('invalid_request');
    expect((await create(f, { url: sinkUrl, secret: 'mine' })).body.error.code).toBe('invalid_request');
    expect((await create(f, {})).body.error.code).toBe('invalid_request');
    expect((await create(f, { url: sinkUrl, events: ['shortlist.changed', 'search.completed', 'shortlist.changed'] })).body.data.events).toEqual([
      'shortlist.changed',
      'search.completed',
    ]);
    expect((await create(f, { url: sinkUrl, events: ['*', 'search.completed'] })).body.data.events).toEqual(['*']);
  });

  it.each([
    ['http://hooks.example.com/', 'scheme_not_https'],
    ['https://user:pw@hooks.example.com/', 'credentials_in_url'],
    ['https://127.0.0.1:8443/', 'loopback_address'],
    ['https://2130706433/', 'loopback_address'],
    ['https://0x7f000001/', 'loopback_address'],
    ['https://0177.0.0.1/', 'loopback_address'],
    ['https://localhost/', 'loopback_host'],
    ['https://10.1.2.3/', 'private_address'],
    ['https://172.20.0.1/', 'private_address'],
    ['https://192.168.0.10/', 'private_address'],
    ['https://100.64.12.1/', 'cgnat_address'],
    ['https://169.254.169.254/latest/meta-data/', 'link_local_address'],
    ['https://0.0.0.0/', 'unspecified_address'],
    ['https://224.0.0.251/', 'multicast_address'],
    ['https://255.255.255.255/', 'broadcast_address'],
    ['https://[::1]/', 'loopback_address'],
    ['https://[::]/', 'unspecified_address'],
    ['https://[fd00::1]/', 'unique_local_address'],
    ['https://[fe80::1]/', 'link_local_address'],
    ['https://[::ffff:127.0.0.1]/', 'loopback_address'],
    ['https://[::ffff:169.254.169.254]/', 'link_local_address'],
    ['https://[64:ff9b::10.0.0.1]/', 'private_address'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'metadata_host'],
    ['https://metadata/', 'metadata_host'],
    ['https://instance-data/', 'metadata_host'],
    ['https://no-such-host.invalid/', 'unresolvable_host'],
    ['nonsense', 'malformed_url'],
  ])('refuses %s with 400 invalid_webhook_url (%s)', async (url, reason) => {
    const f = await workspaceWithKey(strict.db);
    const res = await create(f, { url }, strict);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_webhook_url');
    expect(res.body.error.details).toMatchObject({ field: 'url', reason });
    expect(await stack.db('webhook_endpoints').where({ workspace_id: f.workspace.id })).toHaveLength(0);
  });

  it('allows 10 endpoints per workspace, exactly, even under concurrent creation', async () => {
    const f = await workspaceWithKey(stack.db);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => create(f, { url: `${sinkUrl}/${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(2);
    expect(refused[0].body.error).toMatchObject({ code: 'webhook_limit_reached', details: { limit: 10 } });
    expect((await stack.request('GET', '/v1/webhooks', { headers: f.headers })).body.meta.total).toBe(10);
    // Another workspace is not affected.
    expect((await create(await workspaceWithKey(stack.db), { url: sinkUrl })).status).toBe(201);
  });
});

describe('PATCH and DELETE /v1/webhooks/{webhookId}', () => {
  it('changes url (checked again), events and enabled; enabling clears the abandon count and reason', async () => {
    const f = await workspaceWithKey(stack.db);
    const { id } = (await create(f, { url: sinkUrl })).body.data;
    const patch = (body: unknown) => stack.request('PATCH', `/v1/webhooks/${id}`, { headers: f.headers, body });

    expect((await patch({ url: 'https://169.254.169.254/' })).body.error).toMatchObject({
      code: 'invalid_webhook_url',
      details: { reason: 'link_local_address' },
    });
    // Loopback is allowed here only because this stack exempts it for the sink; the strict API refuses it.
    const strictPatch = await strict.request('PATCH', `/v1/webhooks/${id}`, { headers: f.headers, body: { url: `${sink.origin}/v2` } });
    expect(strictPatch.body.error).toMatchObject({ code: 'invalid_webhook_url', details: { reason: 'loopback_address' } });
    expect((await patch({ events: ['search.failed', 'bogus'] })).body.error.details.unknown_event_types).toEqual(['bogus']);
    expect((await patch({})).body.error.code).toBe('invalid_request');
    expect((await patch({ enabled: 'yes' })).body.error.code).toBe('invalid_request');
    const changed = await patch({ url: `${sink.origin}/v2`, events: ['search.failed'] });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ url: `${sink.origin}/v2`, events: ['search.failed'], enabled: true });

    // As the service leaves it after 20 abandoned deliveries in a row:
    await stack
      .db('webhook_endpoints')
      .where({ id })
      .update({ enabled: false, consecutive_abandons: 20, disabled_reason: 'Turned off after 20 abandoned deliveries in a row' });
    const disabled = (await stack.request('GET', `/v1/webhooks/${id}`, { headers: f.headers })).body.data;
    expect(disabled).toMatchObject({ enabled: false, abandoned_in_a_row: 20, disabled_reason: expect.stringContaining('20') });
    const enabled = await patch({ enabled: true });
    expect(enabled.body.data).toMatchObject({ enabled: true, abandoned_in_a_row: 0, disabled_reason: null });

    // Turned off by the user: no reason from the service.
    expect((await patch({ enabled: false })).body.data).toMatchObject({ enabled: false, disabled_reason: null });
    const test = await stack.request('POST', `/v1/webhooks/${id}/test`, { headers: f.headers });
    expect(test.status).toBe(409);
    expect(test.body.error.code).toBe('webhook_disabled');
  });

  it('deletes an endpoint with its deliveries; unknown, foreign and malformed ids are webhook_not_found', async () => {
    const f = await workspaceWithKey(stack.db);
    const { id } = (await create(f, { url: sinkUrl })).body.data;
    const delivery = await deliveryRow(stack.db, f.workspace.id, id, 'delivered');
    const other = await workspaceWithKey(stack.db);
    for (const path of [`/v1/webhooks/${id}`, `/v1/webhooks/${id}/deliveries`]) {
      expect((await stack.request('GET', path, { headers: other.headers })).body.error.code).toBe('webhook_not_found');
    }
    const del = await stack.request('DELETE', `/v1/webhooks/${id}`, { headers: f.headers });
    expect(del.body.data).toEqual({ id, deleted: true });
    expect((await stack.request('GET', `/v1/webhooks/${id}`, { headers: f.headers })).status).toBe(404);
    expect((await stack.request('DELETE', `/v1/webhooks/${id}`, { headers: f.headers })).body.error.code).toBe('webhook_not_found');
    expect((await stack.request('GET', '/v1/webhooks/not-a-uuid', { headers: f.headers })).body.error.code).toBe('webhook_not_found');
    expect(await stack.db('webhook_deliveries').where({ id: delivery.id })).toHaveLength(0);
  });
});

describe('deliveries', () => {
  it('lists newest first with a validated status filter and meta.total; one delivery shows every attempt', async () => {
    const f = await workspaceWithKey(stack.db);
    const { id } = (await create(f, { url: sinkUrl })).body.data;
    const delivered = await deliveryRow(stack.db, f.workspace.id, id, 'delivered', {
      attempt_count: 2,
      last_status_code: 200,
      created_at: new Date(Date.now() - 3000),
    });
    const failed = await deliveryRow(stack.db, f.workspace.id, id, 'failed', {
      attempt_count: 1,
      last_status_code: 500,
      next_retry_at: new Date(Date.now() + 30_000),
      created_at: new Date(Date.now() - 2000),
    });
    const abandoned = await deliveryRow(stack.db, f.workspace.id, id, 'abandoned', {
      attempt_count: 7,
      last_status_code: 503,
      next_retry_at: new Date(),
      created_at: new Date(Date.now() - 1000),
    });
    await stack.db('webhook_delivery_attempts').insert([
      {
        id: randomUUID(),
        delivery_id: delivered.id,
        number: 2,
        attempt_key: `k-${randomUUID()}`,
        trigger: 'scheduled',
        status_code: 200,
        duration_ms: 12,
        response_excerpt: 'ok',
      },
      {
        id: randomUUID(),
        delivery_id: delivered.id,
        number: 1,
        attempt_key: `k-${randomUUID()}`,
        trigger: 'scheduled',
        status_code: 500,
        error: 'endpoint answered 500',
        duration_ms: 30,
        response_excerpt: 'down',
      },
    ]);
    const list = (q = '') => stack.request('GET', `/v1/webhooks/${id}/deliveries${q}`, { headers: f.headers });

    const all = await list();
    expect(all.body.meta.total).toBe(3);
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([abandoned.id, failed.id, delivered.id]);
    expect(all.body.data[1]).toMatchObject({
      status: 'failed',
      status_code: 500,
      attempt_count: 1,
      webhook_id: id,
      event_type: 'search.completed',
      next_retry_at: expect.any(String),
    });
    expect(all.body.data[0].next_retry_at).toBeNull(); // shown only while failed
    expect(all.body.data[0].attempts).toBeUndefined();
    const onlyFailed = await list('?status=failed');
    expect(onlyFailed.body.meta.total).toBe(1);
    expect(onlyFailed.body.data[0].id).toBe(failed.id);
    expect((await list('?limit=1&offset=1')).body.data.map((d: { id: string }) => d.id)).toEqual([failed.id]);
    const bad = await list('?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');

    const one = await stack.request('GET', `/v1/webhooks/${id}/deliveries/${delivered.id}`, { headers: f.headers });
    expect(one.body.data).toMatchObject({ id: delivered.id, event_id: delivered.event_id, status: 'delivered', status_code: 200 });
    expect(one.body.data.attempts).toEqual([
      { number: 1, trigger: 'scheduled', status_code: 500, error: 'endpoint answered 500', duration_ms: 30, response_excerpt: 'down', at: expect.any(String) },
      { number: 2, trigger: 'scheduled', status_code: 200, error: null, duration_ms: 12, response_excerpt: 'ok', at: expect.any(String) },
    ]);
  });

  it('answers delivery_not_found for a delivery of another endpoint or a malformed id', async () => {
    const f = await workspaceWithKey(stack.db);
    const a = (await create(f, { url: sinkUrl })).body.data.id;
    const b = (await create(f, { url: sinkUrl })).body.data.id;
    const ofA = await deliveryRow(stack.db, f.workspace.id, a, 'delivered');
    for (const path of [`/v1/webhooks/${b}/deliveries/${ofA.id}`, `/v1/webhooks/${a}/deliveries/nope`]) {
      const res = await stack.request('GET', path, { headers: f.headers });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('delivery_not_found');
    }
    const redeliver = await stack.request('POST', `/v1/webhooks/${b}/deliveries/${ofA.id}/redeliver`, { headers: f.headers });
    expect(redeliver.body.error.code).toBe('delivery_not_found');
    await stack.request('PATCH', `/v1/webhooks/${a}`, { headers: f.headers, body: { enabled: false } });
    const off = await stack.request('POST', `/v1/webhooks/${a}/deliveries/${ofA.id}/redeliver`, { headers: f.headers });
    expect({ status: off.status, code: off.body.error.code }).toEqual({ status: 409, code: 'webhook_disabled' });
  });

  it('needs webhooks:read to read and webhooks:write to change', async () => {
    const f = await workspaceWithKey(stack.db);
    const reader = await keyFor(stack.db, f.workspace, { scopes: ['webhooks:read'] });
    expect((await stack.request('GET', '/v1/webhooks', { headers: reader.headers })).status).toBe(200);
    const res = await stack.request('POST', '/v1/webhooks', { headers: reader.headers, body: { url: sinkUrl } });
    expect(res.body.error).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'webhooks:write' } });
  });
});

describe('fan-out', () => {
  // Inside a transaction that is rolled back: a dispatcher of another test file never sees these rows.
  it('makes one delivery per (event, subscribed enabled endpoint), starts each once and marks the event dispatched', async () => {
    const rollback = new Error('rollback');
    await stack.db
      .transaction(async (trx) => {
        const f = await workspaceWithKey(trx);
        const other = await workspaceWithKey(trx);
        const repo = webhookRepository(trx);
        const endpoint = async (workspaceId: string, events: string[], enabled = true) => {
          const row = (await repo.createWithinLimit(
            { id: randomUUID(), workspace_id: workspaceId, url: sinkUrl, events, secret_ciphertext: 'v1.x.x.x', secret_last4: 'abcd' },
            10,
          ))!;
          if (!enabled) await repo.update(row.id, { enabled: false });
          return row.id;
        };
        const all = await endpoint(f.workspace.id, ['*']);
        const completedOnly = await endpoint(f.workspace.id, ['search.completed']);
        const disabled = await endpoint(f.workspace.id, ['*'], false);
        const foreign = await endpoint(other.workspace.id, ['*']);
        const event = async (type: string, data: Record<string, unknown> = {}) => {
          const id = newEventId();
          await trx('outbox_events').insert({ id, workspace_id: f.workspace.id, type, data, dedupe_key: `t:${id}` });
          return id;
        };
        const completed = await event('search.completed');
        const changed = await event('shortlist.changed');
        const test = await event('webhook.test', { webhook_id: completedOnly, message: 'hi' });

        const started: { id: string; input: DeliveryWorkflowInput }[] = [];
        const start = async (d: { id: string }, input: DeliveryWorkflowInput) => {
          started.push({ id: d.id, input });
        };
        const ids = [completed, changed, test];
        expect(await fanOutEvents(trx, start, { retryScheduleSeconds: [5, 10], eventIds: ids })).toBe(3);

        const rows = await trx('webhook_deliveries').whereIn('event_id', ids).select('id', 'event_id', 'endpoint_id', 'status');
        const pairs = rows.map((r) => `${r.event_id}→${r.endpoint_id}`).sort();
        expect(pairs).toEqual([`${completed}→${all}`, `${completed}→${completedOnly}`, `${changed}→${all}`, `${test}→${completedOnly}`].sort());
        expect(rows.every((r) => r.status === 'pending')).toBe(true);
        expect(rows.map((r) => r.endpoint_id)).not.toContain(disabled);
        expect(rows.map((r) => r.endpoint_id)).not.toContain(foreign);
        expect(started.map((s) => s.id).sort()).toEqual(rows.map((r) => r.id).sort());
        const testDelivery = rows.find((r) => r.event_id === test)!;
        expect(started.find((s) => s.id === testDelivery.id)!.input.retryScheduleSeconds).toEqual([]); // sent once
        expect(started.find((s) => s.id !== testDelivery.id)!.input.retryScheduleSeconds).toEqual([5, 10]);
        expect(await trx('outbox_events').whereIn('id', ids).whereNull('dispatched_at')).toHaveLength(0);

        // Dispatched events are not fanned out again…
        expect(await fanOutEvents(trx, start, { retryScheduleSeconds: [5], eventIds: ids })).toBe(0);
        // …and a repeat after a crash before dispatched_at makes no new rows; starts repeat with the same ids (no-ops in Temporal).
        await trx('outbox_events').whereIn('id', ids).update({ dispatched_at: null });
        started.length = 0;
        expect(await fanOutEvents(trx, start, { retryScheduleSeconds: [5], eventIds: ids })).toBe(3);
        expect(await trx('webhook_deliveries').whereIn('event_id', ids)).toHaveLength(4);
        expect(started.map((s) => s.id).sort()).toEqual(rows.map((r) => r.id).sort());

        // An endpoint created after an event does not receive it.
        const late = await event('search.failed');
        await trx('outbox_events')
          .where({ id: late })
          .update({ created_at: new Date(Date.now() - 60_000) });
        await fanOutEvents(trx, start, { retryScheduleSeconds: [5], eventIds: [late] });
        const lateDeliveries = await trx('webhook_deliveries').where({ event_id: late });
        expect(lateDeliveries.map((d) => d.endpoint_id)).toEqual([]);
        throw rollback;
      })
      .catch((err) => {
        if (err !== rollback) throw err;
      });
  });
});
