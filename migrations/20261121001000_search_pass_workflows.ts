import type { Knex } from 'knex';

/**
 * Each pass records the id of the workflow that runs it (known when the pass is booked) and when
 * that workflow was started. A pass booked while Temporal was unreachable (the API answered 503)
 * or whose API process died before starting it is found by the stranded-pass sweep
 * (src/searches/recovery.ts), which starts it: its credit is already reserved.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table search_passes add column workflow_id text, add column workflow_started_at timestamptz');
  // Passes from before this migration were started by the API; the sweep leaves them alone.
  await knex.raw('update search_passes set workflow_started_at = created_at');
  await knex.raw('create index search_passes_unstarted_idx on search_passes (created_at) where workflow_started_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists search_passes_unstarted_idx');
  await knex.raw('alter table search_passes drop column workflow_started_at, drop column workflow_id');
}
