import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import { startMetricsServer, type MetricsServer, type ProbeResult } from '../src/metrics/metrics-server';

/** The worker process's own Prometheus registry; the Temporal SDK keeps its metrics natively. */
export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    activityOutcomes: new Counter({
      name: 'activity_executions_total',
      help: 'Activity attempts by activity type and outcome (completed or failed)',
      labelNames: ['activity', 'outcome'] as const,
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by the delivery status they left: delivered, failed (will retry), abandoned, stopped',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

type AnyActivity = (...args: never[]) => Promise<unknown>;

/** The same activities, each attempt counted as completed or failed under its registered name. */
export function instrumentActivities<A extends Record<string, AnyActivity>>(activities: A, metrics: WorkerMetrics): A {
  const wrapped = Object.entries(activities).map(([name, run]) => [
    name,
    async (...args: never[]) => {
      try {
        const result = await run(...args);
        metrics.activityOutcomes.inc({ activity: name, outcome: 'completed' });
        return result;
      } catch (err) {
        metrics.activityOutcomes.inc({ activity: name, outcome: 'failed' });
        throw err;
      }
    },
  ]);
  return Object.fromEntries(wrapped) as A;
}

/**
 * Serves /metrics (our registry followed by the Temporal SDK's exporter, so one scrape target
 * covers the worker), /livez and /readyz on the worker's metrics port.
 */
export function startWorkerMetricsServer(opts: {
  metrics: WorkerMetrics;
  temporalMetricsUrl: string | undefined;
  host: string;
  port: number;
  ready: () => Promise<ProbeResult>;
}): Promise<MetricsServer> {
  const { metrics, temporalMetricsUrl } = opts;
  return startMetricsServer({
    host: opts.host,
    port: opts.port,
    contentType: metrics.registry.contentType,
    ready: opts.ready,
    async render() {
      const ours = await metrics.registry.metrics();
      if (!temporalMetricsUrl) return ours;
      try {
        const res = await fetch(temporalMetricsUrl, { signal: AbortSignal.timeout(2000) });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return `${ours}\n${await res.text()}`;
      } catch (err) {
        // A comment line: scrapers ignore it, a person reading the page sees why the SDK's are missing.
        return `${ours}\n# temporal sdk metrics unavailable: ${(err as Error).message}\n`;
      }
    },
  });
}
