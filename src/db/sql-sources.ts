import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

/**
 * The database's own functions (PL/pgSQL and SQL), one `create or replace` statement per file in
 * src/db/sql/. The build copies the folder next to the compiled code (package.json "build").
 */
export const SQL_SOURCES = [
  'outbox-events-notify',
  'rate-limit-hit',
  'authenticate-key',
  'searches-touch',
  'webhook-attempt-context',
  'record-webhook-attempt',
  'csv-cell',
  'csv-field',
  // The records CSV fragments (migrations 1100 and 20261125000000 apply them; 20261125000300 drops
  // them for the cells below): kept so those migrations keep meaning what they did.
  'search-people-csv-person',
  'search-people-csv-profile',
  'search-people-csv',
  'search-people-csv-person-cells',
  'search-people-csv-profile-cells',
  'search-people-csv-cells',
  'people-revision-bump',
] as const;

export type SqlSource = (typeof SQL_SOURCES)[number];

export function readSqlSource(name: SqlSource): string {
  return fs.readFileSync(path.join(__dirname, 'sql', `${name}.sql`), 'utf8');
}

/** (Re)creates the named functions from their sources; each statement is `create or replace`, so applying again is harmless. */
export async function applySqlSources(knex: Knex, names: readonly SqlSource[]): Promise<void> {
  for (const name of names) await knex.raw(readSqlSource(name));
}
