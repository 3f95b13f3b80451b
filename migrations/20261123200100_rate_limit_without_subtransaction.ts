import type { Knex } from 'knex';
import { applySqlSources } from '../src/db/sql-sources';

/**
 * rate_limit_hit gives back a refused call's counts itself instead of through an exception block,
 * so the hot path (every API request) no longer opens a subtransaction (src/db/sql/rate-limit-hit.sql).
 */
export async function up(knex: Knex): Promise<void> {
  await applySqlSources(knex, ['rate-limit-hit']);
}

/** The function keeps the same signature and results; there is nothing to undo. */
export async function down(): Promise<void> {}
