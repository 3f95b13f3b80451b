import type { Knex } from 'knex';

/**
 * Orders for the built-in data searches that an index can walk, so a common term stops after
 * limit+offset matches instead of ranking every match (issue 13):
 * - people, freshest profile first (updated_at desc, id), alone or within one metro, country or
 *   company; the (metro …) and (country …) indexes serve plain equality as the single-column ones
 *   they replace did;
 * - web pages: undated pages (company sites) through a small partial GIN index, then dated pages
 *   newest first along a partial btree.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index people_updated_idx on people (updated_at desc, id)');
  await knex.raw('create index people_metro_updated_idx on people (metro, updated_at desc, id)');
  await knex.raw('create index people_country_updated_idx on people (country, updated_at desc, id)');
  await knex.raw('create index people_company_updated_idx on people (lower(company), updated_at desc, id)');
  await knex.raw('drop index people_metro_idx');
  await knex.raw('drop index people_country_idx');
  await knex.raw('create index web_pages_dated_idx on web_pages (published_at desc, id) where published_at is not null');
  await knex.raw('create index web_pages_undated_search_idx on web_pages using gin (search_vector) where published_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('create index people_metro_idx on people (metro)');
  await knex.raw('create index people_country_idx on people (country)');
  for (const ix of [
    'people_updated_idx',
    'people_metro_updated_idx',
    'people_country_updated_idx',
    'people_company_updated_idx',
    'web_pages_dated_idx',
    'web_pages_undated_search_idx',
  ])
    await knex.raw('drop index ??', [ix]);
}
