import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call, idempotencyKey, type Schemas } from '../api';
import { ErrorNotice } from '../ui';

/** A lookalike search takes 1–10 example people (criteria `like`, DESIGN.md §13). */
export const MAX_EXAMPLES = 10;

/** The people picked as examples on a search's page. */
export function useExamples() {
  // One launch key per set of examples: a double click launches (and charges) once, a changed set is a new launch.
  const [state, setState] = useState({ picked: [] as string[], key: idempotencyKey() });
  const toggle = (id: string) =>
    setState(({ picked }) => {
      const next = picked.includes(id) ? picked.filter((x) => x !== id) : picked.length < MAX_EXAMPLES ? [...picked, id] : picked;
      return { picked: next, key: idempotencyKey() };
    });
  return { ...state, toggle };
}

/** The checkbox that picks one person as an example. */
export function PickExample({ person, picked, toggle }: { person: Pick<Schemas['Person'], 'id' | 'name'>; picked: string[]; toggle: (id: string) => void }) {
  const on = picked.includes(person.id);
  return (
    <label className="inline">
      <input type="checkbox" checked={on} disabled={!on && picked.length >= MAX_EXAMPLES} onChange={() => toggle(person.id)} />
      <span className="sr-only">Pick {person.name} as an example</span>
    </label>
  );
}

/** "More like these": launches a lookalike search in the project (1 credit, as any launch) and opens it. */
export function MoreLikeThese({ projectId, examples: { picked, key } }: { projectId: string; examples: { picked: string[]; key: string } }) {
  const navigate = useNavigate();
  const launch = useMutation({
    mutationFn: () =>
      call<{ scan: Schemas['Search'] }>('POST', '/api/scans', { project_id: projectId, criteria: { like: picked } }, { 'Idempotency-Key': key }),
    onSuccess: ({ scan }) => void navigate(`/searches/${scan.id}`),
  });
  if (picked.length === 0) return null;
  return (
    <p className="inline">
      <button type="button" onClick={() => launch.mutate()} disabled={launch.isPending}>
        More like these ({picked.length})
      </button>
      <span className="muted">
        a new search for people like the {picked.length === 1 ? 'one' : picked.length} you picked, nobody the project already has (1 credit)
      </span>
      {launch.isError && <ErrorNotice error={launch.error} />}
    </p>
  );
}
