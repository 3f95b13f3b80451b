import type { Db } from './knex';

export interface PlanRow {
  name: string;
  /** Decimal string; null for plans that cannot buy credits (trial). */
  usd_per_credit: string | null;
  max_concurrent_searches: number;
  max_daily_searches: number;
  active: boolean;
  /** USD per data call by price name (DESIGN.md §9), e.g. `{"people_search": 0.02}`. */
  data_prices: Record<string, number>;
}

/** Plans are data (seeded by the billing migration): their credit price and limits. */
export function planRepository(db: Db) {
  return {
    find(name: string): Promise<PlanRow | undefined> {
      return db('plans').where({ name }).first();
    },
    list(): Promise<PlanRow[]> {
      return db('plans').orderBy('name');
    },
  };
}
