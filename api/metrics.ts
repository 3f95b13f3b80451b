import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../src/db/knex';
import { matchedRoute, type ApiState } from './context';

/** Label for requests no route matched: never the raw URL, so label values stay bounded. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Request latency buckets in seconds: people reads take milliseconds, searches' launches more. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The tarn pool knex keeps (not part of knex's public typings). */
interface PoolStats {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The API process's Prometheus registry: requests, rate-limit refusals, the database pool. */
export function createApiMetrics(db: Db) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template, method and status',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 rate_limited, by route template',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const pool = (): PoolStats | undefined => (db.client as { pool?: PoolStats }).pool;
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state: used, free, pending (waiting for a connection)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = pool();
      this.set({ state: 'used' }, p?.numUsed() ?? 0);
      this.set({ state: 'free' }, p?.numFree() ?? 0);
      this.set({ state: 'pending' }, p?.numPendingAcquires() ?? 0);
    },
  });

  /** Outermost middleware, so the status is the one sent, error answers included. */
  const middleware: Middleware<ApiState> = async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route = matchedRoute(ctx) ?? UNMATCHED_ROUTE;
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      requests.inc(labels);
      latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (ctx.status === 429 && (ctx.body as { error?: { code?: string } } | undefined)?.error?.code === 'rate_limited') rateLimited.inc({ route });
    }
  };

  return { registry, middleware };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;
