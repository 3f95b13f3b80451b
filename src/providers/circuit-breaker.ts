import type { Config } from '../config';
import { circuitBreakerRepository } from '../db/circuit-breaker.repository';
import type { Db } from '../db/knex';
import { AppError } from '../domain/errors';
import { ProviderError } from './provider-errors';
import type { ProviderId } from './provider-ids';

/**
 * The circuit breaker of live searches (DESIGN.md §9), shared through Postgres: after
 * `PROVIDER_CIRCUIT_FAILURES` consecutive failed calls (timeout, 5xx, malformed answer) the
 * provider's circuit opens for `PROVIDER_CIRCUIT_OPEN_MS`; meanwhile live launches and live pages
 * are refused with 424 search_unavailable. After that the next call is the trial: a success
 * closes the circuit, a failure opens it again at once.
 */
export interface CircuitBreaker {
  /** Refuses with 424 search_unavailable while the provider's circuit is open. */
  ensureClosed(provider: ProviderId): Promise<void>;
  /** Runs one provider call and counts how it went. */
  call<T>(provider: ProviderId, work: () => Promise<T>): Promise<T>;
}

/** Only the provider failing counts: a busy provider (429) or a refused key says nothing about its health. */
const countsAsFailure = (err: unknown) => err instanceof ProviderError && err.code === 'provider_error';

export function circuitBreaker(db: Db, config: Config): CircuitBreaker {
  const repo = circuitBreakerRepository(db);
  const { failures: threshold, openMs } = config.providerCircuit;
  // Per provider and base URL, like the downstream limits: one vendor endpoint, one health.
  const pool = (provider: ProviderId) => `${provider} ${config.providers[provider].baseUrl}`;
  return {
    async ensureClosed(provider) {
      const row = await repo.find(pool(provider));
      const until = row?.open_until ? new Date(row.open_until).getTime() : 0;
      if (until <= Date.now()) return;
      const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
      throw new AppError(
        'search_unavailable',
        424,
        `Live search is unavailable: ${provider} failed ${row!.failures} times in a row; retry in ${seconds} s or launch with mode "database_only"`,
        { provider, retry_after_seconds: seconds },
        { 'Retry-After': String(seconds) },
      );
    },
    async call(provider, work) {
      try {
        const result = await work();
        await repo.recordSuccess(pool(provider));
        return result;
      } catch (err) {
        if (countsAsFailure(err)) await repo.recordFailure(pool(provider), threshold, openMs);
        throw err;
      }
    },
  };
}
