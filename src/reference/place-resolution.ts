/**
 * Criteria places (DESIGN.md §4a): what a client or the brief reader writes ("Leeds",
 * "Portland, OR", "Bavaria", {name, radius_km}, {id, radius_km}, {lat, lon, radius_km}) resolved
 * on the gazetteer to `{id, name, kind, lat, lon, radius_km}`; the old `metro` and `locations`
 * shorthands resolve to places too.
 */
import { editDistance } from '../domain/edit-distance';
import { distanceKm, gazetteer, placeKey, type GazetteerPlace, type PlaceKind } from './gazetteer';

export const PLACE_RADIUS = { min: 1, max: 500, defaultCityKm: 40 } as const;
/**
 * A city wins over a region of the same name in its country when it holds this share of the
 * region's people ("New York", "Porto", "Valencia" the cities; "Quebec" and "Washington" the
 * regions), and over any other region or country when it holds CITY_OVER_OTHER_SHARE.
 */
const CITY_OVER_OWN_REGION_SHARE = 0.1;
const CITY_OVER_OTHER_SHARE = 0.25;

export type PlaceInput = string | { name: string; radius_km?: number } | { id: string; radius_km?: number } | { lat: number; lon: number; radius_km?: number };

export interface ResolvedPlace {
  /** `geonames:<id>`, `admin1:<CC>.<code>` or, for a point, `point:<lat>,<lon>`. */
  id: string;
  /** "Leeds, England, United Kingdom". */
  name: string;
  kind: PlaceKind;
  lat: number;
  lon: number;
  /** Anywhere within this distance (a city or point); null for a region or country: anywhere in it. */
  radius_km: number | null;
}

export type PlaceResolution = { ok: true; place: ResolvedPlace } | { ok: false; message: string };

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A resolved place from a gazetteer place and the radius asked (a city's default when none). */
export function placeOf(p: GazetteerPlace, radiusKm?: number | null): ResolvedPlace {
  return {
    id: p.id,
    name: p.fullName,
    kind: p.kind,
    lat: p.lat,
    lon: p.lon,
    radius_km: p.kind === 'city' ? (radiusKm ?? gazetteer().shortFormRadius(p.name) ?? PLACE_RADIUS.defaultCityKm) : null,
  };
}

/** The country (ISO2) and, for a region, its region name a resolved place stands for. */
export function placeFacts(p: ResolvedPlace): { country: string; regionName: string | null } {
  const known = gazetteer().byId(p.id) ?? gazetteer().nearestCity(p.lat, p.lon, 300);
  return { country: known?.country ?? '', regionName: p.kind === 'region' ? (known?.regionName ?? null) : null };
}

/** Whether a qualifier ("OR", "Oregon", "UK", "England") names the place's region or country. */
function qualifies(p: GazetteerPlace, qualifier: string): boolean {
  const g = gazetteer();
  const q = qualifier.trim();
  if (q === '') return true;
  const country = g.country(q);
  if (country && country.country === p.country) return true;
  const region = g.regionByAbbreviation(p.country, q) ?? g.regionByAbbreviation(p.country, q.toUpperCase());
  if (region && p.region && region.region === p.region) return true;
  // The region's name, with or without "Region"/"Province" ("Hamilton (Waikato)").
  return p.region !== null && g.named(q).some((r) => r.kind === 'region' && r.region === p.region);
}

/**
 * The place a name stands for among those called so: within the qualifiers' region or country when
 * given; else the most populous, a city before a region or country of its name when it is a big
 * part of it ("New York" the city, "Washington" the state, "Georgia" the state).
 */
export function choosePlace(candidates: readonly GazetteerPlace[], qualifiers: readonly string[] = [], nameKey?: string): GazetteerPlace | undefined {
  const fitting = candidates.filter((p) => qualifiers.every((q) => qualifies(p, q)));
  if (fitting.length === 0) return undefined;
  const best = fitting[0];
  if (best.kind !== 'city') {
    // A city elsewhere only when it goes by the name itself: "Victoria" is the Australian state, not
    // Hong Kong, nor "Maine" Des Plaines (GeoNames lists both names for them); "Querétaro" is the
    // state's capital.
    const g = gazetteer();
    const inside = (p: GazetteerPlace) => (best.kind === 'region' ? p.region === best.region : p.country === best.country);
    const ownName = (p: GazetteerPlace) => nameKey === undefined || inside(p) || !g.isOwnName(nameKey, best) || g.isOwnName(nameKey, p);
    const city = fitting.find(
      (p) =>
        p.kind === 'city' &&
        ownName(p) &&
        p.population >= (p.country === best.country && best.kind === 'region' ? CITY_OVER_OWN_REGION_SHARE : CITY_OVER_OTHER_SHARE) * best.population,
    );
    if (city) return city;
  }
  return best;
}

/** Up to three known places nearest in spelling to an unknown name, for the error message. */
export function closestPlaces(name: string, limit = 3): GazetteerPlace[] {
  const key = placeKey(name);
  if (key === '') return [];
  const max = key.length >= 8 ? 3 : 2;
  const scored: { p: GazetteerPlace; d: number }[] = [];
  for (const [k, places] of gazetteer().names()) {
    if (Math.abs(k.length - key.length) > max || k[0] !== key[0]) continue;
    const d = editDistance(key, k, max);
    if (d <= max) for (const p of places) scored.push({ p, d });
  }
  const seen = new Set<string>();
  return scored
    .sort((a, b) => a.d - b.d || b.p.population - a.p.population)
    .map((s) => s.p)
    .filter((p) => !seen.has(p.id) && seen.add(p.id))
    .slice(0, limit);
}

/** A place name as written in criteria: "Leeds", "Portland, OR", "London (Ontario)", "Bavaria". */
export function resolvePlaceName(written: string, radiusKm?: number): PlaceResolution {
  const g = gazetteer();
  const text = written.trim();
  // "London (Ontario)" reads as "London, Ontario".
  const parts = text
    .replace(/\(([^)]*)\)/g, ',$1')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const whole = g.named(text);
  const chosen =
    (whole.length ? choosePlace(whole, [], placeKey(text)) : undefined) ?? (parts.length ? choosePlace(g.named(parts[0]), parts.slice(1)) : undefined);
  if (!chosen) {
    const near = closestPlaces(parts[0] ?? text);
    const hint = near.length ? `; closest: ${near.map((p) => p.fullName).join('; ')}` : '; see GET /reference/places?q=';
    const inQualifier = parts.length > 1 && g.named(parts[0]).length > 0;
    return {
      ok: false,
      message: inQualifier
        ? `no place called ${JSON.stringify(parts[0])} in ${parts.slice(1).join(', ')}; there are: ${g
            .named(parts[0])
            .slice(0, 3)
            .map((p) => p.fullName)
            .join('; ')}`
        : `unknown place ${JSON.stringify(text)}${hint}`,
    };
  }
  return withRadius(chosen, radiusKm);
}

function withRadius(p: GazetteerPlace, radiusKm: number | undefined): PlaceResolution {
  if (radiusKm !== undefined && p.kind !== 'city') {
    return { ok: false, message: `radius_km applies to a city or a point; ${p.fullName} is a ${p.kind} (a search there means anywhere in it)` };
  }
  return { ok: true, place: placeOf(p, radiusKm) };
}

/** Any place input of criteria. */
export function resolvePlace(input: PlaceInput): PlaceResolution {
  if (typeof input === 'string') return resolvePlaceName(input);
  if ('id' in input) {
    const p = gazetteer().byId(input.id);
    return p
      ? withRadius(p, input.radius_km)
      : { ok: false, message: `unknown place id ${JSON.stringify(input.id)}; ids look like geonames:2644688 (GET /reference/places?q=)` };
  }
  if ('name' in input) return resolvePlaceName(input.name, input.radius_km);
  const near = gazetteer().nearestCity(input.lat, input.lon, 300);
  const lat = round(input.lat, 5);
  const lon = round(input.lon, 5);
  const distance = near ? Math.round(distanceKm(lat, lon, near.lat, near.lon)) : undefined;
  return {
    ok: true,
    place: {
      id: `point:${lat},${lon}`,
      name: near ? (distance! < 1 ? `${near.fullName}` : `${distance} km from ${near.fullName}`) : `${lat}, ${lon}`,
      kind: 'city',
      lat,
      lon,
      radius_km: input.radius_km ?? PLACE_RADIUS.defaultCityKm,
    },
  };
}

/** An old metro id as a place: its main city with a radius covering the metro. */
export function metroPlace(metroId: string): ResolvedPlace | undefined {
  const m = gazetteer().metro(metroId);
  return m ? placeOf(m.place, m.radiusKm) : undefined;
}

/** A country name (criteria `locations`) as a place. */
export function countryPlace(name: string): ResolvedPlace | undefined {
  const c = gazetteer().country(name);
  return c ? placeOf(c) : undefined;
}
