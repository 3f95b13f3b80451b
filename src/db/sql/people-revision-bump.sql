create or replace function people_revision_bump() returns trigger language plpgsql as $$
begin
  -- One row, updated in the writer's transaction: a reader sees the new revision exactly when it
  -- sees the new rows, so a total cached under a revision is the count of that revision's people.
  update people_revision set revision = revision + 1;
  return null;
end $$;
