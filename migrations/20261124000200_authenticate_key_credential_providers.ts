import type { Knex } from 'knex';
import { applySqlSources } from '../src/db/sql-sources';

/**
 * authenticate_key also names the providers the key's workspace has an active credential for
 * (inside its workspace object, so the function's signature is unchanged): a data call answered by
 * a built-in source no longer reads the credentials table in a round trip of its own.
 */
export async function up(knex: Knex): Promise<void> {
  await applySqlSources(knex, ['authenticate-key']);
}

/** The same results with one more workspace field; there is nothing to undo. */
export async function down(): Promise<void> {}
