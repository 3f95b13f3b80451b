import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspaces', (t) => {
    t.uuid('id').primary();
    t.text('name').notNullable();
    // null: no plan (402 plan_required); inactive or expired: 402 no_active_plan.
    t.text('plan');
    t.boolean('plan_active').notNullable().defaultTo(true);
    t.timestamp('plan_expires_at', { useTz: true });
    t.boolean('api_access_enabled').notNullable().defaultTo(true);
    t.boolean('frozen').notNullable().defaultTo(false);
    t.integer('rate_limit_per_minute').notNullable().defaultTo(600);
    t.integer('max_concurrent_searches').notNullable().defaultTo(3);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    // sha256 of the raw key: keys carry 256 bits of randomness, so a fast hash is enough.
    t.text('key_hash').notNullable().unique();
    t.text('key_hint').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.text('funding_mode').notNullable().checkIn(['workspace', 'contract_pool']);
    t.text('environment').notNullable().checkIn(['live', 'test']);
    t.integer('rate_limit_per_minute').notNullable().defaultTo(120);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.index(['workspace_id']);
  });

  await knex.schema.createTable('projects', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    // The project's one share link, made with the project (used by the shortlist issue).
    t.text('share_token').notNullable().unique();
    t.timestamp('share_expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'created_at']);
  });

  // Append-only: a balance is the sum of its bucket's rows. unique_key makes a retried
  // reserve/refund/grant a no-op instead of a double entry.
  await knex.schema.createTable('credit_ledger', (t) => {
    t.bigIncrements('id');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('bucket').notNullable().checkIn(['workspace', 'contract_pool']);
    t.integer('delta').notNullable();
    t.text('reason').notNullable();
    t.text('unique_key').unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'bucket']);
  });

  // Fixed one-minute windows shared by every API process.
  await knex.schema.createTable('rate_limit_windows', (t) => {
    t.text('bucket').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable();
    t.primary(['bucket', 'window_start']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['rate_limit_windows', 'credit_ledger', 'projects', 'api_keys', 'workspaces']) await knex.schema.dropTable(table);
}
