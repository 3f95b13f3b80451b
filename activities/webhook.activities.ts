import { Context } from '@temporalio/activity';
import type { AttemptInput, OutboxSweepInput } from '../src/webhooks/contract';
import { attemptDelivery } from '../src/webhooks/delivery';
import { listenAndDispatch } from '../src/webhooks/dispatcher';
import { drainOutbox } from '../src/webhooks/fanout';
import { deliveryStarter } from '../src/webhooks/temporal';
import { withoutTracing } from '../src/tracing/trace-context';
import type { ActivityDeps } from './deps';

export function webhookActivities({ db, config, logger, metrics }: ActivityDeps) {
  const deliveryDeps = {
    db,
    secretsKey: config.secretsKey,
    secretsKeyPrevious: config.secretsKeyPrevious,
    policy: { allowedCidrs: config.webhookAllowedPrivateCidrs },
  };
  return {
    /** One POST of one delivery and its record; HTTP outcomes are results, not failures. */
    async attemptWebhookDelivery(input: AttemptInput) {
      const outcome = await attemptDelivery(deliveryDeps, input);
      metrics.webhookDeliveries.inc({ result: outcome.status });
      return outcome;
    },

    /** The outbox dispatcher: fans out new events as they commit, for `runSeconds`. */
    async runOutboxDispatcher(input: OutboxSweepInput): Promise<void> {
      const ctx = Context.current();
      // Eager starts: this worker polls the webhooks queue the deliveries run on (catalog.ts).
      const start = deliveryStarter({ client: ctx.client, taskQueue: config.temporal.taskQueue }, { eager: true });
      // Its polling would add a span a second to this run's trace; each delivery it starts
      // continues the trace of its event instead (deliveryStarter).
      await withoutTracing(() =>
        listenAndDispatch({
          databaseUrl: config.databaseUrl,
          runMs: input.runSeconds * 1000,
          dispatch: () => drainOutbox(db, start, config.webhookRetryScheduleSeconds, config.temporal.taskQueue),
          heartbeat: () => ctx.heartbeat(),
          signal: ctx.cancellationSignal,
          logger,
        }),
      );
    },
  };
}
