import type { Db } from '../../src/db/knex';
import { rateLimitRepository, type RateLimitBucket, type RateLimitResult } from '../../src/db/rate-limit.repository';
import { AppError } from '../../src/domain/errors';
import type { ApiContext } from '../context';

/** Requests without a valid key (health, 401 answers, unknown paths) count per client address. */
export const ipBucket = (ctx: Pick<ApiContext, 'ip'>, limit: number): RateLimitBucket => ({ name: `ip:${ctx.ip}`, limit });

/**
 * Counts the request, sets the X-RateLimit-* headers (kept on error responses too) and throws
 * 429 rate_limited with Retry-After when a bucket is full.
 */
export async function applyRateLimit(ctx: ApiContext, db: Db, buckets: RateLimitBucket[]): Promise<void> {
  const limiter = rateLimitRepository(db);
  let result;
  try {
    result = await limiter.hit(buckets);
  } catch (err) {
    // Fail open: with the database down nothing can be counted, and /health must still answer
    // (and report the outage). Routes that need the database fail on their own.
    ctx.state.log.warn({ err }, 'rate limit not applied: counter store unavailable');
    return;
  }
  // Old windows are never read again; a rare request clears them instead of a background job.
  if (Math.random() < 0.002) void limiter.pruneOld().catch((err) => ctx.state.log.warn({ err }, 'rate-limit prune failed'));
  enforceRateLimit(ctx, result);
}

/** Sets the X-RateLimit-* headers (kept on error responses too); 429 when the bucket was full. */
export function enforceRateLimit(ctx: ApiContext, result: RateLimitResult): void {
  ctx.set('X-RateLimit-Limit', String(result.limit));
  ctx.set('X-RateLimit-Remaining', String(result.remaining));
  ctx.set('X-RateLimit-Reset', String(result.reset));
  if (!result.allowed) {
    const retryAfter = Math.max(1, result.reset - Math.floor(Date.now() / 1000));
    throw new AppError(
      'rate_limited',
      429,
      `Rate limit of ${result.limit} requests per minute reached; retry after ${retryAfter} s`,
      { retry_after_seconds: retryAfter },
      { 'Retry-After': String(retryAfter) },
    );
  }
}
