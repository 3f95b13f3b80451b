import type { Knex } from 'knex';
import { applySqlSources } from '../src/db/sql-sources';

/**
 * CSV cells that start like a formula (=, +, -, @, tab, CR) are written with a leading ' (OWASP):
 * csv_cell and csv_field, and the records CSV fragments built with them (src/db/sql/*.sql).
 * Fragments stored before are rebuilt where a field may start so (a field starts the fragment or
 * follows a comma, quoted or not; a comma inside a quoted field only costs a needless rebuild).
 */
export async function up(knex: Knex): Promise<void> {
  await applySqlSources(knex, ['csv-cell', 'csv-field', 'search-people-csv-person', 'search-people-csv-profile', 'search-people-csv']);
  await knex.raw(
    `update search_people set csv_person = search_people_csv_person(summary), csv_profile = search_people_csv_profile(profile)
      where csv_person ~ '(^|,)"?[=+@\\t\\r-]' or csv_profile ~ '(^|,)"?[=+@\\t\\r-]'`,
  );
}

/** The trigger as migration 1100 wrote it (RFC 4180 quoting alone), then the new functions go. */
export async function down(knex: Knex): Promise<void> {
  const q = (expr: string) => `(case when ${expr} ~ '[",\\r\\n]' then '"' || replace(${expr}, '"', '""') || '"' else coalesce(${expr}, '') end)`;
  const fields = (source: string, names: string[]) => names.map((n) => q(`(${source}->>'${n}')`));
  await knex.raw(`
    create or replace function search_people_csv() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and new.summary is not distinct from old.summary and new.profile is not distinct from old.profile then
        return new;
      end if;
      new.csv_person := concat_ws(',', ${fields('new.summary', ['first_name', 'last_name', 'title', 'company', 'location', 'network_url']).join(', ')},
        case when (new.summary->>'open_profile')::boolean then 'yes' else 'no' end,
        case when (new.summary->>'premium')::boolean then 'yes' else 'no' end,
        ${q("(new.summary->>'summary')")});
      new.csv_profile := concat_ws(',',
        ${q("(new.profile->>'about')")},
        ${q(`(select string_agg(format('%s, %s (%s – %s)', e->>'title', e->>'company', e->>'start', coalesce(e->>'end', 'present')), ' | ' order by o)
               from jsonb_array_elements(new.profile->'experience') with ordinality as x(e, o))`)},
        ${q(`(select string_agg(format('%s %s, %s (%s–%s)', e->>'degree', e->>'field', e->>'school', e->>'start_year', e->>'end_year'), ' | ' order by o)
               from jsonb_array_elements(new.profile->'education') with ordinality as x(e, o))`)},
        ${q(`(select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'skills') with ordinality as x(v, o))`)},
        ${q(`(select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'certifications') with ordinality as x(v, o))`)},
        ${q(`(select string_agg(v, '; ' order by o) from jsonb_array_elements_text(new.profile->'languages') with ordinality as x(v, o))`)},
        ${q(`(select string_agg(format('%s: %s', e->>'name', e->>'description'), ' | ' order by o)
               from jsonb_array_elements(new.profile->'projects') with ordinality as x(e, o))`)},
        coalesce(new.profile->>'connections', ''));
      return new;
    end $$`);
  for (const fn of ['search_people_csv_profile(jsonb)', 'search_people_csv_person(jsonb)', 'csv_field(text)', 'csv_cell(text)'])
    await knex.raw(`drop function if exists ${fn}`);
}
