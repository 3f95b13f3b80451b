import { webhookRepository } from '../db/webhook.repository';
import { AppError } from '../domain/errors';
import { createTemporal } from '../temporal/client';
import { createEndpoint, redeliver } from '../webhooks/endpoints';
import { ensureOutboxSweepOnce } from '../webhooks/temporal';
import { deliveryResource, webhookResource } from '../webhooks/webhooks.presenter';
import { findWorkspace } from './admin.commands';
import { commaList, UsageError, uuid } from './args';
import type { RegisterCommands } from './command';

export const registerWebhookCommands: RegisterCommands = (program, host) => {
  const webhooks = program.command('webhooks').description('webhook endpoints and deliveries');

  webhooks
    .command('create')
    .description("add a webhook endpoint to a workspace (the API's create_webhook rules); the signing secret is printed once")
    .requiredOption('--workspace <id>', 'workspace id', uuid('workspace'))
    .requiredOption('--url <url>', 'public https URL of the endpoint')
    .option('--events <list>', 'comma-separated event types, or * for every event (default *)', commaList)
    .option('--json', 'print one JSON object (the endpoint with its secret)')
    .action(
      host.action<{ workspace: string; url: string; events?: string[]; json?: boolean }>(async (ctx, opts) => {
        const workspace = await findWorkspace(ctx, opts.workspace);
        let created;
        try {
          created = await createEndpoint(ctx.db, ctx.config, workspace.id, { url: opts.url, events: opts.events });
        } catch (err) {
          // The API's refusals (bad URL, unknown event, limit, unknown workspace) are the operator's input.
          if (err instanceof AppError && err.status < 500) throw new UsageError(`${err.code}: ${err.message}`);
          throw err;
        }
        const { endpoint, secret } = created;
        // As the API does: events reach endpoints only once the outbox dispatcher's Schedule exists.
        const temporal = createTemporal(ctx.config);
        try {
          await ensureOutboxSweepOnce(temporal);
        } catch (err) {
          process.stderr.write(`warning: could not ensure the outbox dispatcher schedule (${(err as Error).message}); the worker creates it at start\n`);
        } finally {
          await temporal.close();
        }
        const view = { ...webhookResource(endpoint), secret };
        if (opts.json) return ctx.out(JSON.stringify(view));
        ctx.out(`Created webhook ${endpoint.id} for workspace ${endpoint.workspace_id} → ${endpoint.url} (events ${view.events.join(',')})`);
        ctx.out(`Signing secret (shown once, store it now): ${secret}`);
      }),
    );

  webhooks
    .command('redeliver')
    .description('for support staff: the same immediate, same-event-id attempt as redeliver_webhook')
    .argument('<delivery-id>', 'delivery id', uuid('delivery id'))
    .option('--json', 'print one JSON object (the delivery after the attempt)')
    .action(
      host.action<{ json?: boolean }>(async (ctx, opts, [id]) => {
        const delivery = await webhookRepository(ctx.db).findDelivery(id);
        if (!delivery) throw new UsageError(`no delivery ${id}`);
        const temporal = createTemporal(ctx.config);
        try {
          const result = await redeliver(ctx.db, temporal, delivery);
          const after = deliveryResource(result.delivery);
          if (opts.json) return ctx.out(JSON.stringify({ ...after, mode: result.mode, workflow_id: result.workflowId }));
          const how = result.mode === 'signalled' ? 'signalled its waiting workflow' : `started ${result.workflowId}`;
          const answer = after.status_code !== null ? `answered ${after.status_code}` : (after.error ?? 'no answer yet');
          ctx.out(`Redelivered ${id} (event ${after.event_id}, same id): ${how}; now ${after.status} after ${after.attempt_count} attempt(s), last ${answer}`);
        } finally {
          await temporal.close();
        }
      }),
    );
};
