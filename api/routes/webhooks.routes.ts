import { z } from 'zod';
import { webhookRepository } from '../../src/db/webhook.repository';
import type { Db } from '../../src/db/knex';
import {
  createEndpoint,
  findDeliveryOr404,
  findEndpointOr404,
  MAX_ENDPOINTS_PER_WORKSPACE,
  redeliver,
  sendTestEvent,
  updateEndpoint,
} from '../../src/webhooks/endpoints';
import { deliveryResource, webhookResource } from '../../src/webhooks/webhooks.presenter';
import {
  createdWebhook,
  createWebhookBody,
  deliveriesQuery,
  deliveryParams,
  updateWebhookBody,
  webhook,
  webhookDeleted,
  webhookDelivery,
  webhookParams,
} from '../../src/webhooks/webhooks.schemas';
import { emptyBody } from '../../src/searches/searches.schemas';
import { ensureOutboxSweepOnce } from '../../src/webhooks/temporal';
import { authOf, type ApiContext, type ApiDeps } from '../context';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

/** Creates the outbox dispatcher's Schedule once per process (idempotent); without it no event is fanned out. */
function ensureDispatcher(ctx: ApiContext, { temporal }: ApiDeps): void {
  void ensureOutboxSweepOnce(temporal).catch((err) =>
    ctx.state.log.warn({ err }, 'could not ensure the outbox sweep schedule; retried on the next webhook call'),
  );
}

const loadEndpoint = async (ctx: ApiContext, { db }: { db: Db }, params: { webhookId: string }) => ({
  endpoint: await findEndpointOr404(db, authOf(ctx).workspace.id, params.webhookId),
});
const loadDelivery = async (ctx: ApiContext, deps: { db: Db }, params: { webhookId: string; deliveryId: string }) => {
  const { endpoint } = await loadEndpoint(ctx, deps, params);
  return { endpoint, delivery: await findDeliveryOr404(deps.db, endpoint.id, params.deliveryId) };
};

const free = { cost: 'free', costLine: 'Free: webhooks use no credits.', tag: 'Webhooks' } as const;

export const webhookRoutes = [
  defineRoute({
    name: 'create_webhook',
    method: 'POST',
    path: '/webhooks',
    auth: 'webhooks:write',
    ...free,
    summary: `Add a webhook endpoint (at most ${MAX_ENDPOINTS_PER_WORKSPACE} per workspace); the signing secret is returned only here.`,
    proposable: true,
    body: createWebhookBody,
    errors: ['invalid_webhook_url', 'webhook_limit_reached'],
    // A documentation name (RFC 2606): a client sends its own public https address.
    example: { url: 'https://hooks.example.com/sourcing', events: ['search.completed', 'shortlist.changed'] },
    response: { kind: 'json', status: 201, data: createdWebhook, description: 'The endpoint with its whole secret, once' },
    async handler(ctx, { body }, deps) {
      const { endpoint, secret } = await createEndpoint(deps.db, deps.config, authOf(ctx).workspace.id, body);
      ensureDispatcher(ctx, deps);
      sendData(ctx, { ...webhookResource(endpoint), secret }, { status: 201 });
    },
  }),
  defineRoute({
    name: 'list_webhooks',
    method: 'GET',
    path: '/webhooks',
    auth: 'webhooks:read',
    ...free,
    summary: 'Every webhook endpoint of the workspace, oldest first; secrets show only their last four characters.',
    proposable: false,
    response: { kind: 'json', status: 200, data: z.array(webhook), total: true, description: 'The endpoints' },
    async handler(ctx, _input, { db }) {
      const endpoints = await webhookRepository(db).listForWorkspace(authOf(ctx).workspace.id);
      sendData(ctx, endpoints.map(webhookResource), { total: endpoints.length });
    },
  }),
  defineRoute({
    name: 'get_webhook',
    method: 'GET',
    path: '/webhooks/{webhookId}',
    auth: 'webhooks:read',
    ...free,
    summary: 'One webhook endpoint.',
    proposable: false,
    params: webhookParams,
    load: loadEndpoint,
    response: { kind: 'json', status: 200, data: webhook, description: 'The endpoint' },
    async handler(ctx, { found }) {
      sendData(ctx, webhookResource(found.endpoint));
    },
  }),
  defineRoute({
    name: 'update_webhook',
    method: 'PATCH',
    path: '/webhooks/{webhookId}',
    auth: 'webhooks:write',
    ...free,
    summary: 'Change url, events or enabled; enabled:true turns an endpoint back on and clears its abandon count.',
    proposable: true,
    params: webhookParams,
    load: loadEndpoint,
    body: updateWebhookBody,
    errors: ['invalid_webhook_url'],
    example: { enabled: true },
    response: { kind: 'json', status: 200, data: webhook, description: 'The endpoint after the change' },
    async handler(ctx, { body, found }, deps) {
      const updated = await updateEndpoint(deps.db, deps.config, found.endpoint, body);
      if (updated.enabled) ensureDispatcher(ctx, deps);
      sendData(ctx, webhookResource(updated));
    },
  }),
  defineRoute({
    name: 'delete_webhook',
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    auth: 'webhooks:write',
    ...free,
    summary: 'Delete a webhook endpoint with its deliveries; pending retries stop.',
    proposable: true,
    params: webhookParams,
    load: loadEndpoint,
    response: { kind: 'json', status: 200, data: webhookDeleted, description: 'Deleted' },
    async handler(ctx, { found: { endpoint } }, { db }) {
      await webhookRepository(db).delete(endpoint.id);
      sendData(ctx, { id: endpoint.id, deleted: true });
    },
  }),
  defineRoute({
    name: 'test_webhook',
    method: 'POST',
    path: '/webhooks/{webhookId}/test',
    auth: 'webhooks:write',
    ...free,
    summary: 'Send a webhook.test event to this endpoint only (once, never retried) and answer the delivery with its attempt.',
    proposable: true,
    params: webhookParams,
    load: loadEndpoint,
    body: emptyBody,
    errors: ['webhook_disabled', 'service_unavailable'],
    response: { kind: 'json', status: 200, data: webhookDelivery, description: 'The delivery with its attempt' },
    async handler(ctx, { found: { endpoint } }, deps) {
      ensureDispatcher(ctx, deps);
      const delivery = await sendTestEvent(deps.db, deps.temporal, endpoint);
      sendData(ctx, deliveryResource(delivery, await webhookRepository(deps.db).attempts(delivery.id)));
    },
  }),
  defineRoute({
    name: 'list_webhook_deliveries',
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    auth: 'webhooks:read',
    ...free,
    summary: 'Deliveries of the endpoint, newest first, optionally by status; meta.total counts all that match.',
    proposable: false,
    params: webhookParams,
    load: loadEndpoint,
    query: deliveriesQuery,
    response: { kind: 'json', status: 200, data: z.array(webhookDelivery), total: true, description: 'One page of deliveries' },
    async handler(ctx, { query, found: { endpoint } }, { db }) {
      const { deliveries, total } = await webhookRepository(db).listDeliveries(endpoint.id, query);
      sendData(
        ctx,
        deliveries.map((d) => deliveryResource(d)),
        { total },
      );
    },
  }),
  defineRoute({
    name: 'get_webhook_delivery',
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}',
    auth: 'webhooks:read',
    ...free,
    summary: 'One delivery with every attempt (status code, error, duration, response excerpt).',
    proposable: false,
    params: deliveryParams,
    load: loadDelivery,
    response: { kind: 'json', status: 200, data: webhookDelivery, description: 'The delivery with its attempts' },
    async handler(ctx, { found: { delivery } }, { db }) {
      sendData(ctx, deliveryResource(delivery, await webhookRepository(db).attempts(delivery.id)));
    },
  }),
  defineRoute({
    name: 'redeliver_webhook',
    method: 'POST',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    auth: 'webhooks:write',
    ...free,
    summary: 'Send a delivery again now with the same event id (also an abandoned one); answers the delivery after the attempt.',
    proposable: true,
    params: deliveryParams,
    load: loadDelivery,
    body: emptyBody,
    errors: ['webhook_disabled', 'service_unavailable'],
    response: { kind: 'json', status: 200, data: webhookDelivery, description: 'The delivery after the attempt' },
    async handler(ctx, { found: { delivery } }, deps) {
      ensureDispatcher(ctx, deps);
      const { delivery: after } = await redeliver(deps.db, deps.temporal, delivery);
      sendData(ctx, deliveryResource(after, await webhookRepository(deps.db).attempts(after.id)));
    },
  }),
];
