import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, call, idempotencyKey, readBrief, v1, type CriteriaReference, type IntakeResult, type Schemas } from '../api';
import { ErrorNotice, Loading } from '../ui';
import { CriteriaFields, criteriaOf, draftOf, problemsByField, type Draft } from './criteria-form';
import { lookUpRead } from './pickers';

/** The chips of intake's coverage, in the order a recruiter reads a brief. */
const CHIPS: Record<string, string> = { job_title: 'Job title', location: 'Location', years_experience: 'Experience', industry: 'Industry', skills: 'Skills' };
/** What launching costs (the key API's launch cost line: 1 shortlist credit). */
const LAUNCH_CREDITS = 1;

/**
 * Free text → criteria (the language model, or the built-in reader when none is configured) →
 * the criteria as an editable form → launch, its credit cost and the balance shown first.
 */
export function NewSearch({ projectId }: { projectId: string }) {
  const navigate = useNavigate();
  const ids = useId();
  const [rawInput, setRawInput] = useState('');
  const [found, setFound] = useState<IntakeResult | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  // One key per confirmed draft: a double click or a retry launches (and charges) once.
  const [launchKey, setLaunchKey] = useState(idempotencyKey);
  const balance = useQuery({ queryKey: ['balance'], queryFn: () => v1<Schemas['Balance']>('GET', '/billing/balance') });
  const reference = useQuery({
    queryKey: ['criteria-reference'],
    queryFn: () => v1<CriteriaReference>('GET', '/reference/criteria'),
    staleTime: Infinity,
  });

  const launch = useMutation({
    mutationFn: (criteria: Record<string, unknown>) =>
      call<{ scan: Schemas['Search'] }>('POST', '/api/scans', { project_id: projectId, criteria }, { 'Idempotency-Key': launchKey }),
    onSuccess: ({ scan }) => void navigate(`/searches/${scan.id}`),
  });
  const read = useMutation({
    // The readers give places as gazetteer ids and occupations as codes: their names are looked
    // up before the form shows them (what no lookup names shows as read).
    mutationFn: async (reader?: 'builtin') => {
      const result = await readBrief(rawInput, reader);
      return { result, known: await lookUpRead(result.criteria) };
    },
    onSuccess: ({ result, known }) => {
      setFound(result);
      setDraft(draftOf(result.criteria, reference.data, known));
      setLaunchKey(idempotencyKey());
      launch.reset();
    },
  });
  const change = (next: Draft) => {
    setDraft(next);
    setLaunchKey(idempotencyKey()); // changed criteria are a new launch
  };
  const submitText = (e: FormEvent) => {
    e.preventDefault();
    read.mutate(undefined);
  };
  const submitLaunch = (e: FormEvent) => {
    e.preventDefault();
    if (draft && found) launch.mutate(criteriaOf(draft, found.criteria));
  };
  const credits = balance.data?.credits;
  const invalid = launch.error instanceof ApiError && launch.error.problems.length > 0 ? launch.error : null;
  const problems = invalid ? problemsByField(invalid.problems) : {};
  const modelFailed = read.error instanceof ApiError && read.error.code === 'extraction_failed';

  return (
    <section aria-labelledby={`${ids}-h`} className="panel">
      <h2 id={`${ids}-h`}>New search</h2>
      <form onSubmit={submitText}>
        <label>
          Who are you looking for? (free text or a job description)
          <textarea required rows={4} value={rawInput} onChange={(e) => setRawInput(e.target.value)} />
        </label>
        <button type="submit" disabled={read.isPending || !rawInput.trim()}>
          {read.isPending ? 'Reading…' : 'Read criteria'}
        </button>
        {read.isError && <ErrorNotice error={read.error} retry={() => read.mutate(undefined)} />}
        {modelFailed && (
          <button type="button" onClick={() => read.mutate('builtin')}>
            Read with the built-in reader instead
          </button>
        )}
      </form>

      {found &&
        draft &&
        (reference.isPending ? (
          <Loading what="the criteria reference" />
        ) : reference.isError ? (
          <ErrorNotice error={reference.error} retry={() => void reference.refetch()} />
        ) : (
          // The server validates (one validator): its problems are shown next to the fields.
          <form onSubmit={submitLaunch} aria-label="Confirm criteria" noValidate>
            <p className="muted" data-testid="reader">
              {found.reader === 'builtin'
                ? 'Read by the built-in reader (no language model is configured): check and complete the criteria below.'
                : 'Read by the language model: check the criteria below.'}
            </p>
            <ul className="chips" aria-label="What the brief covers">
              {Object.entries(CHIPS).map(([key, label]) => {
                const cov = found.entityCoverage[key];
                if (!cov) return null;
                const state = cov.resolved ? 'resolved' : cov.required ? 'missing' : 'absent';
                return (
                  <li key={key} className={`chip ${state}`} data-chip={key}>
                    {label}: {cov.resolved ? `${Math.round(cov.confidence * 100)}% confident` : cov.required ? 'missing (required)' : 'not given'}
                  </li>
                );
              })}
            </ul>
            {Object.values(found.entityCoverage).every((c) => !c.resolved) && !found.familyUnresolved && (
              <p role="status" className="notice">
                Nothing usable was read from the text: fill in the criteria below.
              </p>
            )}
            {found.familyUnresolved && (
              <p className="notice">
                The role is outside the role families: it is searched by its occupations and titles, without a family.
                {found.familySuggestions.length > 0 && (
                  <>
                    {' '}
                    Closest families, if one fits:{' '}
                    {found.familySuggestions.map((s) => (
                      <button key={s.id} type="button" className="link" onClick={() => change({ ...draft, family: s.id })}>
                        {s.label}
                      </button>
                    ))}
                  </>
                )}
              </p>
            )}
            <CriteriaFields draft={draft} onChange={change} reference={reference.data} problems={problems} />
            <p className="cost" data-testid="launch-cost">
              Launching uses {LAUNCH_CREDITS} shortlist credit{credits !== undefined && <> · your balance: {credits} credits</>}.
            </p>
            <button type="submit" disabled={launch.isPending}>
              {launch.isPending ? 'Launching…' : 'Launch search'}
            </button>
            {invalid ? (
              <div role="alert" className="notice error">
                The criteria need a change before launching:
                {problems.form ? (
                  <ul data-problem-for="form">
                    {problems.form.map((m) => (
                      <li key={m}>{m}</li>
                    ))}
                  </ul>
                ) : (
                  ' see the marked fields.'
                )}
              </div>
            ) : (
              launch.isError && <ErrorNotice error={launch.error} retry={() => launch.mutate(criteriaOf(draft, found.criteria))} />
            )}
          </form>
        ))}
    </section>
  );
}
