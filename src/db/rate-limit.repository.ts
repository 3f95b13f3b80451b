import { reviveKeyWithWorkspace, type KeyWithWorkspace, type SearchVersion } from './api-key.repository';
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

/**
 * Counts one request against every bucket in a fixed one-minute window, in Postgres so all API
 * processes share the buckets. The `rate_limit_hit` function (see its migration) increments each
 * bucket conditionally (`count < limit`) under the row lock, all or nothing, in one round trip:
 * exact under concurrency, and a refused request consumes nothing.
 */
export function rateLimitRepository(db: Db) {
  return {
    async hit(buckets: RateLimitBucket[], now = Date.now()): Promise<RateLimitResult> {
      const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
      const reset = Math.floor(windowStart.getTime() / 1000) + WINDOW_MS / 1000;
      const { rows } = await db.raw('select allowed, counts from rate_limit_hit(?::text[], ?::int[], ?)', [
        buckets.map((b) => b.name),
        buckets.map((b) => b.limit),
        windowStart,
      ]);
      const { allowed, counts } = rows[0] as { allowed: boolean; counts: number[] };
      return { allowed, ...tightest(buckets, counts), reset };
    },
    /**
     * The key (by hash) with its workspace and, when the key is usable, its request counted on the
     * key and workspace buckets and the version of the search `searchId` names (null: none of the
     * workspace): one round trip (the `authenticate_key` function).
     */
    async authenticate(
      keyHash: string,
      opts: { now?: number; searchId?: string } = {},
    ): Promise<{ found?: KeyWithWorkspace; usable: boolean; limit?: RateLimitResult }> {
      const windowStart = new Date(Math.floor((opts.now ?? Date.now()) / WINDOW_MS) * WINDOW_MS);
      // A named (prepared) statement: each connection parses and plans it once, not per request.
      const { rows } = await db
        .raw('select key, workspace, allowed, counts, search from authenticate_key(?, ?, ?)', [keyHash, windowStart, opts.searchId ?? null])
        .options({ name: 'authenticate_key' });
      const row = rows[0] as {
        key: Record<string, unknown> | null;
        workspace: Record<string, unknown>;
        allowed: boolean | null;
        counts: number[] | null;
        search: { status: SearchVersion['status']; updated_at: string } | null;
      };
      if (!row.key) return { usable: false };
      const { credential_providers: credentialProviders, ...workspace } = row.workspace;
      const found: KeyWithWorkspace = {
        ...reviveKeyWithWorkspace(row.key, workspace),
        credentialProviders: credentialProviders as string[] | undefined,
        ...(opts.searchId === undefined ? {} : { searchVersion: row.search && { status: row.search.status, updated_at: new Date(row.search.updated_at) } }),
      };
      if (row.allowed === null) return { found, usable: false };
      const buckets = [
        { name: 'key', limit: found.key.rate_limit_per_minute },
        { name: 'workspace', limit: found.workspace.rate_limit_per_minute },
      ];
      return {
        found,
        usable: true,
        limit: { allowed: row.allowed, ...tightest(buckets, row.counts!), reset: Math.floor(windowStart.getTime() / 1000) + WINDOW_MS / 1000 },
      };
    },
    /** Windows older than a few minutes are never read again. */
    async pruneOld(now = Date.now()): Promise<void> {
      await db('rate_limit_windows')
        .where('window_start', '<', new Date(now - 5 * WINDOW_MS))
        .delete();
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
