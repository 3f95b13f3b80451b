import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { call, type Schemas } from '../api';
import { ErrorNotice, Loading } from '../ui';

type Search = Schemas['Search'];
export const isRunning = (s: Pick<Search, 'status'>) => s.status === 'queued' || s.status === 'running';
/** How often running searches are re-read: the workflow's counters, without reloading the page. */
export const PROGRESS_POLL_MS = 1_500;

/** Progress of one search: status, what it read, delivered and shortlisted. */
export function Progress({ search }: { search: Search }) {
  const target = (search.criteria as { target?: number } | null)?.target;
  return (
    <span className="progress" data-status={search.status}>
      <span className={`status ${search.status}`}>{search.status}</span>
      {search.outcome && <span> · {search.outcome}</span>}
      <span>
        {' '}
        · {search.profiles_read} read · {search.delivered} delivered · {search.shortlisted}
        {target ? ` / ${target}` : ''} shortlisted
      </span>
      {target ? <progress max={target} value={Math.min(target, search.shortlisted)} aria-label="Shortlisted toward the target" /> : null}
    </span>
  );
}

/** The workspace's newest searches of all projects (GET /api/scans), live while any runs. */
export function ScanList() {
  const scans = useQuery({
    queryKey: ['scans'],
    queryFn: () => call<{ scans: Search[] }>('GET', '/api/scans'),
    refetchInterval: (q) => (q.state.data?.scans.some(isRunning) ? PROGRESS_POLL_MS : false),
  });
  if (scans.isPending) return <Loading what="searches" />;
  if (scans.isError) return <ErrorNotice error={scans.error} retry={() => void scans.refetch()} />;
  if (scans.data.scans.length === 0) return <p className="muted">No searches yet.</p>;
  return (
    <ul className="cards" aria-label="Recent searches">
      {scans.data.scans.slice(0, 20).map((s) => (
        <li key={s.id}>
          <Link to={`/searches/${s.id}`}>{describeCriteria(s.criteria)}</Link> <Progress search={s} />
        </li>
      ))}
    </ul>
  );
}

/** A resolved place of a search record, as a title names it: "Leeds (25 km)", "Bavaria". */
const placeTitle = (p: { name?: unknown; radius_km?: unknown }) => {
  const name = typeof p.name === 'string' ? p.name.split(',')[0] : '';
  return name && typeof p.radius_km === 'number' ? `${name} (${p.radius_km} km)` : name;
};

/** A search in a line: what it looks for (titles, else family, else occupations), where (its resolved places, else metro), skills. */
export function describeCriteria(criteria: unknown): string {
  const c = (criteria ?? {}) as { titles?: string[]; family?: string; occupations?: string[]; places?: unknown[]; metro?: string; skills?: string[] };
  const places = Array.isArray(c.places)
    ? c.places
        .filter((p): p is { name?: unknown; radius_km?: unknown } => !!p && typeof p === 'object')
        .map(placeTitle)
        .filter(Boolean)
    : [];
  const where = places.length > 3 ? `${places.slice(0, 3).join(', ')} +${places.length - 3}` : places.join(', ');
  const parts = [c.titles?.join(', ') || c.family || c.occupations?.join(', '), where || c.metro, c.skills?.slice(0, 3).join(', ')].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'Search';
}
