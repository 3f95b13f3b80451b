import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config';

export interface Temporal {
  client: Client;
  taskQueue: string;
  /** Resolves when the frontend answers within the deadline; rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Lazily connected: the API starts (and reports `temporal: "error"` on /health) even while the
 * Temporal server is down, and reconnects by itself when it comes back.
 */
export function createTemporal(config: Config): Temporal {
  const connection = Connection.lazy({ address: config.temporal.address });
  const client = new Client({ connection, namespace: config.temporal.namespace });
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
