import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { findOccupations, findPlaces, placesById, type ReferenceOccupation, type ReferencePlace } from '../api';

/**
 * The criteria form's open-world pickers (DESIGN.md §4a): places from the gazetteer
 * (GET /reference/places) as chips with a radius for cities, and O*NET-SOC occupations
 * (GET /reference/occupations) as chips; each typed into an autocomplete that keyboards and mice
 * both choose from (the ARIA combobox pattern).
 */

/** Suggestions are asked for once typing pauses this long. */
const DEBOUNCE_MS = 250;

export type PlaceKind = ReferencePlace['kind'];

/** One place of the criteria, as the form holds it. */
export interface PlaceChoice {
  /**
   * How the criteria name it: a gazetteer id (picked here, or read), a name as a reader wrote it
   * ("Portland, OR": the server resolves it at launch), or a point.
   */
  ref: { id: string } | { name: string } | { lat: number; lon: number };
  /** What the chip shows: the gazetteer's name, the reader's name, or (nothing else known) the id. */
  label: string;
  /** Unknown for a name the server has not resolved yet, or an id no lookup named. */
  kind?: PlaceKind;
  /** Kilometres as typed; empty is the server's default. Cities and points only: a region or country is anywhere in it. */
  radius: string;
}

/** One occupation of the criteria: its O*NET-SOC code, and its title once known. */
export interface OccupationChoice {
  code: string;
  title: string;
}

/** Radius bounds and default (GET /reference/criteria → fields.places.allowed.radius_km). */
export interface RadiusBounds {
  min: number;
  max: number;
  default: number;
}

/** A place's identity in the criteria: the same place is chosen once. */
export const placeKeyOf = (p: PlaceChoice) =>
  'id' in p.ref ? p.ref.id : 'name' in p.ref ? `name:${p.ref.name.toLowerCase()}` : `point:${p.ref.lat},${p.ref.lon}`;

/** Whether a chip takes a radius: cities and points; a name or id of unknown kind too (the server says if it does not). */
const takesRadius = (p: PlaceChoice) => p.kind === undefined || p.kind === 'city';

/** The place as criteria `places` take it: `{id, radius_km}` for a city, `{id}` for a region or country. */
export function placeInput(p: PlaceChoice): unknown {
  const typed = p.radius.trim() === '' ? undefined : Number(p.radius);
  const radius = takesRadius(p) && typed !== undefined ? { radius_km: typed } : {};
  if ('id' in p.ref) return { id: p.ref.id, ...radius };
  if ('name' in p.ref) return typed === undefined ? p.ref.name : { name: p.ref.name, ...radius };
  return { lat: p.ref.lat, lon: p.ref.lon, ...radius };
}

function useDebounced<T>(value: T, ms = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A text input with a list of suggestions below it: ↓/↑ move through them, Enter chooses (the
 * highlighted one, else the first), Escape closes the list (and then clears the text); a click
 * chooses too. Enter never submits the surrounding form.
 */
function Combobox<T>({
  label,
  placeholder,
  query,
  onQuery,
  options,
  optionKey,
  renderOption,
  onPick,
  searching,
  failed,
  noun,
  disabled,
}: {
  label: string;
  placeholder?: string;
  query: string;
  onQuery: (q: string) => void;
  options: T[];
  optionKey: (o: T) => string;
  renderOption: (o: T) => ReactNode;
  onPick: (o: T) => void;
  /** The suggestions shown are not yet the typed text's (typing, or the lookup running). */
  searching: boolean;
  failed: boolean;
  noun: string;
  disabled?: boolean;
}) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = query.trim() !== '';
  const shown = open && typed && options.length > 0;
  const current = shown && active < options.length ? active : -1;
  const optionId = (i: number) => `${ids}-option-${i}`;
  useEffect(() => {
    if (current >= 0) document.getElementById(`${ids}-option-${current}`)?.scrollIntoView({ block: 'nearest' });
  }, [ids, current]);
  const pick = (o: T) => {
    onPick(o);
    onQuery('');
    setOpen(false);
    setActive(-1);
  };
  const status = !typed
    ? ''
    : failed
      ? `The ${noun} suggestions could not be loaded; try again.`
      : searching && options.length === 0
        ? 'Searching…'
        : options.length === 0
          ? `No matching ${noun}s.`
          : `${options.length} suggestion${options.length === 1 ? '' : 's'}: ↓ and ↑ to move, Enter to choose.`;
  return (
    <div className="combobox">
      <label>
        {label}
        <input
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={shown}
          aria-controls={`${ids}-list`}
          aria-activedescendant={current >= 0 ? optionId(current) : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          disabled={disabled}
          value={query}
          onChange={(e) => {
            onQuery(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              setOpen(true);
              if (options.length === 0) return;
              const down = e.key === 'ArrowDown';
              setActive(current < 0 ? (down ? 0 : options.length - 1) : (current + (down ? 1 : options.length - 1)) % options.length);
            } else if (e.key === 'Enter') {
              // Enter chooses a suggestion; it never launches the search from here.
              e.preventDefault();
              if (current >= 0) pick(options[current]);
              else if (shown && !searching) pick(options[0]);
            } else if (e.key === 'Escape') {
              if (shown) {
                e.preventDefault();
                setOpen(false);
              } else if (typed) {
                e.preventDefault();
                onQuery('');
              }
            }
          }}
        />
      </label>
      <ul id={`${ids}-list`} role="listbox" aria-label={`${label}: suggestions`} className="suggestions" hidden={!shown}>
        {shown &&
          options.map((o, i) => (
            <li
              key={optionKey(o)}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              // Keeps the focus in the input, so the click is not lost to its blur.
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(o)}
            >
              {renderOption(o)}
            </li>
          ))}
      </ul>
      <p aria-live="polite" className={options.length > 0 || !typed ? 'sr-only' : 'muted combobox-status'}>
        {open ? status : ''}
      </p>
    </div>
  );
}

/**
 * A lookup of reference suggestions for what is typed, debounced. Only the typed text's own answer
 * is offered: an earlier text's suggestions ("Leed" while "Mun" loads) are never chosen by mistake.
 */
function useSuggestions<T>(kind: string, query: string, minLength: number, find: (q: string) => Promise<T[]>) {
  const typed = query.trim();
  const settled = useDebounced(typed);
  const enabled = settled.length >= minLength;
  const found = useQuery({
    queryKey: ['reference', kind, settled.toLowerCase()],
    queryFn: () => find(settled),
    enabled,
    staleTime: Infinity,
    retry: 1,
  });
  const current = enabled && settled === typed;
  return {
    options: current ? (found.data ?? []) : [],
    searching: typed.length >= minLength && (!current || found.isFetching),
    failed: current && found.isError,
  };
}

/** A remove button for a chip: "×", named for screen readers. */
const RemoveChip = ({ name, onClick }: { name: string; onClick: () => void }) => (
  <button type="button" className="link" aria-label={`Remove ${name}`} onClick={onClick}>
    ×
  </button>
);

/**
 * Where people should be: the criteria's places as chips (a city with its radius, a region or
 * country anywhere in it), the older `metro` and `locations` as chips too, and an autocomplete
 * for more places.
 */
export function PlacePicker({
  places,
  metro,
  locations,
  onChange,
  metroLabel,
  radius,
  maxItems,
  describedBy,
  problems,
}: {
  places: PlaceChoice[];
  metro: string;
  locations: string[];
  onChange: (next: { places?: PlaceChoice[]; metro?: string; locations?: string[] }) => void;
  /** A metro id's label (GET /reference/criteria → fields.metro.allowed); undefined for a country. */
  metroLabel: (id: string) => string | undefined;
  radius: RadiusBounds;
  maxItems: number;
  describedBy: object;
  problems: ReactNode;
}) {
  const [query, setQuery] = useState('');
  const { options, searching, failed } = useSuggestions('places', query, 1, findPlaces);
  const chosen = new Set(places.map(placeKeyOf));
  const full = places.length >= maxItems;
  const add = (p: ReferencePlace) => {
    if (chosen.has(p.id)) return;
    onChange({ places: [...places, { ref: { id: p.id }, label: p.name, kind: p.kind, radius: p.kind === 'city' ? String(radius.default) : '' }] });
  };
  const setRadius = (i: number, value: string) => onChange({ places: places.map((p, j) => (j === i ? { ...p, radius: value } : p)) });
  const none = places.length === 0 && !metro && locations.length === 0;
  return (
    <fieldset className="choices" {...describedBy}>
      <legend>Location</legend>
      {none ? (
        <p className="muted">Anywhere.</p>
      ) : (
        <ul className="chips" aria-label="Chosen places">
          {metro && (
            <li className="chip" data-place={`metro:${metro}`}>
              {metroLabel(metro) ?? metro} <span className="muted">· metro area</span>{' '}
              <RemoveChip name={`place ${metroLabel(metro) ?? metro}`} onClick={() => onChange({ metro: '' })} />
            </li>
          )}
          {locations.map((l) => {
            const label = metroLabel(l) ?? l;
            return (
              <li key={`location:${l}`} className="chip" data-place={`location:${l}`}>
                {label} <span className="muted">· {metroLabel(l) ? 'metro area' : 'anywhere in it'}</span>{' '}
                <RemoveChip name={`place ${label}`} onClick={() => onChange({ locations: locations.filter((x) => x !== l) })} />
              </li>
            );
          })}
          {places.map((p, i) => (
            <li key={placeKeyOf(p)} className="chip place" data-place={placeKeyOf(p)}>
              <span>{p.label}</span> <span className="muted">· {p.kind ?? 'as read'}</span>{' '}
              {takesRadius(p) ? (
                <label className="radius">
                  within
                  <input
                    type="number"
                    inputMode="numeric"
                    min={radius.min}
                    max={radius.max}
                    placeholder={String(radius.default)}
                    aria-label={`Radius around ${p.label} (km)`}
                    value={p.radius}
                    onChange={(e) => setRadius(i, e.target.value)}
                  />
                  km
                </label>
              ) : (
                <span className="muted">anywhere in it</span>
              )}{' '}
              <RemoveChip name={`place ${p.label}`} onClick={() => onChange({ places: places.filter((_, j) => j !== i) })} />
            </li>
          ))}
        </ul>
      )}
      <Combobox
        label="Add a place"
        placeholder="City, region or country"
        noun="place"
        query={query}
        onQuery={setQuery}
        options={options}
        optionKey={(p) => p.id}
        renderOption={(p) => (
          <>
            {p.name} <span className="muted">· {p.kind}</span>
            {chosen.has(p.id) && <span className="muted"> (chosen)</span>}
          </>
        )}
        onPick={add}
        searching={searching}
        failed={failed}
        disabled={full}
      />
      <p className="muted hint">
        {full
          ? `At most ${maxItems} places.`
          : `A city counts fully within its radius (${radius.min}–${radius.max} km, ${radius.default} by default) and less up to twice it; a region or country anywhere in it.`}
      </p>
      {problems}
    </fieldset>
  );
}

/** The occupations wanted (O*NET-SOC), as chips "Pharmacists (29-1051.00)", with an autocomplete for more. */
export function OccupationPicker({
  values,
  onChange,
  familyLabel,
  maxItems,
  describedBy,
  problems,
}: {
  values: OccupationChoice[];
  /** `picked`: the occupation just chosen from the suggestions. */
  onChange: (next: OccupationChoice[], picked?: ReferenceOccupation) => void;
  familyLabel: (id: string) => string;
  maxItems: number;
  describedBy: object;
  problems: ReactNode;
}) {
  const [query, setQuery] = useState('');
  const { options, searching, failed } = useSuggestions('occupations', query, 2, findOccupations);
  const chosen = new Set(values.map((o) => o.code));
  const full = values.length >= maxItems;
  const nameOf = (o: OccupationChoice) => (o.title ? `${o.title} (${o.code})` : o.code);
  return (
    <fieldset className="choices" {...describedBy}>
      <legend>Occupations</legend>
      {values.length === 0 ? (
        <p className="muted">Any occupation.</p>
      ) : (
        <ul className="chips" aria-label="Chosen occupations">
          {values.map((o) => (
            <li key={o.code} className="chip" data-occupation={o.code}>
              {nameOf(o)} <RemoveChip name={`occupation ${nameOf(o)}`} onClick={() => onChange(values.filter((x) => x.code !== o.code))} />
            </li>
          ))}
        </ul>
      )}
      <Combobox
        label="Add an occupation"
        placeholder="Job title or O*NET-SOC code"
        noun="occupation"
        query={query}
        onQuery={setQuery}
        options={options}
        optionKey={(o) => o.code}
        renderOption={(o) => (
          <>
            {o.title}{' '}
            <span className="muted">
              · {o.code}
              {o.family ? ` · ${familyLabel(o.family)}` : ''}
            </span>
            {chosen.has(o.code) && <span className="muted"> (chosen)</span>}
          </>
        )}
        onPick={(o) => {
          if (!chosen.has(o.code)) onChange([...values, { code: o.code, title: o.title }], o);
        }}
        searching={searching}
        failed={failed}
        disabled={full}
      />
      {full && <p className="muted hint">At most {maxItems} occupations.</p>}
      {problems}
    </fieldset>
  );
}

// ---- names for what a reader gave as ids and codes ----

/** What the form knows about the places and occupations a reader named by id or code. */
export interface Known {
  places: ReadonlyMap<string, ReferencePlace>;
  occupations: ReadonlyMap<string, ReferenceOccupation>;
}
export const NOTHING_KNOWN: Known = { places: new Map(), occupations: new Map() };

/** The gazetteer's names of places a reader gave by id (GET /reference/places?ids=, 20 at a time). */
async function namePlaces(ids: string[]): Promise<Map<string, ReferencePlace>> {
  const found = new Map<string, ReferencePlace>();
  for (let i = 0; i < ids.length; i += 20) for (const p of await placesById(ids.slice(i, i + 20))) found.set(p.id, p);
  return found;
}

/** Occupation titles for codes (GET /reference/occupations takes the start of a code as q). */
async function titleOccupations(codes: string[]): Promise<Map<string, ReferenceOccupation>> {
  const found = await Promise.all(
    codes.map((code) =>
      findOccupations(code).then(
        (list) => list.find((o) => o.code === code),
        () => undefined,
      ),
    ),
  );
  return new Map(found.filter((o): o is ReferenceOccupation => !!o).map((o) => [o.code, o]));
}

/** Names for the read criteria's place ids and titles for its occupation codes; never fails (what is not found stays unnamed). */
export async function lookUpRead(criteria: Record<string, unknown>): Promise<Known> {
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  const ids = list(criteria.places)
    .map((p) =>
      p && typeof p === 'object' && typeof (p as { id?: unknown }).id === 'string' && !(p as { name?: unknown }).name ? (p as { id: string }).id : undefined,
    )
    .filter((id): id is string => !!id);
  const codes = list(criteria.occupations).filter((c): c is string => typeof c === 'string');
  const [places, occupations] = await Promise.all([namePlaces(ids).catch(() => new Map()), titleOccupations(codes).catch(() => new Map())]);
  return { places, occupations };
}
