create or replace function outbox_events_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('outbox_events', '');
  return null;
end $$;
