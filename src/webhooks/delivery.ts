import type { Db } from '../db/knex';
import { webhookRepository, type AttemptContext } from '../db/webhook.repository';
import { API_VERSION } from '../events/outbox';
import type { AttemptInput, AttemptOutcome } from './contract';
import { decryptSecret } from './secrets';
import { postWebhook, type SendOptions } from './sender';
import { SIGNATURE_HEADER, signatureHeader } from './signing';

export const WEBHOOK_USER_AGENT = 'Service-Webhooks/1';
/** Abandoned deliveries in a row that turn an endpoint off (spec "Webhook endpoint" states). */
export const DISABLE_AFTER_ABANDONED = 20;
export const DISABLED_REASON = `Turned off after ${DISABLE_AFTER_ABANDONED} abandoned deliveries in a row`;

export interface DeliveryDeps extends SendOptions {
  db: Db;
  secretsKey: Buffer;
  /** SECRETS_KEY_PREVIOUS: endpoints not yet moved by `secrets reencrypt` still sign. */
  secretsKeyPrevious?: Buffer | null;
}

/** The envelope of the spec ("Envelope"), serialised once per attempt; the bytes that get signed. */
export function envelopeBody(event: AttemptContext['event']): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: new Date(event.created_at).toISOString(),
    workspace_id: event.workspace_id,
    api_version: API_VERSION,
    data: event.data,
  });
}

export function deliveryHeaders(body: string, secret: string, event: { id: string; type: string }): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    [SIGNATURE_HEADER]: signatureHeader(body, secret),
    'Service-Event-Id': event.id,
    'Service-Event-Type': event.type,
  };
}

/**
 * One delivery attempt (one activity). HTTP outcomes are results, never exceptions, so the
 * workflow alone owns the retry schedule; only database trouble throws (and is retried). A retry
 * of an attempt that was already recorded returns the recorded outcome without posting again.
 */
export async function attemptDelivery(deps: DeliveryDeps, input: AttemptInput): Promise<AttemptOutcome> {
  const repo = webhookRepository(deps.db);
  const ctx = await repo.attemptContext(input.deliveryId, input.attemptKey);
  if (!ctx) return { status: 'stopped', retry: false }; // the endpoint (and its deliveries) was deleted
  if (ctx.alreadyAttempted) {
    const { delivery } = ctx;
    return { status: delivery.status, retry: delivery.status === 'failed' && delivery.next_retry_at !== null };
  }
  if (!ctx.endpoint.enabled) {
    // Events are never delivered to a disabled endpoint; pending retries stop here.
    const status = input.manualRedelivery ? undefined : await repo.stopForDisabledEndpoint(input.deliveryId);
    return { status: status ?? 'stopped', retry: false };
  }
  const secret = decryptSecret(deps.secretsKey, ctx.endpoint.secret_ciphertext, ctx.endpoint.id, deps.secretsKeyPrevious);
  const body = envelopeBody(ctx.event);
  const result = await postWebhook(ctx.endpoint.url, body, deliveryHeaders(body, secret, ctx.event), deps);
  return repo.recordAttempt({
    deliveryId: input.deliveryId,
    attemptKey: input.attemptKey,
    trigger: input.trigger,
    manualRedelivery: input.manualRedelivery,
    result,
    retryInSeconds: input.retryInSeconds,
    isTest: ctx.event.type === 'webhook.test',
    disableAfter: DISABLE_AFTER_ABANDONED,
    disabledReason: DISABLED_REASON,
  });
}
