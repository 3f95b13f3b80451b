import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { v1, v1Page, type Schemas } from '../api';
import { useCan } from '../layout';
import { ErrorNotice, when } from '../ui';

type Monitor = Schemas['Monitor'];
type Every = Monitor['every'];

const CADENCES: [Every, string][] = [
  ['hour', 'every hour'],
  ['day', 'every day'],
  ['week', 'every week'],
];

/** Why a monitor is paused, in words that say what to do about it. */
const PAUSED_BECAUSE: Record<NonNullable<Monitor['paused_reason']>, string> = {
  manual: 'Paused.',
  no_credit: 'Paused itself: no credit left for a live run. Top up, then resume.',
  no_active_plan: 'Paused itself: the workspace has no active plan for a live run.',
  provider_unavailable: 'Paused itself: no People Data Labs key for a live run. Add one, then resume.',
  search_failed: 'Paused itself: the search failed.',
};

function CadencePicker({ value, onChange, disabled }: { value: Every; onChange: (every: Every) => void; disabled?: boolean }) {
  return (
    <label>
      Run it{' '}
      <select value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as Every)}>
        {CADENCES.map(([every, label]) => (
          <option key={every} value={every}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * "Watch this search": a monitor runs the search again on a cadence, over people the project has
 * not seen, and a webhook (monitor.matched) tells when it finds someone; its new people appear
 * among the search's people.
 */
export function WatchSearch({ searchId, projectId }: { searchId: string; projectId: string }) {
  const qc = useQueryClient();
  const canChange = useCan('operator');
  const key = ['monitor', searchId];
  const monitors = useQuery({
    queryKey: key,
    queryFn: () => v1Page<Monitor>(`/projects/${projectId}/monitors?search_id=${searchId}`),
    // Runs move next_run_at, runs and new people on: re-read now and then.
    refetchInterval: 30_000,
  });
  const [every, setEvery] = useState<Every>('day');
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const create = useMutation({ mutationFn: () => v1<Monitor>('POST', `/projects/${projectId}/monitors`, { search_id: searchId, every }), onSuccess: refresh });
  const change = useMutation({
    mutationFn: ({ id, body }: { id: string; body: { status?: Monitor['status']; every?: Every } }) => v1<Monitor>('PATCH', `/monitors/${id}`, body),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: string) => v1('DELETE', `/monitors/${id}`), onSuccess: refresh });
  const busy = create.isPending || change.isPending || remove.isPending;
  const failed = create.error ?? change.error ?? remove.error;
  const monitor = monitors.data?.items[0];

  return (
    <section aria-labelledby="watch-h" data-testid="watch-search">
      <h2 id="watch-h">Watch this search</h2>
      {monitors.isPending ? null : monitors.isError ? (
        <ErrorNotice error={monitors.error} retry={() => void monitors.refetch()} />
      ) : !monitor ? (
        <>
          <p className="muted">Run this search again on a schedule and hear about people the project has not seen yet.</p>
          {canChange && (
            <form
              className="inline"
              onSubmit={(e) => {
                e.preventDefault();
                create.mutate();
              }}
            >
              <CadencePicker value={every} onChange={setEvery} disabled={busy} />
              <button type="submit" disabled={busy}>
                Watch this search
              </button>
            </form>
          )}
        </>
      ) : (
        <>
          <p aria-live="polite" data-testid="monitor-status">
            {monitor.status === 'active'
              ? `Watching ${CADENCES.find(([e]) => e === monitor.every)?.[1]}; next run ${when(monitor.next_run_at)}.`
              : PAUSED_BECAUSE[monitor.paused_reason ?? 'manual']}{' '}
            <span className="muted">
              {monitor.runs} run{monitor.runs === 1 ? '' : 's'}, {monitor.new_people_total} new {monitor.new_people_total === 1 ? 'person' : 'people'}
              {monitor.last_run_at ? `, last ${when(monitor.last_run_at)}` : ''}
            </span>
          </p>
          {canChange && (
            <form className="inline" onSubmit={(e) => e.preventDefault()}>
              <CadencePicker value={monitor.every} disabled={busy} onChange={(next) => change.mutate({ id: monitor.id, body: { every: next } })} />
              <button
                type="button"
                disabled={busy}
                onClick={() => change.mutate({ id: monitor.id, body: { status: monitor.status === 'active' ? 'paused' : 'active' } })}
              >
                {monitor.status === 'active' ? 'Pause' : 'Resume'}
              </button>
              <button type="button" className="link" disabled={busy} onClick={() => remove.mutate(monitor.id)}>
                Stop watching
              </button>
            </form>
          )}
        </>
      )}
      {failed && <ErrorNotice error={failed} />}
    </section>
  );
}
