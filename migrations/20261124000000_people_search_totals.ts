import type { Knex } from 'knex';
import { applySqlSources } from '../src/db/sql-sources';

/**
 * Cached `total`s of data people searches (src/db/people-data.repository.ts). Counting the matches
 * of a common filter up to 10,000 is the whole cost of a search (the page itself walks an index
 * and stops after a few rows), and a client paging through results asks the same filter again
 * and again. A total is kept per filter under the people table's revision, which a statement
 * trigger bumps with every write to people (corpus loads, live-search profiles), so a cached
 * total is never the count of another set of people. The cache table is unlogged: losing it in a
 * crash only means counting again.
 *
 * web_pages gets parallel_workers = 0: its search reads a UNION ALL's parts in order under one
 * LIMIT (src/db/web-pages.repository.ts), which a Parallel Append would interleave; its searches
 * are index walks a parallel plan never speeds up.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table people_revision (id boolean primary key default true check (id), revision bigint not null)`);
  await knex.raw(`insert into people_revision (revision) values (0)`);
  await applySqlSources(knex, ['people-revision-bump']);
  await knex.raw(`create trigger people_revision_bump after insert or update or delete on people for each statement execute function people_revision_bump()`);
  await knex.raw(`create trigger people_revision_truncate after truncate on people for each statement execute function people_revision_bump()`);
  await knex.raw(`create unlogged table people_search_totals (filter_key text primary key, revision bigint not null, total integer not null)`);
  await knex.raw(`create index people_search_totals_revision_idx on people_search_totals (revision)`);
  await knex.raw(`alter table web_pages set (parallel_workers = 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table web_pages reset (parallel_workers)`);
  await knex.raw('drop table people_search_totals');
  await knex.raw('drop trigger people_revision_truncate on people');
  await knex.raw('drop trigger people_revision_bump on people');
  await knex.raw('drop function people_revision_bump()');
  await knex.raw('drop table people_revision');
}
