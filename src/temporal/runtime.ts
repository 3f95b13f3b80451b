import { Runtime, type Logger as TemporalLogger, type LogLevel, type LogMetadata } from '@temporalio/worker';
import { freePort } from '../domain/free-port';
import type { Logger } from '../logger';

let installed: Promise<string | undefined> | undefined;

/**
 * Routes the Temporal SDK's logs into our pino logger and leaves signal handling to our own
 * entry points. The runtime is per process and can be installed once; later calls answer what the
 * first installed.
 *
 * With `metrics`, the SDK's Prometheus exporter listens on a free loopback port and the answer is
 * its scrape URL: it is not exposed itself, the worker's metrics server serves it with our own
 * metrics on one port (activities/worker-metrics.ts).
 */
export function installTemporalRuntime(logger: Logger, opts: { metrics: boolean }): Promise<string | undefined> {
  installed ??= install(logger, opts.metrics);
  return installed;
}

async function install(logger: Logger, metrics: boolean): Promise<string | undefined> {
  const bindAddress = metrics ? `127.0.0.1:${await freePort()}` : undefined;
  const child = logger.child({ component: 'temporal' });
  const at = (level: 'trace' | 'debug' | 'info' | 'warn' | 'error') => (message: string, meta?: LogMetadata) => child[level](meta ?? {}, message);
  const temporalLogger: TemporalLogger = {
    log: (level: LogLevel, message: string, meta?: LogMetadata) => at(level.toLowerCase() as 'info')(message, meta),
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
  Runtime.install({
    logger: temporalLogger,
    shutdownSignals: [],
    // Counters end in _total and durations are in seconds, as Prometheus conventions expect.
    telemetryOptions: bindAddress ? { metrics: { prometheus: { bindAddress, countersTotalSuffix: true, useSecondsForDurations: true } } } : undefined,
  });
  return bindAddress && `http://${bindAddress}/metrics`;
}
