import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout; request-scoped children carry `request_id`. */
export function createLogger(level: string, name: string): Logger {
  return pino({
    name,
    level,
    base: { service: 'candidate-sourcing', process: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
