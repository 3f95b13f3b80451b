import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { v1, v1Page, type Schemas } from '../api';
import { useCan } from '../layout';
import { BackLink, ErrorNotice, Loading, PageTitle, placeText, when } from '../ui';
import { NewSearch } from './new-search';
import { describeCriteria, isRunning, Progress, PROGRESS_POLL_MS } from './scans';

export function ProjectPage() {
  const { projectId } = useParams() as { projectId: string };
  const canLaunch = useCan('operator');
  const project = useQuery({ queryKey: ['project', projectId], queryFn: () => v1<Schemas['Project']>('GET', `/projects/${projectId}`) });
  const searches = useQuery({
    queryKey: ['project-searches', projectId],
    queryFn: () => v1Page<Schemas['Search']>(`/projects/${projectId}/searches`),
    refetchInterval: (q) => (q.state.data?.items.some(isRunning) ? PROGRESS_POLL_MS : false),
  });
  if (project.isPending) return <Loading what="the project" />;
  if (project.isError) return <ErrorNotice error={project.error} retry={() => void project.refetch()} />;
  return (
    <>
      <BackLink to="/">Projects</BackLink>
      <PageTitle>{project.data.name}</PageTitle>
      <section aria-labelledby="searches-h">
        <h2 id="searches-h">Searches</h2>
        {searches.isPending ? (
          <Loading what="searches" />
        ) : searches.isError ? (
          <ErrorNotice error={searches.error} retry={() => void searches.refetch()} />
        ) : searches.data.items.length === 0 ? (
          <p className="muted">No searches in this project yet.</p>
        ) : (
          <ul className="cards" aria-label="Searches of this project">
            {[...searches.data.items].reverse().map((s) => (
              <li key={s.id}>
                <Link to={`/searches/${s.id}`}>{describeCriteria(s.criteria)}</Link> <Progress search={s} />
                <span className="muted"> · {when(s.created_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {canLaunch && <NewSearch projectId={projectId} />}
      <Shortlist projectId={projectId} />
    </>
  );
}

/** The project's shortlist, member removal and its share link. */
export function Shortlist({ projectId }: { projectId: string }) {
  const qc = useQueryClient();
  const canEdit = useCan('operator');
  const members = useQuery({ queryKey: ['shortlist', projectId], queryFn: () => v1Page<Schemas['ShortlistMember']>(`/projects/${projectId}/shortlist`) });
  const remove = useMutation({
    mutationFn: (candidateId: string) => v1('DELETE', `/projects/${projectId}/shortlist/members/${candidateId}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['shortlist', projectId] }),
  });
  return (
    <section aria-labelledby="shortlist-h" className="panel">
      <h2 id="shortlist-h">Shortlist</h2>
      {members.isPending ? (
        <Loading what="the shortlist" />
      ) : members.isError ? (
        <ErrorNotice error={members.error} retry={() => void members.refetch()} />
      ) : (
        <>
          <ShareLink projectId={projectId} count={members.data.total} />
          {members.data.items.length > 0 && (
            <ul className="cards" aria-label="Shortlisted people">
              {members.data.items.map((m) => (
                <li key={m.candidate_id} data-candidate-id={m.candidate_id}>
                  <strong>{m.name}</strong> — {m.title} at {m.company}
                  {placeText(m.location) && `, ${placeText(m.location)}`}
                  {m.score !== null && <span className="score"> {m.score}</span>}
                  {canEdit && (
                    <button type="button" className="link" onClick={() => remove.mutate(m.candidate_id)} aria-label={`Remove ${m.name} from the shortlist`}>
                      Remove
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {remove.isError && <ErrorNotice error={remove.error} />}
        </>
      )}
    </section>
  );
}

function ShareLink({ projectId, count }: { projectId: string; count: number }) {
  const link = useQuery({ queryKey: ['share-link', projectId], queryFn: () => v1<Schemas['ShareLink']>('GET', `/projects/${projectId}/share-link`) });
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  if (link.isPending) return <Loading what="the share link" />;
  if (link.isError) return <ErrorNotice error={link.error} retry={() => void link.refetch()} />;
  const copy = () =>
    navigator.clipboard.writeText(link.data.url).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  return (
    <div className="share">
      {count === 0 && (
        <p role="status" className="notice">
          The shortlist is empty: whoever opens the share link will see nobody yet.
        </p>
      )}
      <label>
        Share link (anyone with it can see the shortlist, no sign-in)
        <input readOnly value={link.data.url} onFocus={(e) => e.target.select()} data-testid="share-url" />
      </label>
      <button type="button" onClick={() => void copy()}>
        Copy link
      </button>
      <span role="status" className="muted">
        {copied === 'copied' ? ' Copied.' : copied === 'failed' ? ' Copy failed: select the link and copy it.' : ''}
      </span>
      <p className="muted">{count === 1 ? '1 person' : `${count} people`} on the shortlist.</p>
    </div>
  );
}
