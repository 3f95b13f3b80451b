import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { completeHealthProbe } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, initialInterval: '200 milliseconds' },
});

/** Proves the whole path API → Temporal → worker → Postgres works; started by GET /v1/health?worker=true. */
export async function healthProbeWorkflow(probeId: string): Promise<{ workerIdentity: string; completedAt: string }> {
  return completeHealthProbe(probeId);
}
