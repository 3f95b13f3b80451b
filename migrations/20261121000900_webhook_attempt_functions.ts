import type { Knex } from 'knex';

/**
 * The two database steps of one webhook attempt, each a single round trip: every delivery makes
 * them, so at 100+ deliveries/s a query per fact (and a transaction of six statements) was a
 * large share of the worker's CPU (bench/webhooks.bench.ts).
 *
 * webhook_attempt_context: the delivery, its endpoint, its event, and whether this attempt key
 * was already recorded (a retried activity must not post twice).
 *
 * record_webhook_attempt: records an attempt and moves the delivery on under the delivery's row
 * lock. An abandon increments the endpoint's counter atomically and turns the endpoint off at
 * `disable_after`; a delivered attempt resets the counter. A repeat of a recorded attempt key
 * changes nothing and returns the delivery's state.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function webhook_attempt_context(p_delivery_id uuid, p_attempt_key text)
    returns table (
      delivery_status text, next_retry_at timestamptz,
      endpoint_id uuid, endpoint_url text, endpoint_enabled boolean, secret_ciphertext text,
      event_id text, event_workspace_id uuid, event_type text, event_data jsonb, event_created_at timestamptz,
      already_attempted boolean
    ) language sql stable as $$
      select d.status, d.next_retry_at,
             w.id, w.url, w.enabled, w.secret_ciphertext,
             e.id, e.workspace_id, e.type, e.data, e.created_at,
             exists (select 1 from webhook_delivery_attempts a where a.attempt_key = p_attempt_key)
        from webhook_deliveries d
        join webhook_endpoints w on w.id = d.endpoint_id
        join outbox_events e on e.id = d.event_id
       where d.id = p_delivery_id
    $$`);

  await knex.raw(`
    create function record_webhook_attempt(
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
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'drop function if exists record_webhook_attempt(uuid, text, text, boolean, boolean, integer, text, integer, text, double precision, boolean, integer, text)',
  );
  await knex.raw('drop function if exists webhook_attempt_context(uuid, text)');
}
