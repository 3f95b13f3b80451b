import type { Knex } from 'knex';

/** Billing (DESIGN.md §8): plans as data, top-ups, Stripe event dedupe, cost events, request counts. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plans', (t) => {
    t.text('name').primary();
    // null: the plan cannot buy credits (trial: 402 plan_required on top-up).
    t.decimal('usd_per_credit', 10, 2);
    t.integer('max_concurrent_searches').notNullable();
    t.integer('max_daily_searches').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
  });
  await knex('plans').insert([
    { name: 'trial', usd_per_credit: null, max_concurrent_searches: 1, max_daily_searches: 20, active: true },
    { name: 'starter', usd_per_credit: '4.00', max_concurrent_searches: 3, max_daily_searches: 500, active: true },
    { name: 'growth', usd_per_credit: '3.00', max_concurrent_searches: 5, max_daily_searches: 2000, active: true },
    { name: 'enterprise', usd_per_credit: '2.00', max_concurrent_searches: 10, max_daily_searches: 10000, active: true },
  ]);

  await knex.schema.createTable('top_ups', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('api_key_id');
    t.text('request_id');
    t.text('plan').notNullable();
    t.decimal('amount_usd', 12, 2).notNullable();
    t.decimal('usd_per_credit', 10, 2).notNullable();
    t.integer('shortlists').notNullable();
    t.text('bucket').notNullable().checkIn(['workspace', 'contract_pool']);
    t.text('provider').notNullable().checkIn(['test', 'stripe']);
    t.boolean('test_mode').notNullable();
    // open → paid (payment recorded; credits granted by the workflow) or open → expired.
    t.text('status').notNullable().defaultTo('open').checkIn(['open', 'paid', 'expired']);
    t.text('checkout_url').notNullable();
    // The test provider's checkout page token; stripe top-ups carry the Checkout Session id instead.
    t.text('checkout_token').unique();
    t.text('provider_ref');
    t.text('workflow_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('granted_at', { useTz: true });
    t.timestamp('expired_at', { useTz: true });
    t.index(['workspace_id', 'created_at']);
  });

  // Stripe delivers at least once: an event id seen before is acknowledged and ignored.
  await knex.schema.createTable('stripe_events', (t) => {
    t.text('id').primary();
    t.text('type').notNullable();
    t.uuid('top_up_id');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // One row per billed effect, written in the effect's transaction (GET /usage/costs).
  await knex.schema.createTable('cost_events', (t) => {
    t.uuid('id').primary();
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('request_id');
    t.text('action').notNullable();
    t.uuid('key_id');
    t.integer('credits').notNullable().defaultTo(0);
    t.decimal('usd', 12, 4).notNullable().defaultTo(0);
    t.integer('units').notNullable().defaultTo(1);
    t.text('provider');
    // The ledger key of the effect: a retried refund writes its cost event once.
    t.text('unique_key').unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.index(['workspace_id', 'created_at']);
    t.index(['workspace_id', 'request_id']);
  });

  // Request counts per workspace, UTC day and operation, flushed in batches by each API process.
  await knex.schema.createTable('usage_counts', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.text('action').notNullable();
    t.bigInteger('requests').notNullable();
    t.primary(['workspace_id', 'day', 'action']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['usage_counts', 'cost_events', 'stripe_events', 'top_ups', 'plans']) await knex.schema.dropTable(table);
}
