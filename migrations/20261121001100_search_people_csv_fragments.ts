import type { Knex } from 'knex';

/** RFC 4180 quoting in SQL, the same rule as csvField in src/domain/csv.ts. */
const q = (expr: string) => `(case when ${expr} ~ '[",\r\n]' then '"' || replace(${expr}, '"', '""') || '"' else coalesce(${expr}, '') end)`;

/**
 * The Records CSV fragments of a search person, computed when the row is written (a trigger, on
 * insert and whenever summary or profile change) instead of at every export: an export then only
 * joins stored text, so its speed no longer depends on unpacking each profile's JSON
 * (bench/searches.bench.ts, records.csv of 100k rows). Columns of RECORD_COLUMNS:
 *  - csv_person: first_name … summary (9 columns, from the result-page summary);
 *  - csv_profile: about … connections (8 columns, empty for people not read).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table search_people add column csv_person text, add column csv_profile text`);
  await knex.raw(`
    create function search_people_csv() returns trigger language plpgsql as $$
    begin
      -- Re-scoring rewrites profile with its own value: nothing to rebuild then.
      if tg_op = 'UPDATE' and new.summary is not distinct from old.summary and new.profile is not distinct from old.profile then
        return new;
      end if;
      new.csv_person := concat_ws(',',
        ${q("(new.summary->>'first_name')")}, ${q("(new.summary->>'last_name')")}, ${q("(new.summary->>'title')")}, ${q("(new.summary->>'company')")},
        ${q("(new.summary->>'location')")}, ${q("(new.summary->>'network_url')")},
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
  await knex.raw(
    'create trigger search_people_csv before insert or update of summary, profile on search_people for each row execute function search_people_csv()',
  );
  await knex.raw('update search_people set summary = summary');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists search_people_csv on search_people');
  await knex.raw('drop function if exists search_people_csv()');
  await knex.raw('alter table search_people drop column csv_person, drop column csv_profile');
}
