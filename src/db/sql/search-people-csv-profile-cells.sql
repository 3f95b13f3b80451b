-- Records CSV cells about … connections (8) of a read profile, as `COPY … TO STDOUT WITH CSV`
-- writes them (see search_people_csv_person_cells): all null when the profile was not read. Used by
-- the search_people_csv_cells trigger.
create or replace function search_people_csv_profile_cells(profile jsonb,
    out about text, out experience_history text, out education text, out skills text, out certifications text,
    out languages text, out projects text, out connections text)
  language sql immutable parallel safe as $$
  select nullif(csv_cell(profile->>'about'), ''),
    nullif(csv_cell((select string_agg(format('%s, %s (%s – %s)', e->>'title', e->>'company', e->>'start', coalesce(e->>'end', 'present')), ' | ' order by o)
                       from jsonb_array_elements(profile->'experience') with ordinality as x(e, o))), ''),
    nullif(csv_cell((select string_agg(format('%s %s, %s (%s–%s)', e->>'degree', e->>'field', e->>'school', e->>'start_year', e->>'end_year'), ' | ' order by o)
                       from jsonb_array_elements(profile->'education') with ordinality as x(e, o))), ''),
    nullif(csv_cell((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(profile->'skills') with ordinality as x(v, o))), ''),
    nullif(csv_cell((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(profile->'certifications') with ordinality as x(v, o))), ''),
    nullif(csv_cell((select string_agg(v, '; ' order by o) from jsonb_array_elements_text(profile->'languages') with ordinality as x(v, o))), ''),
    nullif(csv_cell((select string_agg(format('%s: %s', e->>'name', e->>'description'), ' | ' order by o)
                       from jsonb_array_elements(profile->'projects') with ordinality as x(e, o))), ''),
    nullif(profile->>'connections', '')
$$;
