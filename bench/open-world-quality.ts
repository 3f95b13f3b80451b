import type { Db } from '../src/db/knex';
import { regionKey } from '../src/ranking/location';
import { distanceKm, gazetteer } from '../src/reference/gazetteer';
import { countryPlace, metroPlace, resolvePlace, type PlaceInput, type ResolvedPlace } from '../src/reference/place-resolution';
import { CUTOFF, DEFAULT_CITY_RADIUS_KM, type LabelPlace, type OpenWorldLabels, type TitleAccuracy, type TitleLabel } from './quality/open-world-grader';

/**
 * What `npm run bench -- quality` measures on the open-world sets (bench/quality/README.md,
 * "Open-world sets") besides the grader's nDCG: how well the reader read places and occupations,
 * and the keyword baseline restricted to the labelled places. The grading itself stays in
 * bench/quality/open-world-grader.ts (independent of the service); this file may use the service's
 * reference data, since it scores the reader's output, not the people.
 */

/** What the quality bench keeps of a search's criteria: the reader's output or the search record's. */
export interface ReadCriteria {
  family?: string;
  occupations?: string[];
  titles?: string[];
  metro?: string;
  locations?: string[];
  /** As the reader writes them (names, {id, radius_km}) or as the search record holds them (resolved). */
  places?: unknown[];
  seniority?: string[];
}

/** A city read within this distance of the labelled city counts as the labelled city. */
export const CITY_MATCH_KM = 30;
/** A stated radius read within this many km of the labelled one counts as right. */
export const RADIUS_TOLERANCE_KM = 2;

const isResolved = (p: unknown): p is ResolvedPlace =>
  typeof p === 'object' && p !== null && typeof (p as ResolvedPlace).kind === 'string' && typeof (p as ResolvedPlace).lat === 'number';

/**
 * Every place the criteria stand for, resolved on the gazetteer as a search resolves them:
 * `places` (already resolved in a search record), then `metro` and `locations`; each place once.
 */
export function readPlaces(c: ReadCriteria | null): ResolvedPlace[] {
  if (!c) return [];
  const out: ResolvedPlace[] = [];
  const add = (p: ResolvedPlace | undefined) => {
    if (p && !out.some((q) => q.id === p.id && q.radius_km === p.radius_km)) out.push(p);
  };
  for (const p of c.places ?? []) {
    if (isResolved(p)) add(p);
    else {
      const r = resolvePlace(p as PlaceInput);
      if (r.ok) add(r.place);
    }
  }
  for (const id of [c.metro, ...(c.locations ?? [])].filter((x): x is string => !!x)) add(metroPlace(id) ?? countryPlace(id));
  return out;
}

/** The gazetteer id a labelled region or country stands for. */
function labelId(l: LabelPlace): string {
  if (l.geonameid !== null) return `geonames:${l.geonameid}`;
  return l.kind === 'region' ? `admin1:${l.country}.${l.admin1 ?? ''}` : `country:${l.country}`;
}

/** Whether a read place is the labelled one (the rule of the bench's place accuracy). */
function sameAs(l: LabelPlace, p: ResolvedPlace): boolean {
  if (l.kind === 'city') {
    // A city or a point: within CITY_MATCH_KM of the labelled city; a stated radius within ±2 km.
    if (p.radius_km === null) return false;
    if (distanceKm(l.lat, l.lon, p.lat, p.lon) > CITY_MATCH_KM) return false;
    return l.radius_km === null || Math.abs(p.radius_km - l.radius_km) <= RADIUS_TOLERANCE_KM;
  }
  if (p.id === labelId(l)) return true;
  // A label without a GeoNames id: the same kind in the same country (and region).
  if (l.geonameid !== null || p.kind !== l.kind) return false;
  const known = gazetteer().byId(p.id);
  return known?.country === l.country && (l.kind === 'country' || known?.region === `${l.country}.${l.admin1}`);
}

export interface PlaceCheck {
  kind: LabelPlace['kind'];
  /** The label states a radius. */
  stated: boolean;
  /** The brief is of kind `old-metro` (a labelled city within 40 km of one of the 68 old metros). */
  oldMetro: boolean;
  right: boolean;
}

export interface BriefPlaceAccuracy {
  places: PlaceCheck[];
  /** Every labelled place read (and, for a brief that names none, none read). */
  allRight: boolean;
  /** Read places that are none of the labelled ones. */
  extra: number;
}

/** Which labelled places the reader read (any of its places may match), and what it read beyond them. */
export function placeAccuracy(labels: { places: LabelPlace[] }, briefKinds: readonly string[], read: ResolvedPlace[]): BriefPlaceAccuracy {
  const oldMetro = briefKinds.includes('old-metro');
  const places = labels.places.map((l) => ({
    kind: l.kind,
    stated: l.kind === 'city' && l.radius_km !== null,
    oldMetro: oldMetro && l.kind === 'city',
    right: read.some((p) => sameAs(l, p)),
  }));
  const extra = read.filter((p) => !labels.places.some((l) => sameAs(l, p))).length;
  return { places, allRight: labels.places.length === 0 ? read.length === 0 : places.every((p) => p.right), extra };
}

const pct = (n: number, d: number) => (d ? `${n}/${d} (${((100 * n) / d).toFixed(0)} %)` : '0/0');

/** One line of place accuracy over a set of briefs. */
export function placeAccuracyLine(results: BriefPlaceAccuracy[]): string {
  const all = results.flatMap((r) => r.places);
  const count = (f: (p: PlaceCheck) => boolean) => {
    const xs = all.filter(f);
    return pct(xs.filter((p) => p.right).length, xs.length);
  };
  return [
    `cities ${count((p) => p.kind === 'city')} (default radius ${count((p) => p.kind === 'city' && !p.stated)}, stated radius ${count((p) => p.stated)})`,
    `old metros' own cities ${count((p) => p.oldMetro)}`,
    `regions ${count((p) => p.kind === 'region')}`,
    `countries ${count((p) => p.kind === 'country')}`,
    `briefs with every place right ${pct(results.filter((r) => r.allRight).length, results.length)}`,
    `briefs with an unlabelled place read too ${results.filter((r) => r.extra > 0).length}`,
  ].join(', ');
}

export interface OccupationAccuracy {
  /** The reader's first code is one of the labelled codes. */
  exact: boolean;
  /** Its first code has the 6-digit SOC code (7 characters, "29-1051") of a labelled code. */
  socPrefix: boolean;
  /** Nothing read (no occupation). */
  none: boolean;
  /** In a family: the labelled family read; outside every family: no family read. */
  family: boolean;
}

export function occupationAccuracy(labels: Pick<OpenWorldLabels, 'onet_codes' | 'family'>, c: ReadCriteria | null): OccupationAccuracy {
  const first = c?.occupations?.[0] ?? null;
  const exact = first !== null && labels.onet_codes.includes(first);
  return {
    exact,
    socPrefix: exact || (first !== null && labels.onet_codes.some((code) => code.slice(0, 7) === first.slice(0, 7))),
    none: first === null,
    family: labels.family === null ? !c?.family : c?.family === labels.family,
  };
}

export function occupationAccuracyLine(results: OccupationAccuracy[]): string {
  const n = results.length;
  return `occupation: first code exact ${pct(results.filter((r) => r.exact).length, n)}, same SOC (7 characters) ${pct(results.filter((r) => r.socPrefix).length, n)}, none read ${results.filter((r) => r.none).length}; family (none for roles outside the families) ${pct(results.filter((r) => r.family).length, n)}`;
}

/** The reading of a title as titleAccuracy takes it: the reader's codes, best first, each with the family read. */
export function titleReading(c: ReadCriteria): { onet_code: string | null; family: string | null }[] {
  const family = c.family ?? null;
  const codes = c.occupations ?? [];
  if (codes.length) return codes.map((code) => ({ onet_code: code, family }));
  return family ? [{ onet_code: null, family }] : [];
}

export type TitleResult = { label: TitleLabel; accuracy: TitleAccuracy; ms: number };

// ---------------------------------------------------------------------------------------------
// The keyword baseline within the labelled places
// ---------------------------------------------------------------------------------------------

const finite = (x: number) => {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  return String(x);
};

/** SQL (people columns) for "in this labelled place", with its bindings. */
function withinSql(l: LabelPlace, bindings: (string | number)[]): string {
  if (l.kind === 'country') {
    bindings.push(l.country);
    return 'country = ?';
  }
  if (l.kind === 'region') {
    // People meet regions through region_key (country and the region's name), as the loader writes it.
    const place = gazetteer().byId(labelId(l));
    if (!place) throw new Error(`region ${l.name} (${labelId(l)}) is not in the gazetteer`);
    bindings.push(regionKey(l.country, place.regionName ?? place.name));
    return 'region_key = ?';
  }
  const r = l.radius_km ?? DEFAULT_CITY_RADIUS_KM;
  const dLat = r / 111;
  const dLon = r / (111 * Math.max(0.05, Math.cos((Math.min(89, Math.abs(l.lat) + dLat) * Math.PI) / 180)));
  const [la, lo] = [finite(l.lat), finite(l.lon)];
  // A box first (cheap), then the great-circle distance.
  return (
    `(lat between ${finite(l.lat - dLat)} and ${finite(l.lat + dLat)} and lon between ${finite(l.lon - dLon)} and ${finite(l.lon + dLon)} and ` +
    `2 * 6371.0088 * asin(least(1, sqrt(power(sin(radians(${la} - lat) / 2), 2) + cos(radians(lat)) * cos(radians(${la})) * power(sin(radians(${lo} - lon) / 2), 2)))) <= ${finite(r)})`
  );
}

/**
 * The keyword baseline of grader.ts (plain Postgres full-text search over title and skills, every
 * word of the brief OR-ed, ranked by ts_rank_cd), but only among people inside the labelled places:
 * within a city's radius (40 km when the brief gives none), in a region or in a country. A brief
 * naming no place searches everyone. What a developer gets with a keyword box and a correct place
 * filter, without understanding the role.
 */
export async function keywordBaselineWithin(db: Db, text: string, places: LabelPlace[]): Promise<string[]> {
  const bindings: (string | number)[] = [text];
  const within = places.length ? places.map((l) => withinSql(l, bindings)).join(' or ') : 'true';
  bindings.push(CUTOFF);
  const { rows } = await db.raw(
    `with q as (select to_tsquery('english', coalesce(string_agg(quote_literal(lexeme), ' | '), '')) as q from unnest(to_tsvector('english', ?)))
     select p.id from people p, q where p.search_vector @@ q.q and (${within}) order by ts_rank_cd(p.search_vector, q.q) desc, p.id limit ?`,
    bindings,
  );
  return (rows as { id: string }[]).map((r) => r.id);
}
