import http from 'node:http';
import { createBriefReader } from '../src/briefs/brief-reader';
import type { Config } from '../src/config';
import { createDb } from '../src/db/knex';
import type { Logger } from '../src/logger';
import type { Tracing } from '../src/tracing/tracing';
import { createTemporal } from '../src/temporal/client';
import { UsageCounter } from '../src/usage/usage-counter';
import { startMetricsServer, type MetricsServer } from '../src/metrics/metrics-server';
import { outboxSweepEnsuresSettled } from '../src/webhooks/temporal';
import { createApp } from './app';
import { startAppDevServer } from './web/app.page';
import { createApiMetrics } from './metrics';
import type { ApiDeps } from './context';

export interface ApiServer {
  server: http.Server;
  url: string;
  /** Where /metrics is served when METRICS_PORT puts it on its own port. */
  metricsUrl?: string;
  /** Stops accepting, lets in-flight requests finish (up to the timeout), then closes resources. */
  close(): Promise<void>;
}

export async function startApiServer(deps: ApiDeps, config: Config = deps.config): Promise<ApiServer> {
  // One request counter per process, flushed in batches and once more after the last request.
  const usage = deps.usage ?? (config.usage.counting ? new UsageCounter(deps.db, deps.logger, config.usage.flushIntervalMs).start() : undefined);
  const briefReader = deps.briefReader ?? createBriefReader(config.briefReader);
  const metrics = config.metrics.enabled ? createApiMetrics(deps.db) : undefined;
  const metricsOnOwnPort = config.metrics.apiPort !== undefined;
  const server = http.createServer({
    // Slow clients (headers or a body trickled a byte at a time) are cut off instead of holding
    // a socket for ever; Node checks every second rather than its default 30.
    headersTimeout: config.http.headersTimeoutMs,
    requestTimeout: config.http.requestTimeoutMs,
    connectionsCheckingInterval: 1000,
  });
  // `npm run dev`: the web app through Vite, its live-reload socket on this server.
  const appDev = config.appDevServer ? await startAppDevServer(server) : undefined;
  const app = createApp({ ...deps, usage, briefReader }, undefined, { metrics, metricsOnOwnPort, webApp: appDev?.middleware });
  server.on('request', app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  let metricsServer: MetricsServer | undefined;
  if (metrics && metricsOnOwnPort) {
    try {
      metricsServer = await startMetricsServer({
        host: config.host,
        port: config.metrics.apiPort!,
        contentType: metrics.registry.contentType,
        render: () => metrics.registry.metrics(),
      });
    } catch (err) {
      server.close();
      throw err;
    }
  }
  const address = server.address() as { port: number; address: string };
  const url = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    server,
    url,
    metricsUrl: metricsServer?.url,
    close: async () => {
      void metricsServer?.close();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      await usage?.stop();
      await appDev?.close();
      await outboxSweepEnsuresSettled();
      if (!deps.briefReader) await briefReader.close();
    },
  };
}

/**
 * The API process (`npm run start:api`, started through api/server.ts, which starts tracing
 * first): serves until SIGINT/SIGTERM, then finishes in-flight requests and closes its pools.
 */
export async function runApiProcess(config: Config, logger: Logger, tracing: Tracing): Promise<void> {
  const db = createDb(config.databaseUrl, config.databasePoolMax, logger, { taskQueue: config.temporal.taskQueue });
  const temporal = createTemporal(config, { traced: tracing.enabled });
  const briefReader = createBriefReader(config.briefReader);
  const api = await startApiServer({ config, db, temporal, logger, briefReader });
  // The reader's threads load their reference data now, not during the first brief.
  briefReader.warm().catch((err: Error) => logger.warn({ err }, 'brief reader warm-up failed'));
  logger.info({ url: api.url, base_url: config.publicBaseUrl, metrics_url: api.metricsUrl, tracing: tracing.enabled }, 'api listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api shutting down');
    await api.close();
    await Promise.allSettled([db.destroy(), temporal.close(), tracing.shutdown(), briefReader.close()]);
    logger.info('api stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
