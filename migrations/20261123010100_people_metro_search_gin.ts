import type { Knex } from 'knex';

/**
 * Counting a data search's matches within a metro (`total`, up to 10,000) through one GIN scan
 * over (metro, search_vector): the scan intersects the metro's and the terms' posting lists
 * itself, skipping ahead in the long ones, where a BitmapAnd of the search_vector GIN index and a
 * metro btree read every entry of both (a common word has 300k). btree_gin supplies the text
 * operator class; it is a trusted extension.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists btree_gin');
  await knex.raw('create index people_metro_search_idx on people using gin (metro, search_vector)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index people_metro_search_idx');
}
