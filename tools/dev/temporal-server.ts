import { Connection } from '@temporalio/client';
import type { ProcessGroup } from './processes';
import { waitFor } from './processes';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes';

export interface TemporalServerOptions {
  cli: string;
  port: number;
  /** null: no UI (tests). */
  uiPort: number | null;
  httpPort: number;
  metricsPort: number;
  namespace: string;
  /** SQLite file for state that survives restarts; null keeps it in memory (tests). */
  dbFile: string | null;
  quiet?: boolean;
}

export interface TemporalServerHandle {
  address: string;
  uiUrl: string | null;
  pid: number | undefined;
}

/**
 * Dynamic config of the dev server, for many short workflows on a small machine (a webhook
 * delivery is a workflow that usually closes within 100 ms; bench/webhooks.bench.ts):
 *  - the visibility queue is read at most twice a second, in large batches. A workflow already
 *    closed when its start record is due gets only its close record, which removes most of the
 *    server's visibility writes (the largest part of its CPU per delivery); the Temporal UI and
 *    `workflow list` lag by up to half a second.
 *  - our search attributes are registered with the namespace at start, so the CLI's default of
 *    re-reading cluster metadata on every request (for attributes added later) is wasted work.
 */
const DEV_SERVER_DYNAMIC_CONFIG: Record<string, unknown> = {
  'history.visibilityProcessorMaxPollRPS': 2,
  'history.visibilityTaskBatchSize': 1000,
  'system.forceSearchAttributesCacheRefreshOnRead': false,
};

/** `temporal server start-dev` with our search attributes registered; resolves once it answers. */
export async function startTemporalDevServer(group: ProcessGroup, opts: TemporalServerOptions): Promise<TemporalServerHandle> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--http-port',
    String(opts.httpPort),
    '--metrics-port',
    String(opts.metricsPort),
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    ...(opts.dbFile ? ['--db-filename', opts.dbFile] : []),
    ...(opts.uiPort === null ? ['--headless'] : ['--ui-port', String(opts.uiPort)]),
    ...CUSTOM_SEARCH_ATTRIBUTES.flatMap((name) => ['--search-attribute', `${name}=Keyword`]),
    ...Object.entries(DEV_SERVER_DYNAMIC_CONFIG).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]),
  ];
  const child = group.spawn('temporal', opts.cli, args, { quiet: opts.quiet });
  const address = `127.0.0.1:${opts.port}`;
  await waitFor(
    `Temporal server on ${address}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`temporal exited with code ${child.exitCode}`);
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace: opts.namespace });
        return true;
      } finally {
        await connection.close();
      }
    },
    60_000,
    300,
  );
  return { address, uiUrl: opts.uiPort === null ? null : `http://localhost:${opts.uiPort}`, pid: child.pid };
}
