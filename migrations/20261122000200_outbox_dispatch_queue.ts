import type { Knex } from 'knex';

/**
 * The task queue whose workers fan an event out: taken from the writing connection's
 * `sourcing.task_queue` setting (src/db/knex.ts sets it at connect). One deployment has one queue,
 * so nothing changes there; stacks on other queues that share a database (the test suite's, or a
 * staging worker pointed at the same Postgres) no longer claim each other's events and deliver
 * them with the wrong settings. Null (a writer without a queue, e.g. the CLI) is any dispatcher's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table outbox_events add column dispatch_queue text default nullif(current_setting('sourcing.task_queue', true), '')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table outbox_events drop column dispatch_queue');
}
