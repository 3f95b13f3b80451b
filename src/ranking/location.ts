/**
 * The location signal (DESIGN.md §4a): a person inside a city place's radius matches it fully,
 * falling linearly to 0 at twice the radius; region and country places are inside or not. The
 * best of the wanted places counts. The scorer's rule and its SQL twin are side by side here.
 */
import { placeKey, distanceKm } from '../reference/gazetteer';
import { countryPlace, metroPlace, placeFacts, type ResolvedPlace } from '../reference/place-resolution';
import type { ResolvedCriteria } from '../domain/criteria';
import type { PersonLocation } from '../domain/profile';

/**
 * The places a search wants: its resolved `places`, or for criteria stored before places existed,
 * its `metro` and `locations` resolved now.
 */
export function placesOf(c: Pick<ResolvedCriteria, 'places' | 'metro' | 'locations'>): ResolvedPlace[] {
  if (c.places) return c.places;
  const out: ResolvedPlace[] = [];
  for (const id of [c.metro, ...(c.locations ?? [])].filter((x): x is string => !!x)) {
    const place = metroPlace(id) ?? countryPlace(id);
    if (place && !out.some((p) => p.id === place.id)) out.push(place);
  }
  return out;
}

/** How people and region places meet: country and the region's name (`GB|england`); the loader writes `people.region_key` so. */
export const regionKey = (country: string, regionName: string) => `${country}|${placeKey(regionName)}`;

/** A place's own name for reasons: "Leeds" of "Leeds, England, United Kingdom". */
const shortName = (p: ResolvedPlace) => p.name.split(',')[0];

/** 1 inside the radius, linearly to 0 at twice the radius. */
export const withinRadius = (km: number, radiusKm: number) => (km <= radiusKm ? 1 : km >= 2 * radiusKm ? 0 : (2 * radiusKm - km) / radiusKm);

export function scoreLocation(location: PersonLocation | null | undefined, places: readonly ResolvedPlace[]): { match: number; reason: string } {
  const hasPoint = typeof location?.lat === 'number' && typeof location?.lon === 'number';
  if (!location || (!hasPoint && !location.country)) return { match: 0, reason: 'no location on profile' };
  let best: { match: number; reason: string } | undefined;
  const consider = (match: number, reason: string) => {
    if (!best || match > best.match) best = { match, reason };
  };
  for (const p of places) {
    if (p.kind === 'country') {
      if (location.country === placeFacts(p).country) consider(1, `in ${p.name}`);
    } else if (p.kind === 'region') {
      const facts = placeFacts(p);
      const inside = location.country === facts.country && !!location.region && placeKey(location.region) === placeKey(facts.regionName ?? shortName(p));
      if (inside) consider(1, `in ${shortName(p)}`);
    } else if (hasPoint) {
      const km = distanceKm(location.lat!, location.lon!, p.lat, p.lon);
      const r = p.radius_km ?? 40;
      const match = withinRadius(km, r);
      const distance = km < 1 ? `in ${shortName(p)}` : `${Math.round(km)} km from ${shortName(p)}`;
      consider(match, match === 1 ? distance : `${distance}, beyond ${r} km`);
    }
  }
  return best ?? { match: 0, reason: `${location.name || location.country}: outside the wanted places` };
}

// ---- the SQL twin ----

/** Grid cells the people table indexes (`geo_cell`): a quarter of a degree. */
export const CELL_DEGREES = 0.25;
const CELLS_PER_ROW = 360 / CELL_DEGREES;

/** The cell of a point, as the loader writes `people.geo_cell`. */
export const geoCell = (lat: number, lon: number) =>
  Math.floor((lat + 90) / CELL_DEGREES) * CELLS_PER_ROW + Math.floor(((((lon + 180) % 360) + 360) % 360) / CELL_DEGREES);

/** A latitude/longitude box holding every point within `km` of a point (the whole longitude range near a pole or across the antimeridian). */
export function boundingBox(lat: number, lon: number, km: number): { minLat: number; maxLat: number; minLon: number; maxLon: number } {
  const dLat = km / 111.19;
  const cos = Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180);
  const dLon = km / (111.32 * Math.max(0.01, cos));
  if (lon - dLon < -180 || lon + dLon > 180 || dLon >= 180) return { minLat: lat - dLat, maxLat: lat + dLat, minLon: -180, maxLon: 180 };
  return { minLat: lat - dLat, maxLat: lat + dLat, minLon: lon - dLon, maxLon: lon + dLon };
}

/** Every cell within `km` of a point (a bounding box of cells; the distance itself is computed per row). */
export function cellsAround(lat: number, lon: number, km: number): number[] {
  const dLat = km / 111.2;
  const cos = Math.max(0.01, Math.cos((Math.min(89, Math.abs(lat)) * Math.PI) / 180));
  const dLon = Math.min(180, km / (111.32 * cos));
  const out: number[] = [];
  for (let la = Math.max(-90, lat - dLat); la <= Math.min(89.999, lat + dLat) + CELL_DEGREES; la += CELL_DEGREES) {
    const row = Math.floor((Math.min(89.999, la) + 90) / CELL_DEGREES);
    for (let lo = lon - dLon; lo <= lon + dLon + CELL_DEGREES; lo += CELL_DEGREES) {
      const col = Math.floor(((((lo + 180) % 360) + 360) % 360) / CELL_DEGREES);
      out.push(row * CELLS_PER_ROW + col);
    }
  }
  return [...new Set(out)];
}

/** Haversine in SQL over the people table's lat/lon (km), matching distanceKm. */
export const sqlDistanceKm = (lat: string, lon: string) =>
  `(2 * 6371.0088 * asin(least(1, sqrt(power(sin(radians(lat - ${lat}) / 2), 2) + cos(radians(${lat})) * cos(radians(lat)) * power(sin(radians(lon - ${lon}) / 2), 2)))))`;

/** The places of a ranking query, as its SQL needs them. */
export interface PlaceQuery {
  cities: { lat: number; lon: number; radiusKm: number }[];
  countries: string[];
  /** Region places as (country, region name) keys: `GB|england`. */
  regions: string[];
  /** Cells covering twice every city place's radius: everyone with some location credit. */
  cells: number[];
}

export function placeQuery(places: readonly ResolvedPlace[]): PlaceQuery {
  const cities = places.filter((p) => p.kind === 'city').map((p) => ({ lat: p.lat, lon: p.lon, radiusKm: p.radius_km ?? 40 }));
  return {
    cities,
    countries: places.filter((p) => p.kind === 'country').map((p) => placeFacts(p).country),
    regions: places.filter((p) => p.kind === 'region').map((p) => regionKey(placeFacts(p).country, placeFacts(p).regionName ?? shortName(p))),
    cells: [...new Set(cities.flatMap((c) => cellsAround(c.lat, c.lon, 2 * c.radiusKm)))],
  };
}

/**
 * The location match as one SQL expression over the people columns lat, lon, country and
 * region_key, with its named bindings: the greatest of each city's radius rule and membership in
 * a wanted country or region.
 */
export function locationSql(q: PlaceQuery): { sql: string; bindings: Record<string, unknown> } {
  const terms: string[] = [];
  const bindings: Record<string, unknown> = {};
  q.cities.forEach((c, i) => {
    bindings[`locLat${i}`] = c.lat;
    bindings[`locLon${i}`] = c.lon;
    bindings[`locR${i}`] = c.radiusKm;
    const box = boundingBox(c.lat, c.lon, 2 * c.radiusKm);
    Object.assign(bindings, { [`locMinLat${i}`]: box.minLat, [`locMaxLat${i}`]: box.maxLat, [`locMinLon${i}`]: box.minLon, [`locMaxLon${i}`]: box.maxLon });
    const d = sqlDistanceKm(`:locLat${i}::float8`, `:locLon${i}::float8`);
    // Only rows inside the box around twice the radius can score: the distance is computed for them alone.
    const inBox = `lat between :locMinLat${i}::float8 and :locMaxLat${i}::float8 and lon between :locMinLon${i}::float8 and :locMaxLon${i}::float8`;
    terms.push(`(case when ${inBox} then coalesce(greatest(0, least(1, (2 * :locR${i}::float8 - ${d}) / :locR${i}::float8)), 0) else 0 end)`);
  });
  if (q.countries.length) {
    bindings.locCountries = q.countries;
    terms.push(`(country = any(:locCountries::text[]))::int`);
  }
  if (q.regions.length) {
    bindings.locRegions = q.regions;
    terms.push(`(region_key = any(:locRegions::text[]))::int`);
  }
  return { sql: terms.length === 0 ? '0' : terms.length === 1 ? terms[0] : `greatest(${terms.join(', ')})`, bindings };
}

/**
 * How far a person is from the nearest wanted city, as a sort key (smaller is nearer), or null when
 * the query names no city: the retrieval order among equal estimates, so that people beyond twice
 * the radius (no location credit) come nearest first, not in id order. An equirectangular proxy in
 * degrees², cheap beside the haversine and in the same order as the distance around each city.
 */
export function nearnessSql(q: PlaceQuery): { sql: string; bindings: Record<string, unknown> } | null {
  if (q.cities.length === 0) return null;
  const bindings: Record<string, unknown> = {};
  const terms = q.cities.map((c, i) => {
    Object.assign(bindings, { [`nearLat${i}`]: c.lat, [`nearLon${i}`]: c.lon, [`nearCos${i}`]: Math.cos((c.lat * Math.PI) / 180) });
    return `power(lat - :nearLat${i}::float8, 2) + power((lon - :nearLon${i}::float8) * :nearCos${i}::float8, 2)`;
  });
  return { sql: terms.length === 1 ? terms[0] : `least(${terms.join(', ')})`, bindings };
}

/** Whether a person is where some location credit is: near a city place (by cell), in a wanted country or region. */
export function inPlacesSql(q: PlaceQuery): { sql: string; bindings: Record<string, unknown> } {
  const parts: string[] = [];
  const bindings: Record<string, unknown> = {};
  if (q.cells.length) {
    bindings.tierCells = q.cells;
    parts.push('geo_cell = any(:tierCells::int[])');
  }
  if (q.countries.length) {
    bindings.tierCountries = q.countries;
    parts.push('country = any(:tierCountries::text[])');
  }
  if (q.regions.length) {
    bindings.tierRegions = q.regions;
    parts.push('region_key = any(:tierRegions::text[])');
  }
  return { sql: parts.length ? `(${parts.join(' or ')})` : 'false', bindings };
}
