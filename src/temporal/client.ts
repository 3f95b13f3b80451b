import { Client, Connection } from '@temporalio/client';
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
 * Lazily connected: the API starts (and reports `temporal: "error"` on /health) even while the
 * Temporal server is down, and reconnects by itself when it comes back. `traced` (the API process
 * with tracing on): workflow starts and signals carry the caller's trace (src/tracing).
 */
export function createTemporal(config: Config, opts: { traced?: boolean } = {}): Temporal {
  const connection = Connection.lazy({ address: config.temporal.address });
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
      await Promise.all([connection.close(), probeConnection.close()]);
    },
  };
}
