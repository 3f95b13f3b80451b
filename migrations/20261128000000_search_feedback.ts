import type { Knex } from 'knex';

/**
 * Feedback and calibration (DESIGN.md §13):
 * - search_feedback: a recruiter's latest verdict on a person of a search (one row per search and
 *   candidate, so a later verdict replaces an earlier one), scoped to the workspace like every
 *   record of a search.
 * - searches.calibration: what the search learned from them (src/ranking/calibration.ts).
 * - search_passes.kind gains `calibration`: the pass that reads on under what was learned. The
 *   allowed kinds are read from the constraint as it is, so kinds another migration added stay.
 */

const kindConstraints = async (knex: Knex): Promise<{ conname: string; def: string }[]> =>
  (
    await knex.raw(
      `select conname, pg_get_constraintdef(oid) as def from pg_constraint
        where conrelid = 'search_passes'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%kind%'`,
    )
  ).rows;

async function setKinds(knex: Knex, change: (kinds: Set<string>) => void): Promise<void> {
  const kinds = new Set<string>();
  for (const c of await kindConstraints(knex)) {
    for (const m of c.def.matchAll(/'([a-z_]+)'/g)) kinds.add(m[1]);
    await knex.raw(`alter table search_passes drop constraint "${c.conname}"`);
  }
  change(kinds);
  // Kinds match /^[a-z_]+$/ (above), so they can be written into the DDL, which takes no bindings.
  const list = [...kinds].map((k) => `'${k}'`).join(', ');
  await knex.raw(`alter table search_passes add constraint search_passes_kind_check check (kind in (${list}))`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('search_feedback', (t) => {
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('search_id').notNullable().references('searches.id').onDelete('CASCADE');
    t.uuid('candidate_id').notNullable().references('candidates.id').onDelete('CASCADE');
    t.text('verdict').notNullable().checkIn(['good', 'bad']);
    t.specificType('reasons', 'text[]').notNullable().defaultTo('{}');
    t.text('note');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['search_id', 'candidate_id']);
    t.index(['workspace_id']);
  });
  await knex.schema.alterTable('searches', (t) => {
    t.jsonb('calibration');
  });
  await setKinds(knex, (kinds) => {
    for (const k of ['launch', 'expansion', 'database_pass', 'calibration']) kinds.add(k);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('search_passes').where({ kind: 'calibration' }).delete();
  await setKinds(knex, (kinds) => kinds.delete('calibration'));
  await knex.schema.alterTable('searches', (t) => {
    t.dropColumn('calibration');
  });
  await knex.schema.dropTable('search_feedback');
}
