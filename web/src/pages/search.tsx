import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { v1, v1Page, type Schemas } from '../api';
import { useCan } from '../layout';
import { BackLink, ErrorNotice, Loading, PageTitle, placeText } from '../ui';
import { describeCriteria, isRunning, Progress, PROGRESS_POLL_MS } from './scans';
import { WatchSearch } from './watch-search';
import { CalibrationSummary, RateButtons, useRatings } from './feedback';
import { MoreLikeThese, PickExample, useExamples } from './more-like-these';
import { linkableUrl } from '../../../src/domain/urls';

const PAGE_SIZE = 20;

/**
 * Where a person is and how far from the wanted places: the profile's place, and the location
 * criterion's reason when it places them ("12 km from Leeds", "in Bavaria", "65 km from Leeds,
 * beyond 40 km"); "Leeds, England, United Kingdom · 12 km from Leeds".
 */
function whereText(person: Pick<Schemas['Person'], 'profile' | 'score_breakdown'>): string {
  const place = placeText(person.profile?.location);
  const reason = person.score_breakdown?.find((c) => c.criterion === 'location')?.reason ?? '';
  const placed = /^(?:\d+ km from |in )/.test(reason) ? reason : '';
  return [place, placed].filter(Boolean).join(' · ');
}

export function SearchPage() {
  const { searchId } = useParams() as { searchId: string };
  const ratings = useRatings(searchId);
  // A rating newer than what the search learned: it re-ranks in a moment.
  const learning = (s?: Schemas['Search']) => [...(ratings.data?.values() ?? [])].some((r) => r.rated_at > (s?.calibration?.updated_at ?? ''));
  const search = useQuery({
    queryKey: ['search', searchId],
    queryFn: () => v1<Schemas['Search']>('GET', `/searches/${searchId}`),
    // The search workflow's progress, live: re-read while it runs or learns, stop once it is done.
    refetchInterval: (q) => (q.state.data && !isRunning(q.state.data) && !learning(q.state.data) ? false : PROGRESS_POLL_MS),
  });
  if (search.isPending) return <Loading what="the search" />;
  if (search.isError) return <ErrorNotice error={search.error} retry={() => void search.refetch()} />;
  const s = search.data;
  return (
    <>
      <BackLink to={`/projects/${s.project_id}`}>Project</BackLink>
      <PageTitle>{describeCriteria(s.criteria)}</PageTitle>
      <p aria-live="polite" data-testid="search-progress">
        <Progress search={s} />
      </p>
      {s.failure_reason && <p className="notice error">{s.failure_reason}</p>}
      {s.status !== 'failed' && <WatchSearch searchId={searchId} projectId={s.project_id} />}
      <CalibrationSummary calibration={s.calibration} />
      <People
        searchId={searchId}
        projectId={s.project_id}
        running={isRunning(s)}
        version={`${s.status}:${s.profiles_read}:${s.delivered}:${s.calibration?.updated_at ?? ''}`}
      />
    </>
  );
}

/** `version` changes whenever the search has read or delivered more: the people are re-read then. */
function People({ searchId, projectId, running, version }: { searchId: string; projectId: string; running: boolean; version: string }) {
  const qc = useQueryClient();
  const canShortlist = useCan('operator');
  const [minScore, setMinScore] = useState(0);
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const people = useQuery({
    queryKey: ['people', searchId, minScore, offset, version],
    queryFn: () => v1<Schemas['PeoplePage']>('GET', `/searches/${searchId}/people?limit=${PAGE_SIZE}&offset=${offset}&min_score=${minScore}`),
    placeholderData: keepPreviousData,
  });
  const shortlist = useQuery({
    queryKey: ['shortlist', projectId],
    queryFn: () => v1Page<Schemas['ShortlistMember']>(`/projects/${projectId}/shortlist`),
  });
  // A search shortlists people itself as it delivers them: re-read the list as it moves on.
  useEffect(() => void qc.invalidateQueries({ queryKey: ['shortlist', projectId] }), [qc, projectId, version]);
  const listed = new Set(shortlist.data?.items.map((m) => m.candidate_id));
  const ratings = useRatings(searchId);
  const examples = useExamples();
  const add = useMutation({
    mutationFn: (id: string) => v1<Schemas['ShortlistMembersAdded']>('POST', `/projects/${projectId}/shortlist/members`, { candidate_ids: [id] }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['shortlist', projectId] }),
  });
  const total = people.data?.total ?? 0;
  return (
    <section aria-labelledby="people-h">
      <h2 id="people-h">People</h2>
      <form className="inline" onSubmit={(e) => e.preventDefault()}>
        <label>
          Minimum score
          <input
            type="number"
            min={0}
            max={100}
            value={minScore}
            onChange={(e) => {
              setMinScore(Math.max(0, Math.min(100, Number(e.target.value) || 0)));
              setOffset(0);
            }}
          />
        </label>
      </form>
      {people.isPending ? (
        <Loading what="people" />
      ) : people.isError ? (
        <ErrorNotice error={people.error} retry={() => void people.refetch()} />
      ) : people.data.people.length === 0 ? (
        <p className="muted">{running ? 'Nobody scored yet; people appear here as the search reads profiles.' : 'Nobody matches.'}</p>
      ) : (
        <ol className="people" start={offset + 1} aria-label="People, best score first">
          {people.data.people.map((p) => (
            <li key={p.id} data-candidate-id={p.id}>
              <div className="row">
                {canShortlist && <PickExample person={p} picked={examples.picked} toggle={examples.toggle} />}
                <button type="button" className="link" aria-expanded={open === p.id} onClick={() => setOpen(open === p.id ? null : p.id)}>
                  {p.name}
                </button>
                <span className="score" aria-label={`score ${p.score}`}>
                  {p.score}
                </span>
                {whereText(p) && (
                  <span className="muted" data-testid="person-place">
                    {whereText(p)}
                  </span>
                )}
                {canShortlist &&
                  (listed.has(p.id) ? (
                    <span className="muted">On the shortlist</span>
                  ) : (
                    <button type="button" onClick={() => add.mutate(p.id)} disabled={add.isPending} aria-label={`Add ${p.name} to the shortlist`}>
                      Shortlist
                    </button>
                  ))}
                {canShortlist && <RateButtons searchId={searchId} person={p} rating={ratings.data?.get(p.id)} />}
              </div>
              {open === p.id && <PersonDetail person={p} />}
            </li>
          ))}
        </ol>
      )}
      {add.isError && <ErrorNotice error={add.error} />}
      {canShortlist && <MoreLikeThese projectId={projectId} examples={examples} />}
      {total > PAGE_SIZE && (
        <nav aria-label="Pages of people" className="pager">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(total, offset + PAGE_SIZE)} of {total}
          </span>
          <button type="button" disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}

/** Why the person scored what they did: each criterion's weight, match, points and reason. */
function PersonDetail({ person }: { person: Schemas['Person'] }) {
  const profile = (person.profile ?? {}) as { title?: string; company?: string; location?: unknown; occupation?: unknown; network_url?: string };
  const profileHref = linkableUrl(profile.network_url);
  const occupation = profile.occupation as { onet_code?: unknown; title?: unknown } | null | undefined;
  return (
    <div className="person" role="region" aria-label={`${person.name}: score breakdown`}>
      <p>
        {[profile.title, profile.company, placeText(profile.location)].filter(Boolean).join(' · ')}{' '}
        {profileHref && (
          <a href={profileHref} target="_blank" rel="noopener noreferrer">
            Profile
          </a>
        )}
      </p>
      {occupation && typeof occupation.title === 'string' && (
        <p className="muted" data-testid="person-occupation">
          Occupation: {occupation.title}
          {typeof occupation.onet_code === 'string' && ` (${occupation.onet_code})`}
        </p>
      )}
      {person.score_breakdown ? (
        <table>
          <caption>Score breakdown</caption>
          <thead>
            <tr>
              <th scope="col">Criterion</th>
              <th scope="col">Weight</th>
              <th scope="col">Match</th>
              <th scope="col">Points</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {person.score_breakdown.map((c) => (
              <tr key={c.criterion}>
                <th scope="row">{c.criterion}</th>
                <td>{c.weight}</td>
                <td>{Math.round(c.match * 100)}%</td>
                <td>{c.points}</td>
                <td>{c.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No breakdown recorded for this score.</p>
      )}
    </div>
  );
}
