import type { Knex } from 'knex';

/**
 * Profiles (2–3 kB of jsonb) sat just over the default TOAST threshold, so every insert ran pglz
 * over the value (a fifth of Postgres's time in a corpus load, measured with perf) and every read
 * of a profile decompressed it again. Keeping rows up to a page inline and uncompressed trades
 * some disk for both; bigger profiles are still moved out of line as before. Affects rows
 * written from now on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table people_profiles set (toast_tuple_target = 8160)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table people_profiles reset (toast_tuple_target)');
}
