import os from 'node:os';
import { healthProbeRepository } from '../src/db/health-probe.repository';
import type { ActivityDeps } from './deps';

const workerIdentity = `${os.hostname()}:${process.pid}`;

export function healthProbeActivities({ db }: ActivityDeps) {
  const probes = healthProbeRepository(db);
  return {
    /** Marks the probe as answered by this worker; the API reads the row back. */
    async completeHealthProbe(probeId: string): Promise<{ workerIdentity: string; completedAt: string }> {
      const row = await probes.complete(probeId, workerIdentity);
      await probes.pruneOlderThan(24);
      return { workerIdentity: row.worker_identity ?? workerIdentity, completedAt: new Date(row.completed_at!).toISOString() };
    },
  };
}
