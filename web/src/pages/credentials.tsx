import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, type Credential } from '../api';
import { useCan } from '../layout';
import { ErrorNotice, Loading, PageTitle, when } from '../ui';

const PROVIDERS = ['peopledatalabs', 'brave', 'openai', 'hunter'] as const;

/** Provider keys (admin): add, rotate (a new key under the same label), verify, delete. */
export function CredentialsPage() {
  const qc = useQueryClient();
  const canManage = useCan('admin');
  const creds = useQuery({ queryKey: ['credentials'], queryFn: () => call<{ credentials: Credential[] }>('GET', '/api/admin/credentials') });
  const refresh = () => qc.invalidateQueries({ queryKey: ['credentials'] });
  const verify = useMutation({ mutationFn: (id: string) => call('POST', `/api/admin/credentials/${id}/verify`), onSettled: refresh });
  const remove = useMutation({ mutationFn: (id: string) => call('DELETE', `/api/admin/credentials/${id}`), onSuccess: refresh });
  const [rotating, setRotating] = useState<Credential | null>(null);
  return (
    <>
      <PageTitle>Provider credentials</PageTitle>
      <p className="muted">Keys are stored encrypted and never shown again; only a hint is kept.</p>
      {canManage && <CredentialForm key={rotating?.id ?? 'new'} rotating={rotating} done={() => setRotating(null)} />}
      {creds.isPending ? (
        <Loading what="credentials" />
      ) : creds.isError ? (
        <ErrorNotice error={creds.error} retry={() => void creds.refetch()} />
      ) : creds.data.credentials.length === 0 ? (
        <p className="muted">No credentials: the server-wide keys are used.</p>
      ) : (
        <table>
          <caption>Active credentials</caption>
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Label</th>
              <th scope="col">Key</th>
              <th scope="col">Verified</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {creds.data.credentials.map((c) => (
              <tr key={c.id} data-credential-id={c.id}>
                <td>{c.provider}</td>
                <td>{c.label}</td>
                <td>
                  <code>{c.key_hint}</code>
                </td>
                <td>{c.verify_error ? <span className="warn">{c.verify_error}</span> : c.verified_at ? `yes, ${when(c.verified_at)}` : 'not yet'}</td>
                <td className="actions">
                  {canManage && (
                    <>
                      <button type="button" onClick={() => verify.mutate(c.id)} aria-label={`Verify ${c.provider} ${c.label}`}>
                        Verify
                      </button>
                      <button type="button" onClick={() => setRotating(c)} aria-label={`Rotate ${c.provider} ${c.label}`}>
                        Rotate
                      </button>
                      <button type="button" onClick={() => remove.mutate(c.id)} aria-label={`Delete ${c.provider} ${c.label}`}>
                        Delete
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {verify.isError && <ErrorNotice error={verify.error} />}
      {remove.isError && <ErrorNotice error={remove.error} />}
    </>
  );
}

function CredentialForm({ rotating, done }: { rotating: Credential | null; done: () => void }) {
  const qc = useQueryClient();
  const [provider, setProvider] = useState(rotating?.provider ?? PROVIDERS[0]);
  const [label, setLabel] = useState(rotating?.label ?? 'default');
  const [apiKey, setApiKey] = useState('');
  // Saving under the same provider and label retires the old key: that is the rotation.
  const save = useMutation({
    mutationFn: () => call('POST', '/api/admin/credentials', { provider, label, apiKey }),
    onSuccess: async () => {
      setApiKey('');
      done();
      await qc.invalidateQueries({ queryKey: ['credentials'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} aria-label={rotating ? 'Rotate a credential' : 'Add a credential'}>
      <h2>{rotating ? `Rotate ${rotating.provider} (${rotating.label})` : 'Add a credential'}</h2>
      <div className="grid">
        <label>
          Provider
          <select value={provider} onChange={(e) => setProvider(e.target.value)} disabled={!!rotating}>
            {PROVIDERS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Label
          <input required value={label} onChange={(e) => setLabel(e.target.value)} disabled={!!rotating} />
        </label>
        <label>
          {rotating ? 'New API key' : 'API key'}
          <input type="password" required autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
        </label>
      </div>
      <button type="submit" disabled={save.isPending}>
        {rotating ? 'Save new key' : 'Save credential'}
      </button>{' '}
      {rotating && (
        <button type="button" onClick={done}>
          Cancel
        </button>
      )}
      {save.isError && <ErrorNotice error={save.error} />}
    </form>
  );
}
