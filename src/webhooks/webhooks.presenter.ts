import type { z } from 'zod';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../db/webhook.repository';
import type { webhook, webhookAttempt, webhookDelivery } from './webhooks.schemas';

/** Webhook endpoints and deliveries as the key API and the operator CLI show them. */

/** The listing shows the secret as its last four characters only (spec: `secret`). */
export const webhookResource = (e: WebhookEndpointRow): z.input<typeof webhook> => ({
  id: e.id,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  disabled_reason: e.disabled_reason,
  secret: e.secret_last4,
  abandoned_in_a_row: e.consecutive_abandons,
  created_at: e.created_at.toISOString(),
  updated_at: e.updated_at.toISOString(),
});

export const attemptResource = (a: WebhookAttemptRow): z.input<typeof webhookAttempt> => ({
  number: a.number,
  trigger: a.trigger,
  status_code: a.status_code,
  error: a.error,
  duration_ms: a.duration_ms,
  response_excerpt: a.response_excerpt,
  at: a.created_at.toISOString(),
});

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const deliveryResource = (d: WebhookDeliveryRow, attempts?: WebhookAttemptRow[]): z.input<typeof webhookDelivery> => ({
  id: d.id,
  webhook_id: d.endpoint_id,
  event_id: d.event_id,
  event_type: d.event_type,
  status: d.status,
  status_code: d.last_status_code,
  error: d.last_error,
  attempt_count: d.attempt_count,
  next_retry_at: d.status === 'failed' ? iso(d.next_retry_at) : null,
  created_at: iso(d.created_at),
  updated_at: iso(d.updated_at),
  delivered_at: iso(d.delivered_at),
  ...(attempts ? { attempts: attempts.map(attemptResource) } : {}),
});
