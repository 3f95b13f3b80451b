-- Records CSV cells of a search person (migration 20261125000300), rebuilt on insert and when
-- summary or profile change, so that records.csv is one `COPY … TO STDOUT WITH CSV` of stored
-- columns (building the profile cells at export time made COPY about 30× slower).
create or replace function search_people_csv_cells() returns trigger language plpgsql as $$
begin
  -- Re-scoring rewrites profile with its own value: nothing to rebuild then.
  if tg_op = 'UPDATE' and new.summary is not distinct from old.summary and new.profile is not distinct from old.profile then
    return new;
  end if;
  select * into new.csv_first_name, new.csv_last_name, new.csv_title, new.csv_company, new.csv_location, new.csv_network_url,
                new.csv_open_profile, new.csv_premium, new.csv_summary
    from search_people_csv_person_cells(new.summary);
  select * into new.csv_about, new.csv_experience_history, new.csv_education, new.csv_skills, new.csv_certifications,
                new.csv_languages, new.csv_projects, new.csv_connections
    from search_people_csv_profile_cells(new.profile);
  return new;
end $$;
