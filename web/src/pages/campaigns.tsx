import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError, call, v1Page, type Campaign, type CampaignStatus, type Schemas } from '../api';
import { useCan } from '../layout';
import { ErrorNotice, Loading, PageTitle, when } from '../ui';

const STATUS: Record<CampaignStatus, string> = { draft: 'draft', awaiting_launch: 'awaiting launch', launched: 'launched' };

/** Outreach campaigns (session API): draft → publish → awaiting launch → launch. */
export function CampaignsPage() {
  const canWrite = useCan('operator');
  const campaigns = useQuery({ queryKey: ['campaigns'], queryFn: () => call<{ campaigns: Campaign[] }>('GET', '/api/campaigns') });
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => v1Page<Schemas['Project']>('/projects') });
  const projectName = new Map(projects.data?.items.map((p) => [p.id, p.name]));
  return (
    <>
      <PageTitle>Campaigns</PageTitle>
      <p className="muted">Outreach to a project&apos;s people, by email or social. A campaign starts as a draft; publish it, then launch it.</p>
      {canWrite && <NewCampaign projects={projects.data?.items ?? []} />}
      {campaigns.isPending ? (
        <Loading what="campaigns" />
      ) : campaigns.isError ? (
        <ErrorNotice error={campaigns.error} retry={() => void campaigns.refetch()} />
      ) : campaigns.data.campaigns.length === 0 ? (
        <p className="muted">No campaigns yet.</p>
      ) : (
        <ul className="cards" aria-label="Campaigns">
          {campaigns.data.campaigns.map((c) => (
            <CampaignItem key={c.id} campaign={c} projectName={c.project_id ? projectName.get(c.project_id) : undefined} canWrite={canWrite} />
          ))}
        </ul>
      )}
    </>
  );
}

function NewCampaign({ projects }: { projects: Schemas['Project'][] }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [channel, setChannel] = useState<Campaign['channel']>('email');
  const [projectId, setProjectId] = useState('');
  const create = useMutation({
    mutationFn: () => call<{ campaign: Campaign }>('POST', '/api/campaigns', { name, channel, ...(projectId ? { project_id: projectId } : {}) }),
    onSuccess: async () => {
      setName('');
      await qc.invalidateQueries({ queryKey: ['campaigns'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <section className="panel" aria-labelledby="new-campaign-h">
      <h2 id="new-campaign-h">New campaign</h2>
      <form className="inline" onSubmit={submit}>
        <label>
          Campaign name
          <input required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Channel
          <select value={channel} onChange={(e) => setChannel(e.target.value as Campaign['channel'])}>
            <option value="email">Email</option>
            <option value="social">Social</option>
          </select>
        </label>
        <label>
          Project (optional)
          <select value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            <option value="">No project</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={create.isPending}>
          Create campaign
        </button>
      </form>
      {create.isError && <ErrorNotice error={create.error} />}
    </section>
  );
}

/**
 * One campaign with its next steps. Launch is offered from draft too: the server decides from the
 * state it holds (another tab may have moved it), and its 409 is shown as the reason.
 */
function CampaignItem({ campaign: c, projectName, canWrite }: { campaign: Campaign; projectName?: string; canWrite: boolean }) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: ['campaigns'] });
  const publish = useMutation({ mutationFn: () => call('POST', `/api/campaigns/${c.id}/publish`), onSettled: refresh });
  const launch = useMutation({ mutationFn: () => call('POST', `/api/campaigns/${c.id}/launch`), onSettled: refresh });
  const failed = launch.error ?? publish.error;
  return (
    <li data-campaign-id={c.id}>
      <div className="row">
        <strong>{c.name}</strong>
        <span>{c.channel === 'email' ? 'Email' : 'Social'}</span>
        <span className={c.status === 'launched' ? 'ok' : 'muted'} data-testid="campaign-status">
          {STATUS[c.status]}
        </span>
        {c.project_id && <Link to={`/projects/${c.project_id}`}>{projectName ?? 'Project'}</Link>}
        <span className="muted">
          created {when(c.created_at)}
          {c.launched_at && <> · launched {when(c.launched_at)}</>}
        </span>
        {canWrite && c.status === 'draft' && (
          <button
            type="button"
            onClick={() => {
              launch.reset(); // only the last action's answer is shown
              publish.mutate();
            }}
            disabled={publish.isPending}
            aria-label={`Publish ${c.name}`}
          >
            Publish
          </button>
        )}
        {canWrite && c.status !== 'launched' && (
          <button
            type="button"
            onClick={() => {
              publish.reset();
              launch.mutate();
            }}
            disabled={launch.isPending}
            aria-label={`Launch ${c.name}`}
          >
            Launch
          </button>
        )}
      </div>
      {failed && <CampaignProblem error={failed} />}
    </li>
  );
}

/** The 424s name the missing outreach capability and the 409 the state; both are the recruiter's next step, not a fault. */
function CampaignProblem({ error }: { error: Error }) {
  const isAdmin = useCan('admin');
  if (!(error instanceof ApiError)) return <ErrorNotice error={error} />;
  if (error.code === 'emailoutreach_not_configured') {
    return (
      <p role="alert" className="notice">
        Email outreach is not set up: it needs a Hunter (contact data) credential.{' '}
        {isAdmin ? <Link to="/credentials">Add one under Credentials.</Link> : 'Ask an admin to add one.'}
      </p>
    );
  }
  if (error.code === 'socialoutreach_not_configured') {
    return (
      <p role="alert" className="notice">
        Social outreach is not available: no social outreach provider is configured. Use an email campaign instead.
      </p>
    );
  }
  if (error.status === 409) {
    return (
      <p role="alert" className="notice">
        {error.message}.
      </p>
    );
  }
  return <ErrorNotice error={error} />;
}
