import type { Db } from './knex';

/**
 * Downstream limits shared by every process (DESIGN.md §9), as rows rather than advisory locks:
 * a session lock would pin a pooled connection for the whole vendor call, while a leased row
 * holds none and frees itself when its lease ends, so a killed process cannot keep a slot.
 */
export function providerLimitsRepository(db: Db) {
  return {
    /** Creates slot rows 0..count-1 of a provider (idempotent). */
    async ensureSlots(provider: string, count: number): Promise<void> {
      const rows = Array.from({ length: count }, (_, slot) => ({ provider, slot }));
      await db('provider_slots').insert(rows).onConflict(['provider', 'slot']).ignore();
    },
    /** Leases a free (or expired) slot below `limit`; null when all are held. One round trip. */
    async takeSlot(provider: string, limit: number, holder: string, leaseMs: number): Promise<number | null> {
      const { rows } = await db.raw(
        `update provider_slots s set holder = ?, expires_at = clock_timestamp() + make_interval(secs => ?)
          where (s.provider, s.slot) = (
            select provider, slot from provider_slots
             where provider = ? and slot < ? and (holder is null or expires_at < clock_timestamp())
             order by slot limit 1 for update skip locked)
          returning s.slot`,
        [holder, leaseMs / 1000, provider, limit],
      );
      return rows.length ? (rows[0].slot as number) : null;
    },
    async releaseSlot(provider: string, slot: number, holder: string): Promise<void> {
      await db('provider_slots').where({ provider, slot, holder }).update({ holder: null, expires_at: null });
    },
    /**
     * Books the next start time of a provider paced at one call per `intervalMs`, unless that time
     * is more than `maxWaitMs` away. Answers how long to wait before calling, or null (no booking).
     */
    async bookStart(provider: string, intervalMs: number, maxWaitMs: number): Promise<number | null> {
      const { rows } = await db.raw(
        `insert into provider_pacing as p (provider, next_at) values (?, clock_timestamp() + make_interval(secs => ?))
         on conflict (provider) do update set next_at = greatest(p.next_at, clock_timestamp()) + make_interval(secs => ?)
          where greatest(p.next_at, clock_timestamp()) <= clock_timestamp() + make_interval(secs => ?)
         returning greatest(0, extract(epoch from (p.next_at - make_interval(secs => ?) - clock_timestamp())) * 1000)::float8 as wait_ms`,
        [provider, intervalMs / 1000, intervalMs / 1000, maxWaitMs / 1000, intervalMs / 1000],
      );
      return rows.length ? Number(rows[0].wait_ms) : null;
    },
    /** Milliseconds until the provider's next free start (for Retry-After). */
    async nextStartIn(provider: string): Promise<number> {
      const { rows } = await db.raw(
        `select greatest(0, extract(epoch from (next_at - clock_timestamp())) * 1000)::float8 as ms from provider_pacing where provider = ?`,
        [provider],
      );
      return rows.length ? Number(rows[0].ms) : 0;
    },
  };
}
