import type { Knex } from 'knex';
import { ROLE_FAMILIES } from '../src/reference/taxonomy';

/** The session API (DESIGN.md §10): users, memberships, sessions, credentials, role families, campaigns. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary();
    // Stored lower-cased and trimmed, so sign-in is case-insensitive.
    t.text('email').notNullable().unique();
    t.text('password_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('memberships', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('role').notNullable().checkIn(['admin', 'operator', 'viewer']);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'workspace_id']);
    t.index(['workspace_id']);
  });

  // Only the SHA-256 of the cookie token is stored: a database leak yields no usable session.
  await knex.schema.createTable('sessions', (t) => {
    t.uuid('id').primary();
    t.text('token_hash').notNullable().unique();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // The active workspace; switched with POST /api/me/workspace.
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['user_id']);
  });

  // Failed sign-ins per email, counted over a sliding 15-minute window (throttling).
  await knex.schema.createTable('sign_in_failures', (t) => {
    t.bigIncrements('id');
    t.text('email').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['email', 'created_at']);
  });

  await knex.schema.createTable('credentials', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('provider').notNullable().checkIn(['peopledatalabs', 'brave', 'openai', 'hunter']);
    t.text('label').notNullable().defaultTo('default');
    // AES-256-GCM under SECRETS_KEY, the credential id bound as associated data.
    t.text('key_ciphertext').notNullable();
    t.text('key_hint').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('verified_at', { useTz: true });
    t.text('verify_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('retired_at', { useTz: true });
    t.index(['workspace_id', 'provider']);
  });
  // At most one active credential per (workspace, provider, label): rotation retires the old one first.
  await knex.raw('create unique index credentials_one_active on credentials (workspace_id, provider, label) where is_active');

  await knex.schema.createTable('role_families', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('family_id').notNullable();
    t.text('label').notNullable();
    t.primary(['workspace_id', 'family_id']);
  });
  // Backfill: every existing workspace gets the reference families new workspaces are seeded with.
  const workspaces: { id: string }[] = await knex('workspaces').select('id');
  for (const w of workspaces) {
    await knex('role_families').insert(ROLE_FAMILIES.map((f) => ({ workspace_id: w.id, family_id: f.id, label: f.label })));
  }

  await knex.schema.createTable('campaigns', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('project_id').references('projects.id').onDelete('SET NULL');
    t.text('name').notNullable();
    t.text('channel').notNullable().checkIn(['email', 'social']);
    t.text('status').notNullable().checkIn(['draft', 'awaiting_launch', 'launched']).defaultTo('draft');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('published_at', { useTz: true });
    t.timestamp('launched_at', { useTz: true });
    t.index(['workspace_id', 'created_at']);
  });

  // GET /api/scans: a workspace's newest searches across projects.
  await knex.raw('create index searches_workspace_newest_idx on searches (workspace_id, created_at desc)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists searches_workspace_newest_idx');
  for (const table of ['campaigns', 'role_families', 'credentials', 'sign_in_failures', 'sessions', 'memberships', 'users']) await knex.schema.dropTable(table);
}
