import { webhookRepository } from '../db/webhook.repository';
import { isUuid } from '../domain/ids';
import { createTemporal } from '../temporal/client';
import { redeliver } from '../webhooks/endpoints';
import { deliveryResource } from '../webhooks/webhooks.presenter';
import { parseArgs, UsageError } from './args';
import type { CliContext } from './command';

export const webhookCommands: Record<string, (argv: string[], ctx: CliContext) => Promise<void>> = {
  /** For support staff: the same immediate, same-event-id attempt as redeliver_webhook. */
  async 'webhooks redeliver'(argv, ctx) {
    const args = parseArgs(argv, { flags: ['json'], positionals: 1 });
    const id = args.positionals[0];
    if (!isUuid(id)) throw new UsageError(`delivery id must be a uuid, got ${id}`);
    const delivery = await webhookRepository(ctx.db).findDelivery(id);
    if (!delivery) throw new UsageError(`no delivery ${id}`);
    const temporal = createTemporal(ctx.config);
    try {
      const result = await redeliver(ctx.db, temporal, delivery);
      const after = deliveryResource(result.delivery);
      if (args.options.json) {
        ctx.out(JSON.stringify({ ...after, mode: result.mode, workflow_id: result.workflowId }));
        return;
      }
      const how = result.mode === 'signalled' ? 'signalled its waiting workflow' : `started ${result.workflowId}`;
      const answer = after.status_code !== null ? `answered ${after.status_code}` : (after.error ?? 'no answer yet');
      ctx.out(`Redelivered ${id} (event ${after.event_id}, same id): ${how}; now ${after.status} after ${after.attempt_count} attempt(s), last ${answer}`);
    } finally {
      await temporal.close();
    }
  },
};
