import { AppError } from '../domain/errors';
import type { ProviderId } from './provider-ids';

/**
 * A failed provider call, as the API answers it (DESIGN.md §9): the vendor busy (its 429, or no
 * downstream slot in time) is 429 network_busy with Retry-After; a timeout, 5xx or malformed answer
 * is 502 provider_error; a key the vendor refuses is 424 provider_unavailable. Nothing is billed.
 * Activities read `retryable` to choose between a Temporal retry and a permanent failure.
 */
export class ProviderError extends AppError {
  constructor(
    readonly provider: ProviderId,
    code: 'network_busy' | 'provider_error' | 'provider_unavailable',
    status: number,
    message: string,
    details: Record<string, unknown> | null,
    headers: Record<string, string> = {},
    readonly retryable = code !== 'provider_unavailable',
  ) {
    super(code, status, message, details, headers);
    this.name = 'ProviderError';
  }
}

export function networkBusy(provider: ProviderId, retryAfterSeconds: number, why: string): ProviderError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ProviderError(
    provider,
    'network_busy',
    429,
    `${provider} is busy (${why}); retry after ${seconds} s`,
    { provider, retry_after_seconds: seconds },
    { 'Retry-After': String(seconds) },
  );
}

export function providerFailed(provider: ProviderId, reason: string): ProviderError {
  return new ProviderError(provider, 'provider_error', 502, `${provider} failed: ${reason}; nothing was billed`, { provider, reason });
}

export function keyRejected(provider: ProviderId, status: number): ProviderError {
  return new ProviderError(provider, 'provider_unavailable', 424, `${provider} rejected the API key (HTTP ${status})`, { provider, upstream_status: status });
}

/** 424 when no source can serve the capability (no credential, no server key, no built-in). */
export function providerUnavailable(capability: string, providers: readonly string[]): AppError {
  return new AppError('provider_unavailable', 424, `No ${capability} source is configured: add a ${providers.join(' or ')} credential or set a server key`, {
    capability,
    providers,
  });
}
