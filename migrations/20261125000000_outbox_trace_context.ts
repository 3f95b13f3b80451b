import type { Knex } from 'knex';

/**
 * The trace context (W3C `traceparent`, `tracestate`) of the request or activity that wrote an
 * event, so its webhook deliveries continue that trace (src/tracing). Null when the writer was not
 * in a trace (tracing off, the operator CLI).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table outbox_events add column trace_context jsonb');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table outbox_events drop column trace_context');
}
