import { useId, useState, type ReactNode } from 'react';
import type { CriteriaReference, Problem } from '../api';
import { NOTHING_KNOWN, OccupationPicker, PlacePicker, placeInput, type Known, type OccupationChoice, type PlaceChoice, type PlaceKind } from './pickers';

/**
 * The search criteria as an editable form (family, occupations, titles, places, seniority,
 * skills, must-haves, industries, years, target, read budget). The server is the one validator:
 * the launch's 400 `invalid_criteria` problems are shown next to the fields they name.
 */

/** DESIGN.md §4a's bounds, for a criteria reference that does not state them. */
const PLACE_DEFAULTS = { maxItems: 20, radius: { min: 1, max: 500, default: 40 } };
const MAX_OCCUPATIONS = 10;

/** The criteria the form edits, as its inputs hold them. */
export interface Draft {
  family: string;
  /** O*NET-SOC occupations, titled when known. */
  occupations: OccupationChoice[];
  titles: string;
  /** Places (criteria `places`), and the older shorthands as read: a metro id, metro ids or countries. */
  places: PlaceChoice[];
  metro: string;
  locations: string[];
  seniority: string[];
  skills: string[];
  mustHaveSkills: string[];
  industries: string;
  yearsMin: string;
  yearsMax: string;
  target: string;
  readBudget: string;
}

/** Criteria fields the form edits; the reader's others (exclusions, threshold) go along unchanged. */
const EDITED = [
  'family',
  'occupations',
  'titles',
  'places',
  'metro',
  'locations',
  'seniority',
  'skills',
  'must_have_skills',
  'industries',
  'years_experience',
  'target',
  'read_budget',
];

const commaList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const digits = (v: unknown) => (typeof v === 'number' ? String(v) : '');
/** A number as typed: empty is "not given"; anything else goes to the server, which validates it. */
const numberOf = (s: string) => (s.trim() === '' ? undefined : Number(s));

/** A reference entry named by its id or label (case-insensitive): readers may answer either. */
const findOption = (options: { id: string; label: string }[], value: string) =>
  options.find((o) => o.id.toLowerCase() === value.toLowerCase() || o.label.toLowerCase() === value.toLowerCase());

const KINDS: readonly string[] = ['city', 'region', 'country'] satisfies PlaceKind[];

/**
 * A place of read criteria as a chip: an id with the name a lookup found (`known`) or a reader
 * gave, a name as written (resolved by the server at launch), or a point.
 */
function placeChoiceOf(value: unknown, known: Known): PlaceChoice | undefined {
  if (typeof value === 'string') return value.trim() ? { ref: { name: value.trim() }, label: value.trim(), radius: '' } : undefined;
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const radius = typeof v.radius_km === 'number' ? String(v.radius_km) : '';
  const kind = typeof v.kind === 'string' && KINDS.includes(v.kind) ? (v.kind as PlaceKind) : undefined;
  if (typeof v.id === 'string') {
    const found = known.places.get(v.id);
    return { ref: { id: v.id }, label: found?.name ?? (text(v.name) || v.id), kind: found?.kind ?? kind, radius };
  }
  if (typeof v.name === 'string') return { ref: { name: v.name }, label: v.name, kind, radius };
  if (typeof v.lat === 'number' && typeof v.lon === 'number') return { ref: { lat: v.lat, lon: v.lon }, label: `${v.lat}, ${v.lon}`, kind: 'city', radius };
  return undefined;
}

/**
 * The reader's criteria as form values: family and metro as the reference ids the selects and
 * chips hold; places and occupations named from `known` (what lookups found for ids and codes).
 */
export function draftOf(criteria: Record<string, unknown>, reference?: CriteriaReference, known: Known = NOTHING_KNOWN): Draft {
  const years = (criteria.years_experience ?? {}) as { min?: unknown; max?: unknown };
  const family = text(criteria.family);
  const metroOf = (m: string) => (reference && findOption(reference.fields.metro.allowed, m)?.id) || m;
  const metro = text(criteria.metro);
  return {
    family: (reference && findOption(reference.fields.family.allowed, family)?.id) || family,
    occupations: strings(criteria.occupations).map((code) => ({ code, title: known.occupations.get(code)?.title ?? '' })),
    titles: strings(criteria.titles).join(', '),
    places: (Array.isArray(criteria.places) ? criteria.places : []).map((p) => placeChoiceOf(p, known)).filter((p): p is PlaceChoice => !!p),
    metro: metro && metroOf(metro),
    locations: strings(criteria.locations).map(metroOf),
    seniority: strings(criteria.seniority),
    skills: strings(criteria.skills),
    mustHaveSkills: strings(criteria.must_have_skills),
    industries: strings(criteria.industries).join(', '),
    yearsMin: digits(years.min),
    yearsMax: digits(years.max),
    target: digits(criteria.target),
    readBudget: digits(criteria.read_budget),
  };
}

/** The criteria to launch: the form's values, and the reader's fields the form does not show (without `_meta`). */
export function criteriaOf(d: Draft, found: Record<string, unknown>): Record<string, unknown> {
  const c: Record<string, unknown> = Object.fromEntries(
    Object.entries(found).filter(([k, v]) => k !== '_meta' && !EDITED.includes(k) && v !== null && v !== undefined),
  );
  if (d.family) c.family = d.family;
  if (d.occupations.length) c.occupations = d.occupations.map((o) => o.code);
  if (commaList(d.titles).length) c.titles = commaList(d.titles);
  if (d.places.length) c.places = d.places.map(placeInput);
  if (d.metro) c.metro = d.metro;
  if (d.locations.length) c.locations = d.locations;
  if (d.seniority.length) c.seniority = d.seniority;
  if (d.skills.length) c.skills = d.skills;
  if (d.mustHaveSkills.length) c.must_have_skills = d.mustHaveSkills;
  if (commaList(d.industries).length) c.industries = commaList(d.industries);
  const years = { min: numberOf(d.yearsMin), max: numberOf(d.yearsMax) };
  if (years.min !== undefined || years.max !== undefined) c.years_experience = years;
  const target = numberOf(d.target);
  if (target !== undefined) c.target = target;
  const readBudget = numberOf(d.readBudget);
  if (readBudget !== undefined) c.read_budget = readBudget;
  return c;
}

/** Where each problem goes: `criteria.skills.2` → the skills field; anything the form has no field for → `form`. */
export function problemsByField(problems: Problem[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of problems) {
    const [root, field, index] = p.field.split('.');
    const key = root === 'criteria' && field && EDITED.includes(field) ? field : 'form';
    const where = p.field.replace(/^criteria\.?/, '');
    // The places are chips of one field: a problem says which one.
    const message =
      key === 'form' && where && where !== '(body)'
        ? `${where}: ${p.message}`
        : key === 'places' && /^\d+$/.test(index ?? '')
          ? `Place ${Number(index) + 1}: ${p.message}`
          : p.message;
    (out[key] ??= []).push(message);
  }
  return out;
}

/** The problems of one field, tied to its input by id (aria-describedby). */
function FieldProblems({ id, field, messages }: { id: string; field: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <ul id={id} className="field-problems" data-problem-for={field}>
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}

/** Every reference skill name once, in alphabetical order: the skills pickers' suggestions. */
function skillNames(reference: CriteriaReference): string[] {
  const { by_family, other } = reference.fields.skills.allowed;
  return [...new Set([...Object.values(by_family).flat(), ...other])].sort((a, b) => a.localeCompare(b));
}

type TextKey = { [K in keyof Draft]: Draft[K] extends string ? K : never }[keyof Draft];

export function CriteriaFields({
  draft,
  onChange,
  reference,
  problems,
}: {
  draft: Draft;
  onChange: (next: Draft) => void;
  reference: CriteriaReference;
  problems: Record<string, string[]>;
}) {
  const ids = useId();
  const f = reference.fields;
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      onChange({ ...draft, [key]: value });
  const onText = (key: TextKey) => (e: { target: { value: string } }) => set(key)(e.target.value);
  const problemsId = (field: string) => `${ids}-${field}-problems`;
  /** Props that mark an input invalid and tie it to its field's problems. */
  const described = (field: string) => (problems[field]?.length ? { 'aria-invalid': true as const, 'aria-describedby': problemsId(field) } : {});
  const problemsOf = (field: string) => <FieldProblems id={problemsId(field)} field={field} messages={problems[field]} />;
  const families = f.family.allowed;
  const familyLabel = (id: string) => families.find((o) => o.id === id)?.label ?? id;
  const metroLabel = (id: string) => findOption(f.metro.allowed, id)?.label;
  const radius = { ...PLACE_DEFAULTS.radius, ...f.places?.allowed?.radius_km };
  /** The problems of several criteria fields in one place (the older `metro` and `locations` show at the places). */
  const problemsOfAll = (...fields: string[]) =>
    fields.map((field) => <FieldProblems key={field} id={problemsId(field)} field={field} messages={problems[field]} />);
  const describedAll = (...fields: string[]) => {
    const marked = fields.filter((field) => problems[field]?.length);
    return marked.length ? { 'aria-invalid': true as const, 'aria-describedby': marked.map(problemsId).join(' ') } : {};
  };
  const years = f.years_experience.properties;
  return (
    <div className="criteria-form">
      <div className="grid">
        <div>
          <label>
            Role family
            <select value={draft.family} onChange={onText('family')} {...described('family')}>
              <option value="">Any family</option>
              {families.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
              {draft.family && !families.some((o) => o.id === draft.family) && <option value={draft.family}>{draft.family} (as read)</option>}
            </select>
          </label>
          {problemsOf('family')}
        </div>
        <div>
          <label>
            Job titles (comma-separated)
            <input value={draft.titles} onChange={onText('titles')} {...described('titles')} />
          </label>
          {problemsOf('titles')}
        </div>
      </div>
      <OccupationPicker
        values={draft.occupations}
        onChange={(occupations, picked) =>
          // An occupation inside a role family fills the family when none is chosen.
          onChange({ ...draft, occupations, family: draft.family || (picked?.family && families.some((o) => o.id === picked.family) ? picked.family : '') })
        }
        familyLabel={familyLabel}
        maxItems={f.occupations?.max_items ?? MAX_OCCUPATIONS}
        describedBy={described('occupations')}
        problems={problemsOf('occupations')}
      />
      <PlacePicker
        places={draft.places}
        metro={draft.metro}
        locations={draft.locations}
        onChange={(next) => onChange({ ...draft, ...next })}
        metroLabel={metroLabel}
        radius={radius}
        maxItems={f.places?.max_items ?? PLACE_DEFAULTS.maxItems}
        describedBy={describedAll('places', 'metro', 'locations')}
        problems={problemsOfAll('places', 'metro', 'locations')}
      />
      <div className="grid">
        <div>
          <label>
            Industries (comma-separated)
            <input value={draft.industries} onChange={onText('industries')} {...described('industries')} />
          </label>
          {problemsOf('industries')}
        </div>
        <div>
          <label>
            Minimum years of experience
            <input
              type="number"
              min={years.min.min}
              max={years.min.max}
              value={draft.yearsMin}
              onChange={onText('yearsMin')}
              {...described('years_experience')}
            />
          </label>
          <label>
            Maximum years of experience
            <input
              type="number"
              min={years.max.min}
              max={years.max.max}
              value={draft.yearsMax}
              onChange={onText('yearsMax')}
              {...described('years_experience')}
            />
          </label>
          {problemsOf('years_experience')}
        </div>
        <div>
          <label>
            People to shortlist (target)
            <input
              type="number"
              min={f.target.min}
              max={f.target.max}
              placeholder={String(f.target.default)}
              value={draft.target}
              onChange={onText('target')}
              {...described('target')}
            />
          </label>
          {problemsOf('target')}
          <label>
            Profiles to read at most
            <input
              type="number"
              min={f.read_budget.min}
              max={f.read_budget.max}
              placeholder={String(f.read_budget.default)}
              value={draft.readBudget}
              onChange={onText('readBudget')}
              {...described('read_budget')}
            />
          </label>
          {problemsOf('read_budget')}
        </div>
      </div>
      <fieldset className="choices" {...described('seniority')}>
        <legend>Seniority</legend>
        {f.seniority.allowed.map((level) => (
          <label key={level} className="check">
            <input
              type="checkbox"
              checked={draft.seniority.includes(level)}
              onChange={(e) => set('seniority')(e.target.checked ? [...draft.seniority, level] : draft.seniority.filter((l) => l !== level))}
            />
            {level}
          </label>
        ))}
        {problemsOf('seniority')}
      </fieldset>
      <datalist id={`${ids}-skills`}>
        {skillNames(reference).map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <SkillPicker
        legend="Skills"
        noun="skill"
        values={draft.skills}
        onChange={set('skills')}
        suggestions={`${ids}-skills`}
        describedBy={described('skills')}
        problems={problemsOf('skills')}
      />
      <SkillPicker
        legend="Must-have skills"
        noun="must-have skill"
        values={draft.mustHaveSkills}
        onChange={set('mustHaveSkills')}
        suggestions={`${ids}-skills`}
        describedBy={described('must_have_skills')}
        problems={problemsOf('must_have_skills')}
      />
    </div>
  );
}

/** A list of skill names: each removable, new ones typed with the reference names suggested (Enter or the button adds). */
function SkillPicker({
  legend,
  noun,
  values,
  onChange,
  suggestions,
  describedBy,
  problems,
}: {
  legend: string;
  noun: string;
  values: string[];
  onChange: (next: string[]) => void;
  suggestions: string;
  describedBy: object;
  problems: ReactNode;
}) {
  const [entry, setEntry] = useState('');
  const add = () => {
    const fresh = commaList(entry).filter((v) => !values.some((x) => x.toLowerCase() === v.toLowerCase()));
    if (fresh.length) onChange([...values, ...fresh]);
    setEntry('');
  };
  return (
    <fieldset className="choices" {...describedBy}>
      <legend>{legend}</legend>
      {values.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="chips" aria-label={legend}>
          {values.map((v) => (
            <li key={v} className="chip">
              {v}{' '}
              <button type="button" className="link" aria-label={`Remove ${noun} ${v}`} onClick={() => onChange(values.filter((x) => x !== v))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <label>
          {noun[0].toUpperCase() + noun.slice(1)} name
          <input
            list={suggestions}
            value={entry}
            onChange={(e) => setEntry(e.target.value)}
            onKeyDown={(e) => {
              // Enter adds the skill instead of submitting (launching) the whole form.
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
        </label>
        <button type="button" onClick={add} disabled={!entry.trim()}>
          Add {noun}
        </button>
      </div>
      {problems}
    </fieldset>
  );
}
