-- Records CSV fragments of a search person (see migration 1100), rebuilt on insert and when summary
-- or profile change. Fields are written by csv_field (src/db/sql/csv-field.sql), the rule of
-- csvField in src/domain/csv.ts: formula-neutralised, then RFC 4180 quoted.
create or replace function search_people_csv() returns trigger language plpgsql as $$
begin
  -- Re-scoring rewrites profile with its own value: nothing to rebuild then.
  if tg_op = 'UPDATE' and new.summary is not distinct from old.summary and new.profile is not distinct from old.profile then
    return new;
  end if;
  new.csv_person := search_people_csv_person(new.summary);
  new.csv_profile := search_people_csv_profile(new.profile);
  return new;
end $$;
