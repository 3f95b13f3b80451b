import type { ApiDeps } from './context';
import { healthProbeRepository } from '../src/db/health-probe.repository';

export type Check = 'ok' | 'error';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** `ok` when the work succeeds within `ms`, `error` otherwise. */
export async function check(work: () => Promise<unknown>, ms = CHECK_TIMEOUT_MS): Promise<Check> {
  try {
    await withTimeout(work(), ms);
    return 'ok';
  } catch {
    return 'error';
  }
}

/** Database and Temporal reachability, each bounded by a short timeout: GET /v1/health's checks and /readyz's answer. */
export async function dependencyChecks(deps: Pick<ApiDeps, 'db' | 'temporal'>): Promise<{ database: Check; temporal: Check }> {
  const [database, temporal] = await Promise.all([check(() => healthProbeRepository(deps.db).ping()), check(() => deps.temporal.ping(CHECK_TIMEOUT_MS))]);
  return { database, temporal };
}
