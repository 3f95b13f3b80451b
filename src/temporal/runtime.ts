import { Runtime, type Logger as TemporalLogger, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { Logger } from '../logger';

let installed = false;

/**
 * Routes the Temporal SDK's logs into our pino logger and leaves signal handling to our own
 * entry points. The runtime is per process and can be installed once.
 */
export function installTemporalRuntime(logger: Logger): void {
  if (installed) return;
  installed = true;
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
  Runtime.install({ logger: temporalLogger, shutdownSignals: [] });
}
