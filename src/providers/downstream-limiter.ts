import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config';
import type { Db } from '../db/knex';
import { providerLimitsRepository } from '../db/provider-limits.repository';
import { networkBusy } from './provider-errors';
import type { ProviderId } from './provider-ids';

/**
 * Downstream limits per provider, shared by all API processes and workers through Postgres
 * (DESIGN.md §9): concurrency slots (People Data Labs enrichment) and QPS pacing (Brave). A call
 * that gets no slot within `slotWaitMs` (2 s) is refused with 429 network_busy.
 */
export interface DownstreamLimiter {
  /** Runs `call` holding one of the provider's concurrency slots. */
  withSlot<T>(provider: ProviderId, call: () => Promise<T>): Promise<T>;
  /** Runs `call` at the provider's next paced start time. */
  paced<T>(provider: ProviderId, call: () => Promise<T>): Promise<T>;
}

const POLL_MIN_MS = 10;
const POLL_MAX_MS = 100;

export function downstreamLimiter(db: Db, config: Config): DownstreamLimiter {
  const repo = providerLimitsRepository(db);
  const { timeoutMs, slotWaitMs, peopleDataLabsConcurrency, braveQps } = config.providerLimits;
  const concurrency: Partial<Record<ProviderId, number>> = { peopledatalabs: peopleDataLabsConcurrency };
  const qps: Partial<Record<ProviderId, number>> = { brave: braveQps };
  // A lease outlives the longest call (its timeout) with margin; it only matters for a killed process.
  const leaseMs = timeoutMs + 10_000;
  const ensured = new Map<string, Promise<void>>();
  // Limits are kept per provider and base URL: one vendor endpoint, one budget (and tests that
  // point at their own fake server do not share slots).
  const pool = (provider: ProviderId) => `${provider} ${config.providers[provider].baseUrl}`;
  const ensure = (provider: ProviderId, count: number) => {
    const key = `${pool(provider)}:${count}`;
    let ready = ensured.get(key);
    if (!ready) {
      ready = repo.ensureSlots(pool(provider), count);
      // A failed setup is tried again by the next call.
      ready.catch(() => ensured.delete(key));
      ensured.set(key, ready);
    }
    return ready;
  };

  return {
    async withSlot(provider, call) {
      const limit = concurrency[provider];
      if (!limit) return call();
      await ensure(provider, limit);
      const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
      const deadline = Date.now() + slotWaitMs;
      let pause = POLL_MIN_MS;
      let slot = await repo.takeSlot(pool(provider), limit, holder, leaseMs);
      while (slot === null) {
        if (Date.now() + pause > deadline) throw networkBusy(provider, 1, `all ${limit} concurrent slots stayed taken for ${slotWaitMs} ms`);
        await sleep(pause);
        pause = Math.min(POLL_MAX_MS, pause * 2);
        slot = await repo.takeSlot(pool(provider), limit, holder, leaseMs);
      }
      try {
        return await call();
      } finally {
        await repo.releaseSlot(pool(provider), slot, holder);
      }
    },

    async paced(provider, call) {
      const perSecond = qps[provider];
      if (!perSecond) return call();
      const waitMs = await repo.bookStart(pool(provider), 1000 / perSecond, slotWaitMs);
      if (waitMs === null) {
        const retryMs = (await repo.nextStartIn(pool(provider))) - slotWaitMs;
        throw networkBusy(provider, retryMs / 1000, `more than ${perSecond} calls per second`);
      }
      if (waitMs > 0) await sleep(waitMs);
      return call();
    },
  };
}
