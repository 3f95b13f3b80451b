create or replace function record_webhook_attempt(
  p_delivery_id uuid, p_attempt_key text, p_trigger text, p_manual_redelivery boolean,
  p_ok boolean, p_status_code integer, p_error text, p_duration_ms integer, p_excerpt text,
  p_retry_in_seconds double precision, p_is_test boolean, p_disable_after integer, p_disabled_reason text
) returns table (outcome_status text, outcome_retry boolean) language plpgsql as $$
declare
  d webhook_deliveries%rowtype;
  new_status text;
  new_next_retry_at timestamptz := null;
  retry boolean := false;
begin
  select * into d from webhook_deliveries where id = p_delivery_id for update;
  if not found then
    return query select 'stopped'::text, false;
    return;
  end if;
  if exists (select 1 from webhook_delivery_attempts a where a.attempt_key = p_attempt_key) then
    return query select d.status, d.status = 'failed' and d.next_retry_at is not null;
    return;
  end if;

  insert into webhook_delivery_attempts (id, delivery_id, number, attempt_key, trigger, status_code, error, duration_ms, response_excerpt)
  values (gen_random_uuid(), p_delivery_id, d.attempt_count + 1, p_attempt_key, p_trigger, p_status_code, p_error, p_duration_ms, p_excerpt);

  new_status := d.status;
  if p_ok then
    new_status := 'delivered';
    update webhook_endpoints set consecutive_abandons = 0 where id = d.endpoint_id and consecutive_abandons <> 0;
  elsif p_manual_redelivery then
    new_next_retry_at := d.next_retry_at; -- a failed manual attempt leaves the schedule as it was
  elsif p_retry_in_seconds is not null then
    new_status := 'failed';
    retry := true;
    new_next_retry_at := now() + make_interval(secs => p_retry_in_seconds);
  elsif p_is_test then
    new_status := 'failed'; -- a test is sent once and never retried; it does not count as abandoned
  else
    new_status := 'abandoned';
    update webhook_endpoints
       set consecutive_abandons = consecutive_abandons + 1,
           enabled = enabled and consecutive_abandons + 1 < p_disable_after,
           disabled_reason = case when enabled and consecutive_abandons + 1 >= p_disable_after then p_disabled_reason else disabled_reason end,
           disabled_at = case when enabled and consecutive_abandons + 1 >= p_disable_after then now() else disabled_at end,
           updated_at = now()
     where id = d.endpoint_id;
  end if;

  update webhook_deliveries
     set status = new_status,
         attempt_count = d.attempt_count + 1,
         next_retry_at = new_next_retry_at,
         last_status_code = p_status_code,
         last_error = p_error,
         updated_at = now(),
         delivered_at = case when p_ok and delivered_at is null then now() else delivered_at end
   where id = p_delivery_id;
  return query select new_status, retry;
end $$;
