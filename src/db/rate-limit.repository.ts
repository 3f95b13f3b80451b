import type { Db } from './knex';

export interface RateLimitBucket {
  /** e.g. `key:<id>`, `workspace:<id>`, `ip:<addr>`. */
  name: string;
  limit: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** The bucket with the least room left (the tighter one), for the response headers. */
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends. */
  reset: number;
}

export const WINDOW_MS = 60_000;
const REFUSED = Symbol('rate limit reached');

/**
 * Counts one request against every bucket in a fixed one-minute window, in Postgres so all API
 * processes share the buckets. Each increment is conditional (`count < limit`) and takes the row
 * lock, and all buckets change in one transaction, so the count is exact under concurrency and a
 * refused request consumes nothing.
 */
export function rateLimitRepository(db: Db) {
  return {
    async hit(buckets: RateLimitBucket[], now = Date.now()): Promise<RateLimitResult> {
      const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
      const reset = Math.floor(windowStart.getTime() / 1000) + WINDOW_MS / 1000;
      const names = buckets.map((b) => b.name);
      try {
        const counts = await db.transaction(async (trx) => {
          const taken: number[] = [];
          // Fixed order (as given: key before workspace) so concurrent transactions never deadlock.
          for (const bucket of buckets) {
            const { rows } = await trx.raw(
              `insert into rate_limit_windows as r (bucket, window_start, count) values (?, ?, 1)
               on conflict (bucket, window_start) do update set count = r.count + 1 where r.count < ?
               returning count`,
              [bucket.name, windowStart, bucket.limit],
            );
            if (rows.length === 0 || rows[0].count > bucket.limit) throw REFUSED; // rolls back the others
            taken.push(rows[0].count);
          }
          return taken;
        });
        return { allowed: true, ...tightest(buckets, counts), reset };
      } catch (err) {
        if (err !== REFUSED) throw err;
        const current: { bucket: string; count: number }[] = await db('rate_limit_windows').whereIn('bucket', names).andWhere('window_start', windowStart);
        const byName = new Map(current.map((r) => [r.bucket, r.count]));
        return { allowed: false, ...tightest(buckets, names.map((n) => byName.get(n) ?? 0)), reset };
      }
    },
    /** Windows older than a few minutes are never read again. */
    async pruneOld(now = Date.now()): Promise<void> {
      await db('rate_limit_windows').where('window_start', '<', new Date(now - 5 * WINDOW_MS)).delete();
    },
  };
}

function tightest(buckets: RateLimitBucket[], counts: number[]): { limit: number; remaining: number } {
  let best = { limit: buckets[0].limit, remaining: Math.max(0, buckets[0].limit - (counts[0] ?? 0)) };
  buckets.forEach((b, i) => {
    const remaining = Math.max(0, b.limit - (counts[i] ?? 0));
    if (remaining < best.remaining || (remaining === best.remaining && b.limit < best.limit)) best = { limit: b.limit, remaining };
  });
  return best;
}
