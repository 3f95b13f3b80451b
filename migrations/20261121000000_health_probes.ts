import type { Knex } from 'knex';

// Worker health probes: the API records a request, a workflow's activity on the worker completes it.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pgcrypto');
  await knex.schema.createTable('health_probes', (t) => {
    t.uuid('id').primary();
    t.timestamp('requested_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.text('worker_identity');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('health_probes');
}
