import pino, { type Logger } from 'pino';
import { traceLogFields } from './tracing/trace-context';

export type { Logger };

/**
 * Structured JSON logs on stdout; request-scoped children carry `request_id`, and every line
 * written inside a traced request, activity or webhook delivery carries its `trace_id` and
 * `span_id` (open the trace in Zipkin from a log line). Written through an
 * asynchronous destination, so a busy API batches lines instead of blocking on a write(2) per
 * line; pino flushes what is still pending when the process exits.
 */
export function createLogger(level: string, name: string): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    base: { service: 'candidate-sourcing', process: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: traceLogFields,
  };
  const destination = pino.destination({ dest: 1, sync: false });
  const logger = pino(
    {
      ...options,
      // Belt and braces: nothing logs bodies or headers today, but a secret must never reach a log line.
      redact: {
        paths: [
          'password',
          'apiKey',
          'api_key',
          '*.password',
          '*.apiKey',
          '*.api_key',
          'headers.cookie',
          'headers.authorization',
          '*.headers.cookie',
          '*.headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
  // The same logger without redaction, into the same destination (whole lines, never interleaved).
  unredacted.set(logger, pino(options, destination));
  return logger;
}

const unredacted = new WeakMap<Logger, Logger>();

/**
 * For lines whose every field the caller sets itself and none can hold a secret (the request line:
 * method, path, status, time, ids): the same output without redaction, which cost about 60 µs of
 * a line's CPU, a sixth of a people read's (bench/searches.bench.ts). Other loggers are returned as they are.
 */
export const withoutRedaction = (logger: Logger): Logger => unredacted.get(logger) ?? logger;
