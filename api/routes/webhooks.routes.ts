import { z } from 'zod';
import { webhookRepository } from '../../src/db/webhook.repository';
import { EVENT_TYPES } from '../../src/events/outbox';
import { DELIVERY_STATUSES } from '../../src/webhooks/contract';
import {
  createEndpoint,
  deliveryResource,
  endpointResource,
  findDeliveryOr404,
  findEndpointOr404,
  MAX_ENDPOINTS_PER_WORKSPACE,
  redeliver,
  sendTestEvent,
  updateEndpoint,
} from '../../src/webhooks/endpoints';
import { ensureOutboxSweepOnce } from '../../src/webhooks/temporal';
import { authOf, type ApiContext, type ApiDeps } from '../context';
import { sendData } from '../respond';
import { defineRoutes } from '../route-def';
import { parseWith } from '../validate';

const eventsField = z.array(z.string()).describe(`Event types (${EVENT_TYPES.join(', ')}) or ["*"] for every event, including types added later`);
const urlField = z.string().describe('Public https URL; private, loopback, link-local and metadata addresses are refused');

const createBody = z
  .object({ url: urlField, events: eventsField.optional().describe('Omit or ["*"] for every event') })
  .strict()
  .describe('A new webhook endpoint');

const updateBody = z
  .object({ url: urlField.optional(), events: eventsField.optional(), enabled: z.boolean().optional().describe('true turns a disabled endpoint back on and clears its abandon count') })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'send at least one of url, events, enabled')
  .describe('Changes to a webhook endpoint');

const emptyBody = z.object({}).strict().optional().describe('No fields');

const deliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().describe('only deliveries in this status'),
  limit: z.string().regex(/^\d+$/).optional().describe('1 to 100, default 50; out-of-range values are clamped'),
  offset: z.string().regex(/^\d+$/).optional().describe('0 or more, default 0'),
});

/** Creates the outbox dispatcher's Schedule once per process (idempotent); without it no event is fanned out. */
function ensureDispatcher(ctx: ApiContext, { temporal }: ApiDeps): void {
  void ensureOutboxSweepOnce(temporal).catch((err) => ctx.state.log.warn({ err }, 'could not ensure the outbox sweep schedule; retried on the next webhook call'));
}

const free = { cost: 'free', costLine: 'Free: webhooks use no credits.' } as const;

export const webhookRoutes = defineRoutes([
  {
    name: 'create_webhook',
    method: 'POST',
    path: '/webhooks',
    auth: 'webhooks:write',
    ...free,
    summary: `Add a webhook endpoint (at most ${MAX_ENDPOINTS_PER_WORKSPACE} per workspace); the signing secret is returned only here.`,
    proposable: true,
    body: createBody,
    async handler(ctx, deps) {
      const body = parseWith(createBody, ctx.state.body ?? {});
      const { endpoint, secret } = await createEndpoint(deps.db, deps.config, authOf(ctx).workspace.id, body);
      ensureDispatcher(ctx, deps);
      sendData(ctx, { ...endpointResource(endpoint), secret }, { status: 201 });
    },
  },
  {
    name: 'list_webhooks',
    method: 'GET',
    path: '/webhooks',
    auth: 'webhooks:read',
    ...free,
    summary: 'Every webhook endpoint of the workspace, oldest first; secrets show only their last four characters.',
    proposable: false,
    async handler(ctx, { db }) {
      const endpoints = await webhookRepository(db).listForWorkspace(authOf(ctx).workspace.id);
      sendData(ctx, endpoints.map(endpointResource), { total: endpoints.length });
    },
  },
  {
    name: 'get_webhook',
    method: 'GET',
    path: '/webhooks/{webhookId}',
    auth: 'webhooks:read',
    ...free,
    summary: 'One webhook endpoint.',
    proposable: false,
    async handler(ctx, { db }) {
      sendData(ctx, endpointResource(await findEndpointOr404(db, authOf(ctx).workspace.id, ctx.params.webhookId)));
    },
  },
  {
    name: 'update_webhook',
    method: 'PATCH',
    path: '/webhooks/{webhookId}',
    auth: 'webhooks:write',
    ...free,
    summary: 'Change url, events or enabled; enabled:true turns an endpoint back on and clears its abandon count.',
    proposable: true,
    body: updateBody,
    async handler(ctx, deps) {
      const endpoint = await findEndpointOr404(deps.db, authOf(ctx).workspace.id, ctx.params.webhookId);
      const body = parseWith(updateBody, ctx.state.body ?? {});
      const updated = await updateEndpoint(deps.db, deps.config, endpoint, body);
      if (updated.enabled) ensureDispatcher(ctx, deps);
      sendData(ctx, endpointResource(updated));
    },
  },
  {
    name: 'delete_webhook',
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    auth: 'webhooks:write',
    ...free,
    summary: 'Delete a webhook endpoint with its deliveries; pending retries stop.',
    proposable: true,
    async handler(ctx, { db }) {
      const endpoint = await findEndpointOr404(db, authOf(ctx).workspace.id, ctx.params.webhookId);
      await webhookRepository(db).delete(endpoint.id);
      sendData(ctx, { id: endpoint.id, deleted: true });
    },
  },
  {
    name: 'test_webhook',
    method: 'POST',
    path: '/webhooks/{webhookId}/test',
    auth: 'webhooks:write',
    ...free,
    summary: 'Send a webhook.test event to this endpoint only (once, never retried) and answer the delivery with its attempt.',
    proposable: true,
    body: emptyBody,
    async handler(ctx, deps) {
      const endpoint = await findEndpointOr404(deps.db, authOf(ctx).workspace.id, ctx.params.webhookId);
      parseWith(emptyBody, ctx.state.body);
      ensureDispatcher(ctx, deps);
      const delivery = await sendTestEvent(deps.db, deps.temporal, endpoint);
      sendData(ctx, deliveryResource(delivery, await webhookRepository(deps.db).attempts(delivery.id)));
    },
  },
  {
    name: 'list_webhook_deliveries',
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    auth: 'webhooks:read',
    ...free,
    summary: 'Deliveries of the endpoint, newest first, optionally by status; meta.total counts all that match.',
    proposable: false,
    query: deliveriesQuery,
    async handler(ctx, { db }) {
      const endpoint = await findEndpointOr404(db, authOf(ctx).workspace.id, ctx.params.webhookId);
      const query = parseWith(deliveriesQuery, ctx.query);
      const limit = Math.min(100, Math.max(1, Number(query.limit ?? 50)));
      const offset = Number(query.offset ?? 0);
      const { deliveries, total } = await webhookRepository(db).listDeliveries(endpoint.id, { status: query.status, limit, offset });
      sendData(ctx, deliveries.map((d) => deliveryResource(d)), { total });
    },
  },
  {
    name: 'get_webhook_delivery',
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}',
    auth: 'webhooks:read',
    ...free,
    summary: 'One delivery with every attempt (status code, error, duration, response excerpt).',
    proposable: false,
    async handler(ctx, { db }) {
      const endpoint = await findEndpointOr404(db, authOf(ctx).workspace.id, ctx.params.webhookId);
      const delivery = await findDeliveryOr404(db, endpoint.id, ctx.params.deliveryId);
      sendData(ctx, deliveryResource(delivery, await webhookRepository(db).attempts(delivery.id)));
    },
  },
  {
    name: 'redeliver_webhook',
    method: 'POST',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    auth: 'webhooks:write',
    ...free,
    summary: 'Send a delivery again now with the same event id (also an abandoned one); answers the delivery after the attempt.',
    proposable: true,
    body: emptyBody,
    async handler(ctx, deps) {
      const endpoint = await findEndpointOr404(deps.db, authOf(ctx).workspace.id, ctx.params.webhookId);
      const delivery = await findDeliveryOr404(deps.db, endpoint.id, ctx.params.deliveryId);
      parseWith(emptyBody, ctx.state.body);
      ensureDispatcher(ctx, deps);
      const { delivery: after } = await redeliver(deps.db, deps.temporal, delivery);
      sendData(ctx, deliveryResource(after, await webhookRepository(deps.db).attempts(after.id)));
    },
  },
]);
