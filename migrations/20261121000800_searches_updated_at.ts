import type { Knex } from 'knex';

/**
 * searches.updated_at changes with every change of the search row, and every change of a
 * search's people also updates its row (counters, criteria, status) in the same transaction, so
 * (id, updated_at) identifies one version of a search's results: the API caches people pages by it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table searches add column updated_at timestamptz not null default clock_timestamp()`);
  await knex.raw(`
    create or replace function searches_touch() returns trigger language plpgsql as $$
    begin
      new.updated_at := clock_timestamp();
      return new;
    end $$`);
  await knex.raw('create trigger searches_touch before update on searches for each row execute function searches_touch()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists searches_touch on searches');
  await knex.raw('drop function if exists searches_touch()');
  await knex.raw('alter table searches drop column updated_at');
}
