import type { Knex } from 'knex';

/**
 * A Stripe payment event whose Checkout Session does not match its top-up (another session, amount
 * or currency, or a top-up not made with Stripe) grants nothing; why is kept on the event's row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('stripe_events', (t) => {
    t.text('refusal');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('stripe_events', (t) => {
    t.dropColumn('refusal');
  });
}
