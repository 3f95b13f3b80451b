import type { Db } from './knex';

export interface CircuitRow {
  pool: string;
  failures: number;
  open_until: Date | null;
}

/**
 * Circuit-breaker state per provider endpoint (`provider_circuits`), shared by all processes.
 * Each change is one statement, so concurrent callers never lose a count.
 */
export function circuitBreakerRepository(db: Db) {
  return {
    /** True while the circuit is open (its open_until lies ahead). */
    async isOpen(pool: string): Promise<boolean> {
      const row = await db('provider_circuits').where({ pool }).andWhere('open_until', '>', db.fn.now()).first('pool');
      return row !== undefined;
    },
    find(pool: string): Promise<CircuitRow | undefined> {
      return db('provider_circuits').where({ pool }).first('pool', 'failures', 'open_until');
    },
    /**
     * Counts one more consecutive failure; at `threshold` or more the circuit opens (again) for
     * `openMs`, so a failed trial call after the open period re-opens it at once.
     */
    async recordFailure(pool: string, threshold: number, openMs: number): Promise<CircuitRow> {
      const { rows } = await db.raw(
        `insert into provider_circuits as c (pool, failures, open_until, updated_at)
              values (?, 1, case when 1 >= ? then clock_timestamp() + make_interval(secs => ?) end, clock_timestamp())
         on conflict (pool) do update set
              failures = c.failures + 1,
              open_until = case when c.failures + 1 >= ? then clock_timestamp() + make_interval(secs => ?) else c.open_until end,
              updated_at = clock_timestamp()
         returning pool, failures, open_until`,
        [pool, threshold, openMs / 1000, threshold, openMs / 1000],
      );
      return rows[0] as CircuitRow;
    },
    /** A call went through: the failure count starts again and the circuit closes. */
    async recordSuccess(pool: string): Promise<void> {
      await db('provider_circuits')
        .where({ pool })
        .andWhere((q) => q.where('failures', '>', 0).orWhereNotNull('open_until'))
        .update({ failures: 0, open_until: null, updated_at: db.fn.now() });
    },
  };
}
