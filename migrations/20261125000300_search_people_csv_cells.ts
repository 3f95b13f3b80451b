import type { Knex } from 'knex';
import { applySqlSources } from '../src/db/sql-sources';

/** The Records CSV columns after page and candidate_id, each stored as csv_<name> (RECORD_COLUMNS order). */
const PERSON_CELLS = ['first_name', 'last_name', 'title', 'company', 'location', 'network_url', 'open_profile', 'premium', 'summary'];
const PROFILE_CELLS = ['about', 'experience_history', 'education', 'skills', 'certifications', 'languages', 'projects', 'connections'];
const columns = (names: string[]) => names.map((n) => `csv_${n}`).join(', ');

/**
 * records.csv becomes one `COPY … TO STDOUT WITH CSV` streamed through the response (issue 26):
 * the two pre-quoted fragments per row (migration 1100), which COPY would quote again, give way to
 * one stored column per cell, formula-neutralised by csv_cell, which COPY quotes itself. Stored,
 * not computed at export: building the profile cells in the COPY query made it about 30× slower,
 * and csv_cell over 17 columns at export about 1.5× (measured on a 100k-row search).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table search_people ${[...PERSON_CELLS, ...PROFILE_CELLS].map((n) => `add column csv_${n} text`).join(', ')}`);
  await applySqlSources(knex, ['search-people-csv-person-cells', 'search-people-csv-profile-cells', 'search-people-csv-cells']);
  await knex.raw('drop trigger search_people_csv on search_people');
  await knex.raw(
    'create trigger search_people_csv_cells before insert or update of summary, profile on search_people for each row execute function search_people_csv_cells()',
  );
  await knex.raw(`
    update search_people sp
       set (${columns(PERSON_CELLS)}) = (select * from search_people_csv_person_cells(sp.summary)),
           (${columns(PROFILE_CELLS)}) = (select * from search_people_csv_profile_cells(sp.profile))`);
  await knex.raw('alter table search_people drop column csv_person, drop column csv_profile');
  for (const fn of ['search_people_csv()', 'search_people_csv_person(jsonb)', 'search_people_csv_profile(jsonb)']) await knex.raw(`drop function ${fn}`);
}

/** Back to the fragments of migration 20261125000000. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table search_people add column csv_person text, add column csv_profile text');
  await applySqlSources(knex, ['search-people-csv-person', 'search-people-csv-profile', 'search-people-csv']);
  await knex.raw('drop trigger search_people_csv_cells on search_people');
  await knex.raw(
    'create trigger search_people_csv before insert or update of summary, profile on search_people for each row execute function search_people_csv()',
  );
  await knex.raw('update search_people set csv_person = search_people_csv_person(summary), csv_profile = search_people_csv_profile(profile)');
  await knex.raw(`alter table search_people ${[...PERSON_CELLS, ...PROFILE_CELLS].map((n) => `drop column csv_${n}`).join(', ')}`);
  for (const fn of ['search_people_csv_cells()', 'search_people_csv_person_cells(jsonb)', 'search_people_csv_profile_cells(jsonb)'])
    await knex.raw(`drop function ${fn}`);
}
