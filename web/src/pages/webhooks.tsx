import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { v1, v1Page, type Schemas } from '../api';
import { useCan } from '../layout';
import { BackLink, ErrorNotice, Loading, PageTitle, when } from '../ui';

export function WebhooksPage() {
  const canManage = useCan('admin');
  const hooks = useQuery({ queryKey: ['webhooks'], queryFn: () => v1Page<Schemas['Webhook']>('/webhooks') });
  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <p className="muted">Signed HTTPS notifications when searches, shortlists and billing change.</p>
      {canManage && <NewWebhook />}
      {hooks.isPending ? (
        <Loading what="webhooks" />
      ) : hooks.isError ? (
        <ErrorNotice error={hooks.error} retry={() => void hooks.refetch()} />
      ) : hooks.data.items.length === 0 ? (
        <p className="muted">No webhook endpoints yet.</p>
      ) : (
        <ul className="cards" aria-label="Webhook endpoints">
          {hooks.data.items.map((h) => (
            <li key={h.id}>
              <Link to={`/webhooks/${h.id}`}>{h.url}</Link> <span className={h.enabled ? 'ok' : 'warn'}>{h.enabled ? 'enabled' : 'disabled'}</span>
              <span className="muted">
                {' '}
                · secret …{h.secret.slice(-4)} · events {h.events.join(', ')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function NewWebhook() {
  const qc = useQueryClient();
  const [url, setUrl] = useState('');
  const [created, setCreated] = useState<Schemas['CreatedWebhook'] | null>(null);
  const secretRef = useRef<HTMLElement>(null);
  const create = useMutation({
    mutationFn: () => v1<Schemas['CreatedWebhook']>('POST', '/webhooks', { url }),
    onSuccess: async (hook) => {
      setCreated(hook);
      setUrl('');
      await qc.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  useEffect(() => secretRef.current?.focus(), [created]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <section className="panel" aria-labelledby="new-webhook-h">
      <h2 id="new-webhook-h">Add an endpoint</h2>
      <form className="inline" onSubmit={submit}>
        <label>
          Endpoint URL (https)
          <input type="url" required placeholder="https://example.com/hooks" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
        <button type="submit" disabled={create.isPending}>
          Create webhook
        </button>
      </form>
      {create.isError && <ErrorNotice error={create.error} />}
      {created && (
        <div className="secret" role="region" aria-label="Signing secret" tabIndex={-1} ref={secretRef as React.RefObject<HTMLDivElement>}>
          <p>
            <strong>Copy the signing secret now: it is shown only this once.</strong> Verify each delivery&apos;s signature with it.
          </p>
          <code data-testid="webhook-secret">{created.secret}</code>{' '}
          <button type="button" onClick={() => void navigator.clipboard.writeText(created.secret).catch(() => undefined)}>
            Copy secret
          </button>{' '}
          <button type="button" onClick={() => setCreated(null)}>
            I have saved it
          </button>
        </div>
      )}
    </section>
  );
}

export function WebhookPage() {
  const { webhookId } = useParams() as { webhookId: string };
  const qc = useQueryClient();
  const canManage = useCan('admin');
  const hook = useQuery({ queryKey: ['webhook', webhookId], queryFn: () => v1<Schemas['Webhook']>('GET', `/webhooks/${webhookId}`) });
  const deliveries = useQuery({
    queryKey: ['deliveries', webhookId],
    queryFn: () => v1Page<Schemas['WebhookDelivery']>(`/webhooks/${webhookId}/deliveries?limit=50`),
    // Pending deliveries are retried by the server: keep their status current.
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === 'pending') ? 2_000 : false),
  });
  const refresh = () =>
    Promise.all([qc.invalidateQueries({ queryKey: ['webhook', webhookId] }), qc.invalidateQueries({ queryKey: ['deliveries', webhookId] })]);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => v1<Schemas['Webhook']>('PATCH', `/webhooks/${webhookId}`, { enabled }),
    onSuccess: refresh,
  });
  const test = useMutation({ mutationFn: () => v1('POST', `/webhooks/${webhookId}/test`), onSuccess: refresh });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => v1<Schemas['WebhookDelivery']>('POST', `/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`),
    onSuccess: refresh,
  });
  if (hook.isPending) return <Loading what="the webhook" />;
  if (hook.isError) return <ErrorNotice error={hook.error} retry={() => void hook.refetch()} />;
  const h = hook.data;
  return (
    <>
      <BackLink to="/webhooks">Webhooks</BackLink>
      <PageTitle>{h.url}</PageTitle>
      <p>
        <span className={h.enabled ? 'ok' : 'warn'} data-testid="webhook-state">
          {h.enabled ? 'Enabled' : `Disabled${h.disabled_reason ? `: ${h.disabled_reason}` : ''}`}
        </span>
        <span className="muted">
          {' '}
          · secret …{h.secret.slice(-4)} · events {h.events.join(', ')}
        </span>
      </p>
      {canManage && (
        <p className="actions">
          <button type="button" onClick={() => toggle.mutate(!h.enabled)} disabled={toggle.isPending}>
            {h.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
            Send a test event
          </button>
        </p>
      )}
      {[toggle, test, redeliver].map((m, i) => m.isError && <ErrorNotice key={i} error={m.error} />)}
      <h2>Deliveries</h2>
      {deliveries.isPending ? (
        <Loading what="deliveries" />
      ) : deliveries.isError ? (
        <ErrorNotice error={deliveries.error} retry={() => void deliveries.refetch()} />
      ) : deliveries.data.items.length === 0 ? (
        <p className="muted">No deliveries yet.</p>
      ) : (
        <ul className="cards" aria-label="Deliveries">
          {deliveries.data.items.map((d) => (
            <Delivery key={d.id} webhookId={webhookId} delivery={d} onRedeliver={canManage ? () => redeliver.mutate(d.id) : undefined} />
          ))}
        </ul>
      )}
    </>
  );
}

function Delivery({ webhookId, delivery: d, onRedeliver }: { webhookId: string; delivery: Schemas['WebhookDelivery']; onRedeliver?: () => void }) {
  const [open, setOpen] = useState(false);
  const detail = useQuery({
    queryKey: ['delivery', webhookId, d.id, d.attempt_count],
    queryFn: () => v1<Schemas['WebhookDelivery']>('GET', `/webhooks/${webhookId}/deliveries/${d.id}`),
    enabled: open,
  });
  return (
    <li data-delivery-id={d.id}>
      <div className="row">
        <span>{d.event_type}</span>
        <span className={d.status === 'delivered' ? 'ok' : d.status === 'pending' ? 'muted' : 'warn'}>{d.status}</span>
        <span data-testid="delivery-code">{d.status_code ?? '—'}</span>
        <span className="muted" data-testid="delivery-attempts">
          {d.attempt_count} attempt{d.attempt_count === 1 ? '' : 's'}
        </span>
        <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
          Attempts
        </button>
        {onRedeliver && (
          <button type="button" onClick={onRedeliver}>
            Redeliver
          </button>
        )}
      </div>
      {open &&
        (detail.isPending ? (
          <Loading what="attempts" />
        ) : detail.isError ? (
          <ErrorNotice error={detail.error} />
        ) : (
          <table>
            <caption>Attempts</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Trigger</th>
                <th scope="col">Response</th>
                <th scope="col">Time</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {(detail.data.attempts ?? []).map((a) => (
                <tr key={a.number}>
                  <td>{a.number}</td>
                  <td>{a.trigger}</td>
                  <td>{a.status_code ?? a.error ?? '—'}</td>
                  <td>{a.duration_ms === null ? '—' : `${a.duration_ms} ms`}</td>
                  <td>{when(a.at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </li>
  );
}
