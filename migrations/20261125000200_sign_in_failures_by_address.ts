import type { Knex } from 'knex';

/**
 * Sign-in failures also count per client address and across all accounts (password spraying: a
 * different email each time never reaches the per-email lockout). Rows of failures made before
 * this have no address and count only per email and globally.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sign_in_failures', (t) => {
    t.text('ip');
    t.index(['ip', 'created_at']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sign_in_failures', (t) => {
    t.dropIndex(['created_at']);
    t.dropIndex(['ip', 'created_at']);
    t.dropColumn('ip');
  });
}
