import { randomUUID } from 'node:crypto';
import { healthProbeRepository } from '../../src/db/health-probe.repository';
import { healthQuery, healthStatus } from '../../src/reference/reference.schemas';
import { catalog, startWorkflow } from '../../src/temporal/catalog';
import type { ApiDeps } from '../context';
import { check, dependencyChecks, type Check } from '../dependency-checks';
import { sendData } from '../respond';
import { defineRoute } from '../route-def';

const WORKER_PROBE_TIMEOUT_MS = 5000;

/**
 * The full round trip: the API records a probe, starts a workflow, the worker's activity completes
 * the row in Postgres, and the API reads it back.
 */
async function probeWorker({ db, temporal }: ApiDeps): Promise<void> {
  const probes = healthProbeRepository(db);
  const probeId = randomUUID();
  await probes.create(probeId);
  const handle = await startWorkflow(temporal, catalog.healthProbe, {
    workflowId: catalog.healthProbe.id(probeId),
    args: [probeId],
    workflowExecutionTimeout: '1 minute',
  });
  await handle.result();
  const row = await probes.find(probeId);
  if (!row?.completed_at) throw new Error('probe row was not completed by the worker');
}

export const healthRoutes = [
  defineRoute({
    name: 'get_health',
    method: 'GET',
    path: '/health',
    auth: 'none',
    cost: 'none',
    summary: 'Service health: database and Temporal reachability; add ?worker=true to probe a worker end to end.',
    proposable: false,
    catalog: false,
    tag: 'Health',
    query: healthQuery,
    response: { kind: 'json', status: [200, 503], data: healthStatus, description: 'The checks; 503 (same shape, with Retry-After) when one failed' },
    async handler(ctx, { query }, deps) {
      const checks: Record<string, Check> = await dependencyChecks(deps);
      if (query.worker) {
        checks.worker = checks.database === 'ok' && checks.temporal === 'ok' ? await check(() => probeWorker(deps), WORKER_PROBE_TIMEOUT_MS) : 'error';
      }
      const ok = Object.values(checks).every((c) => c === 'ok');
      if (!ok) ctx.set('Retry-After', '5');
      sendData(ctx, { ok, checks }, { status: ok ? 200 : 503 });
    },
  }),
];
