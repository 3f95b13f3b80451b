import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('url').notNullable();
    // Event types, or ["*"] for every type including ones added later.
    t.jsonb('events').notNullable();
    // AES-256-GCM under SECRETS_KEY; the plain secret is shown once, at creation.
    t.text('secret_ciphertext').notNullable();
    t.text('secret_last4').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    // Abandoned deliveries in a row; 20 turns the endpoint off, a delivered one resets it.
    t.integer('consecutive_abandons').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id', 'created_at']);
  });

  // One row per (event, endpoint): a repeated fan-out inserts nothing and starts nothing twice.
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    t.text('event_id').notNullable().references('outbox_events.id').onDelete('CASCADE');
    t.text('status').notNullable().checkIn(['pending', 'delivered', 'failed', 'abandoned']).defaultTo('pending');
    t.integer('attempt_count').notNullable().defaultTo(0);
    t.timestamp('next_retry_at', { useTz: true });
    t.integer('last_status_code');
    t.text('last_error');
    // Manual redeliveries of a finished delivery so far: numbers their workflow ids.
    t.integer('redeliveries').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true });
    t.unique(['event_id', 'endpoint_id']);
    t.index(['endpoint_id', 'created_at']);
  });

  await knex.schema.createTable('webhook_delivery_attempts', (t) => {
    t.uuid('id').primary();
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.integer('number').notNullable();
    // `<workflow id>#<step>`: a retried attempt activity finds its own row instead of posting again.
    t.text('attempt_key').notNullable().unique();
    t.text('trigger').notNullable().checkIn(['scheduled', 'redeliver']);
    t.integer('status_code');
    t.text('error');
    t.integer('duration_ms').notNullable();
    t.text('response_excerpt');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['delivery_id', 'number']);
  });

  // Wakes the outbox dispatcher as soon as an event commits (NOTIFY is delivered on commit).
  await knex.raw(`
    create function outbox_events_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('outbox_events', '');
      return null;
    end $$`);
  await knex.raw('create trigger outbox_events_notify after insert on outbox_events for each statement execute function outbox_events_notify()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists outbox_events_notify on outbox_events');
  await knex.raw('drop function if exists outbox_events_notify()');
  for (const table of ['webhook_delivery_attempts', 'webhook_deliveries', 'webhook_endpoints']) await knex.schema.dropTable(table);
}
