import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import type { Config } from '../config';
import { tracedClientInterceptors } from '../tracing/temporal-tracing';

export interface Temporal {
  client: Client;
  taskQueue: string;
  /** Resolves when the frontend answers within the deadline; rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The client's usual gRPC retries, made safe to close. @temporalio/client schedules a retry with
 * setTimeout and Connection.close() does not clear it: a retry that fires after close throws
 * "Channel has been shut down" from the timer, outside any awaited call, and takes the process
 * down (seen at a test stack's teardown). Here a closing connection retries nothing more, and
 * close() first waits for the retries already scheduled to have started.
 */
function closableRetries() {
  const defaults = defaultGrpcRetryOptions();
  let closing = false;
  let lastRetryAt = 0;
  const interceptor = makeGrpcRetryInterceptor({
    retryableDecider: (attempt, status) => !closing && defaults.retryableDecider(attempt, status),
    delayFunction: (attempt, status) => {
      const delay = defaults.delayFunction(attempt, status);
      lastRetryAt = Math.max(lastRetryAt, Date.now() + delay);
      return delay;
    },
  });
  return {
    interceptor,
    async beforeClose() {
      closing = true;
      const wait = lastRetryAt - Date.now();
      // A margin past the last timer: its retry has then been started on the open channel.
      if (wait > -50) await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait) + 50));
    },
  };
}

/**
 * Lazily connected: the API starts (and reports `temporal: "error"` on /health) even while the
 * Temporal server is down, and reconnects by itself when it comes back. `traced` (the API process
 * with tracing on): workflow starts and signals carry the caller's trace (src/tracing).
 */
export function createTemporal(config: Config, opts: { traced?: boolean } = {}): Temporal {
  const retries = closableRetries();
  const connection = Connection.lazy({ address: config.temporal.address, interceptors: [retries.interceptor] });
  const client = new Client({ connection, namespace: config.temporal.namespace, interceptors: opts.traced ? tracedClientInterceptors() : undefined });
  // Health checks must fail fast: no retry interceptor, so no retry timer outlives the check.
  const probeConnection = Connection.lazy({ address: config.temporal.address, interceptors: [] });
  return {
    client,
    taskQueue: config.temporal.taskQueue,
    async ping(timeoutMs = 2000) {
      await probeConnection.withDeadline(Date.now() + timeoutMs, () =>
        probeConnection.workflowService.describeNamespace({ namespace: config.temporal.namespace }),
      );
    },
    close: async () => {
      await retries.beforeClose();
      await Promise.all([connection.close(), probeConnection.close()]);
    },
  };
}
