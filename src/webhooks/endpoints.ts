import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import { webhookRepository, type WebhookDeliveryRow, type WebhookEndpointRow } from '../db/webhook.repository';
import { AppError, notFound } from '../domain/errors';
import { isUuid } from '../domain/ids';
import { EVENT_TYPES, writeEvent } from '../events/outbox';
import type { Temporal } from '../temporal/client';
import { fanOutEvents } from './fanout';
import { encryptSecret, newWebhookSecret, secretLast4 } from './secrets';
import { resolveWebhookTarget, UnsafeUrlError, type Resolver } from './ssrf';
import { deliveryStarter, signalOrStartRedelivery } from './temporal';

/** Webhook endpoints and deliveries as the key API and the operator CLI see them. */

export const MAX_ENDPOINTS_PER_WORKSPACE = 10;
/** How long test_webhook and redeliver wait for their attempt (10 s answer time + margin). */
export const ATTEMPT_WAIT_MS = 12_000;
export const ALL_EVENTS = '*';

/** `*` (alone) for every type including later ones, else known types, each once. */
export function normaliseEvents(events: string[] | undefined): string[] {
  if (events === undefined) return [ALL_EVENTS];
  if (events.length === 0)
    throw new AppError('invalid_request', 400, 'events must list at least one event type, or be ["*"] (or omitted) for all', { field: 'events' });
  const unknown = [...new Set(events.filter((e) => e !== ALL_EVENTS && !(EVENT_TYPES as readonly string[]).includes(e)))];
  if (unknown.length) {
    throw new AppError('invalid_request', 400, `Unknown event type(s): ${unknown.join(', ')}`, {
      unknown_event_types: unknown,
      allowed: [ALL_EVENTS, ...EVENT_TYPES],
    });
  }
  return events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)];
}

/** The SSRF checks of creation (literal addresses and resolved names); 400 invalid_webhook_url. */
export async function checkedUrl(raw: unknown, config: Config, resolver?: Resolver): Promise<string> {
  try {
    const { url } = await resolveWebhookTarget(raw, { allowedCidrs: config.webhookAllowedPrivateCidrs, resolver });
    return url.href;
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw new AppError('invalid_webhook_url', 400, err.message, { field: 'url', reason: err.reason, ...err.details });
    throw err;
  }
}

export async function createEndpoint(db: Db, config: Config, workspaceId: string, input: { url: unknown; events?: string[] }) {
  const events = normaliseEvents(input.events);
  const url = await checkedUrl(input.url, config);
  const id = randomUUID();
  const secret = newWebhookSecret();
  const endpoint = await webhookRepository(db).createWithinLimit(
    { id, workspace_id: workspaceId, url, events, secret_ciphertext: encryptSecret(config.secretsKey, secret, id), secret_last4: secretLast4(secret) },
    MAX_ENDPOINTS_PER_WORKSPACE,
  );
  if (!endpoint) {
    throw new AppError('webhook_limit_reached', 409, `A workspace can have at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one first`, {
      limit: MAX_ENDPOINTS_PER_WORKSPACE,
    });
  }
  return { endpoint, secret };
}

export async function updateEndpoint(db: Db, config: Config, endpoint: WebhookEndpointRow, input: { url?: string; events?: string[]; enabled?: boolean }) {
  const updated = await webhookRepository(db).update(endpoint.id, {
    ...(input.url !== undefined ? { url: await checkedUrl(input.url, config) } : {}),
    ...(input.events !== undefined ? { events: normaliseEvents(input.events) } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
  });
  // Deleted since it was looked up (a DELETE at the same time): gone, not a 500.
  if (!updated) throw notFound('webhook_not_found', 'Webhook endpoint');
  return updated;
}

/** The endpoint of the caller's workspace, or 404 webhook_not_found (also for malformed ids). */
export async function findEndpointOr404(db: Db, workspaceId: string, id: string): Promise<WebhookEndpointRow> {
  const endpoint = isUuid(id) ? await webhookRepository(db).findInWorkspace(workspaceId, id) : undefined;
  if (!endpoint) throw notFound('webhook_not_found', 'Webhook endpoint');
  return endpoint;
}

export async function findDeliveryOr404(db: Db, endpointId: string, id: string): Promise<WebhookDeliveryRow> {
  const delivery = isUuid(id) ? await webhookRepository(db).findDeliveryOfEndpoint(endpointId, id) : undefined;
  if (!delivery) throw notFound('delivery_not_found', 'Webhook delivery');
  return delivery;
}

const endpointOff = () => new AppError('webhook_disabled', 409, 'The endpoint is turned off; enable it with update_webhook first');
const temporalDown = () =>
  new AppError('service_unavailable', 503, 'Could not reach the workflow service; retry shortly', { retry_after_seconds: 5 }, { 'Retry-After': '5' });

/** Polls until the delivery exists with at least `attempts` attempts, or the wait is over. */
async function waitForAttempts(
  find: () => Promise<WebhookDeliveryRow | undefined>,
  attempts: number,
  timeoutMs: number,
): Promise<WebhookDeliveryRow | undefined> {
  const deadline = Date.now() + timeoutMs;
  let delivery = await find();
  while ((!delivery || delivery.attempt_count < attempts) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    delivery = await find();
  }
  return delivery;
}

/**
 * test_webhook: a `webhook.test` event for this endpoint only, sent once and never retried.
 * Fanned out here (the same idempotent fan-out the dispatcher runs), then waits for the attempt.
 */
export async function sendTestEvent(db: Db, temporal: Temporal, endpoint: WebhookEndpointRow, waitMs = ATTEMPT_WAIT_MS): Promise<WebhookDeliveryRow> {
  if (!endpoint.enabled) throw endpointOff();
  const eventId = (await writeEvent(db, {
    workspaceId: endpoint.workspace_id,
    type: 'webhook.test',
    data: { webhook_id: endpoint.id, message: 'A test event sent with test_webhook. It is sent once and never retried.' },
    dedupeKey: `webhook.test:${randomUUID()}`,
  }))!;
  try {
    await fanOutEvents(db, deliveryStarter(temporal), { retryScheduleSeconds: [], eventIds: [eventId] });
  } catch {
    throw temporalDown(); // the event stays in the outbox; the dispatcher sends it when it can
  }
  const repo = webhookRepository(db);
  const delivery = await waitForAttempts(() => repo.findDeliveryByEvent(eventId, endpoint.id), 1, waitMs);
  if (!delivery) throw temporalDown();
  return delivery;
}

/**
 * redeliver_webhook and `webhooks redeliver`: an immediate attempt with the same event id, also
 * for an abandoned delivery. Waits for the attempt, then answers the delivery.
 */
export async function redeliver(db: Db, temporal: Pick<Temporal, 'client' | 'taskQueue'>, delivery: WebhookDeliveryRow, waitMs = ATTEMPT_WAIT_MS) {
  const repo = webhookRepository(db);
  const endpoint = await repo.find(delivery.endpoint_id);
  if (!endpoint?.enabled) throw endpointOff();
  let how;
  try {
    how = await signalOrStartRedelivery(temporal, delivery, () => repo.nextRedelivery(delivery.id));
  } catch {
    throw temporalDown();
  }
  const after = await waitForAttempts(() => repo.findDeliveryOfEndpoint(delivery.endpoint_id, delivery.id), delivery.attempt_count + 1, waitMs);
  return { ...how, delivery: after ?? delivery };
}
