import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { call, idempotencyKey, v1, type IntakeResult, type Schemas } from '../api';
import { ErrorNotice } from '../ui';

/** The chips of intake's coverage, in the order a recruiter reads a brief. */
const CHIPS: Record<string, string> = { job_title: 'Job title', location: 'Location', years_experience: 'Experience', industry: 'Industry', skills: 'Skills' };
/** What launching costs (the key API's launch cost line: 1 shortlist credit). */
const LAUNCH_CREDITS = 1;

interface Draft {
  family: string;
  titles: string;
  metro: string;
  skills: string;
  industries: string;
  yearsMin: string;
  target: string;
  readBudget: string;
}

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

function draftOf(criteria: Record<string, any>): Draft {
  return {
    family: criteria.family ?? '',
    titles: (criteria.titles ?? []).join(', '),
    metro: criteria.metro ?? '',
    skills: (criteria.skills ?? []).join(', '),
    industries: (criteria.industries ?? []).join(', '),
    yearsMin: criteria.years_experience?.min?.toString() ?? '',
    target: criteria.target?.toString() ?? '',
    readBudget: criteria.read_budget?.toString() ?? '',
  };
}

/** The fields the form edits; intake's other fields (locations, seniority…) go along unchanged. */
const EDITED = ['family', 'titles', 'metro', 'skills', 'industries', 'years_experience', 'target', 'read_budget', '_meta'];

/** The criteria to launch: what the recruiter confirmed, without intake's `_meta`. */
function criteriaOf(d: Draft, found: Record<string, unknown>) {
  const c: Record<string, unknown> = Object.fromEntries(Object.entries(found).filter(([k, v]) => !EDITED.includes(k) && v !== null));
  if (d.family.trim()) c.family = d.family.trim();
  if (list(d.titles).length) c.titles = list(d.titles);
  if (d.metro.trim()) c.metro = d.metro.trim();
  if (list(d.skills).length) c.skills = list(d.skills);
  if (list(d.industries).length) c.industries = list(d.industries);
  if (d.yearsMin.trim()) c.years_experience = { min: Number(d.yearsMin) };
  if (d.target.trim()) c.target = Number(d.target);
  if (d.readBudget.trim()) c.read_budget = Number(d.readBudget);
  return c;
}

/** Free text → intake chips with confidence → edit → launch (with its credit cost shown first). */
export function NewSearch({ projectId }: { projectId: string }) {
  const navigate = useNavigate();
  const ids = useId();
  const [rawInput, setRawInput] = useState('');
  const [intake, setIntake] = useState<IntakeResult | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  // One key per confirmed draft: a double click or a retry launches (and charges) once.
  const [launchKey, setLaunchKey] = useState(idempotencyKey);
  const balance = useQuery({ queryKey: ['balance'], queryFn: () => v1<Schemas['Balance']>('GET', '/billing/balance') });

  const read = useMutation({
    mutationFn: () => call<IntakeResult>('POST', '/api/intake', { rawInput }),
    onSuccess: (result) => {
      setIntake(result);
      setDraft(draftOf(result.criteria));
      setLaunchKey(idempotencyKey());
    },
  });
  const launch = useMutation({
    mutationFn: (criteria: Record<string, unknown>) =>
      call<{ scan: Schemas['Search'] }>('POST', '/api/scans', { project_id: projectId, criteria }, { 'Idempotency-Key': launchKey }),
    onSuccess: ({ scan }) => void navigate(`/searches/${scan.id}`),
  });
  const edit = (field: keyof Draft) => (e: { target: { value: string } }) => {
    setDraft((d) => (d ? { ...d, [field]: e.target.value } : d));
    setLaunchKey(idempotencyKey()); // changed criteria are a new launch
  };
  const submitText = (e: FormEvent) => {
    e.preventDefault();
    read.mutate();
  };
  const submitLaunch = (e: FormEvent) => {
    e.preventDefault();
    if (draft && intake) launch.mutate(criteriaOf(draft, intake.criteria));
  };
  const credits = balance.data?.credits;

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
        {read.isError && <ErrorNotice error={read.error} retry={() => read.mutate()} />}
      </form>

      {intake && draft && (
        <form onSubmit={submitLaunch} aria-label="Confirm criteria">
          <ul className="chips" aria-label="What the brief covers">
            {Object.entries(CHIPS).map(([key, label]) => {
              const cov = intake.entityCoverage[key];
              if (!cov) return null;
              const state = cov.resolved ? 'resolved' : cov.required ? 'missing' : 'absent';
              return (
                <li key={key} className={`chip ${state}`} data-chip={key}>
                  {label}: {cov.resolved ? `${Math.round(cov.confidence * 100)}% confident` : cov.required ? 'missing (required)' : 'not given'}
                </li>
              );
            })}
          </ul>
          {intake.familyUnresolved && (
            <p className="notice">
              The role family was not recognised.
              {intake.familySuggestions.length > 0 && <> Closest: {intake.familySuggestions.join(', ')}.</>}
            </p>
          )}
          <div className="grid">
            <label>
              Role family
              <input value={draft.family} onChange={edit('family')} list={`${ids}-families`} />
              <datalist id={`${ids}-families`}>
                {intake.familySuggestions.map((f) => (
                  <option key={f} value={f} />
                ))}
              </datalist>
            </label>
            <label>
              Job titles (comma-separated)
              <input value={draft.titles} onChange={edit('titles')} />
            </label>
            <label>
              Metro
              <input value={draft.metro} onChange={edit('metro')} />
            </label>
            <label>
              Skills (comma-separated)
              <input value={draft.skills} onChange={edit('skills')} />
            </label>
            <label>
              Industries (comma-separated)
              <input value={draft.industries} onChange={edit('industries')} />
            </label>
            <label>
              Minimum years of experience
              <input type="number" min={0} max={60} value={draft.yearsMin} onChange={edit('yearsMin')} />
            </label>
            <label>
              People to shortlist (target)
              <input type="number" min={1} max={200} value={draft.target} onChange={edit('target')} placeholder="25" />
            </label>
            <label>
              Profiles to read at most
              <input type="number" min={1} max={1000} value={draft.readBudget} onChange={edit('readBudget')} placeholder="200" />
            </label>
          </div>
          <p className="cost" data-testid="launch-cost">
            Launching uses {LAUNCH_CREDITS} shortlist credit{credits !== undefined && <> · your balance: {credits} credits</>}.
          </p>
          <button type="submit" disabled={launch.isPending}>
            {launch.isPending ? 'Launching…' : 'Launch search'}
          </button>
          {launch.isError && <ErrorNotice error={launch.error} retry={() => launch.mutate(criteriaOf(draft, intake.criteria))} />}
        </form>
      )}
    </section>
  );
}
