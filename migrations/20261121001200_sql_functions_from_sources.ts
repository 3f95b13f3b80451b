import type { Knex } from 'knex';
import { applySqlSources, SQL_SOURCES } from '../src/db/sql-sources';

/**
 * From here on the database functions' source lives in src/db/sql/*.sql (one `create or replace`
 * each) and migrations apply it. The earlier migrations keep their inline copies on purpose: a
 * migration that was applied must keep meaning what it did, so they are the frozen history and
 * this one re-creates every function from its source (identical today). Changing a function means
 * editing its .sql file and adding a migration that calls applySqlSources with its name, so
 * existing databases get the change and fresh ones end in the same state.
 */
export async function up(knex: Knex): Promise<void> {
  await applySqlSources(knex, SQL_SOURCES);
}

/** Nothing to undo: the functions are what migrations 0400–1100 created; their downs drop them. */
export async function down(): Promise<void> {}
