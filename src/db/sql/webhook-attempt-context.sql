create or replace function webhook_attempt_context(p_delivery_id uuid, p_attempt_key text)
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
$$;
