import { z } from 'zod';
import { toppedUpData } from '../billing/billing.schemas';
import { API_VERSION, EVENT_TYPES } from '../events/outbox';
import { monitorMatchedData } from '../monitors/monitors.schemas';
import { MAX_OFFSET, queryNumber, searchEventData } from '../searches/searches.schemas';
import { shortlistChangedData } from '../shortlist/shortlist.schemas';
import { DELIVERY_STATUSES } from './contract';

export const webhookParams = z.object({ webhookId: z.uuid().describe('Webhook endpoint id') });
export const deliveryParams = webhookParams.extend({ deliveryId: z.uuid().describe('Delivery id') });

const eventsField = z
  .array(z.string().meta({ enum: [...EVENT_TYPES, '*'] }))
  // An empty list is refused (no events would reach the endpoint): the document says so.
  .meta({ minItems: 1 })
  .describe(`Event types (${EVENT_TYPES.join(', ')}) or ["*"] for every event, including types added later`);
const urlField = z.string().describe('Public https URL; private, loopback, link-local and metadata addresses are refused');

export const createWebhookBody = z
  .strictObject({ url: urlField, events: eventsField.optional().describe('Omit or ["*"] for every event') })
  .meta({ id: 'CreateWebhook', description: 'A new webhook endpoint' });

export const updateWebhookBody = z
  .strictObject({
    url: urlField.optional(),
    events: eventsField.optional(),
    enabled: z.boolean().optional().describe('true turns a disabled endpoint back on and clears its abandon count'),
  })
  .refine((b) => Object.keys(b).length > 0, 'send at least one of url, events, enabled')
  .meta({ id: 'UpdateWebhook', description: 'Changes to a webhook endpoint: at least one of url, events, enabled', minProperties: 1 });

export const deliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().describe('only deliveries in this status'),
  limit: queryNumber(
    z.coerce
      .number<string>()
      .int()
      .optional()
      .transform((v) => Math.min(100, Math.max(1, v ?? 50))),
  ).describe('1 to 100, default 50; out-of-range values are clamped'),
  offset: queryNumber(z.coerce.number<string>().int().min(0).max(MAX_OFFSET).default(0)).describe('0 or more, default 0'),
});

// ---- responses ----

const datetime = z.iso.datetime();

export const webhook = z
  .strictObject({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable(),
    secret: z.string().describe('Only its last four characters (the whole secret is answered once, at creation)'),
    abandoned_in_a_row: z.int(),
    created_at: datetime,
    updated_at: datetime,
  })
  .meta({ id: 'Webhook' });

export const createdWebhook = webhook
  .extend({ secret: z.string().startsWith('whsec_').describe('The signing secret, answered only here') })
  .meta({ id: 'CreatedWebhook' });

export const webhookAttempt = z
  .strictObject({
    number: z.int(),
    trigger: z.enum(['scheduled', 'redeliver']),
    status_code: z.int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.int().nullable(),
    response_excerpt: z.string().nullable(),
    at: datetime,
  })
  .meta({ id: 'WebhookAttempt' });

export const webhookDelivery = z
  .strictObject({
    id: z.uuid(),
    webhook_id: z.uuid(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    status_code: z.int().nullable(),
    error: z.string().nullable(),
    attempt_count: z.int(),
    next_retry_at: datetime.nullable(),
    created_at: datetime.nullable(),
    updated_at: datetime.nullable(),
    delivered_at: datetime.nullable(),
    attempts: z.array(webhookAttempt).optional().describe('Only on single-delivery answers'),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookDeleted = z.strictObject({ id: z.uuid(), deleted: z.literal(true) }).meta({ id: 'WebhookDeleted' });

export const webhookTestData = z.strictObject({ webhook_id: z.uuid(), message: z.string() }).meta({ id: 'WebhookTestData' });

/** The signed envelope POSTed to endpoints, one per event type. */
export const eventEnvelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z
    .strictObject({
      id: z.string().describe('Event id (evt_…); the same on every redelivery'),
      type: z.literal(type),
      created_at: datetime,
      workspace_id: z.uuid(),
      api_version: z.literal(API_VERSION),
      data,
    })
    .meta({ id: `${type.replace(/(^|[._])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}Event` });

export const WEBHOOK_EVENTS = {
  'search.queued': eventEnvelope('search.queued', searchEventData),
  'search.started': eventEnvelope('search.started', searchEventData),
  'search.completed': eventEnvelope('search.completed', searchEventData),
  'search.failed': eventEnvelope('search.failed', searchEventData),
  'shortlist.changed': eventEnvelope('shortlist.changed', shortlistChangedData),
  'webhook.test': eventEnvelope('webhook.test', webhookTestData),
  'billing.topped_up': eventEnvelope('billing.topped_up', toppedUpData),
  'monitor.matched': eventEnvelope('monitor.matched', monitorMatchedData),
} satisfies Record<(typeof EVENT_TYPES)[number], z.ZodType>;
