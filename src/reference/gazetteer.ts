/**
 * The gazetteer (DESIGN.md §4a): GeoNames cities of 15,000+ people, first-level regions and
 * countries (src/reference/data/gazetteer/*.tsv, built by tools/reference/build-gazetteer.ts,
 * CC BY 4.0; docs/reference/gazetteer.md), held in memory for the brief reader, criteria and
 * GET /reference/places: lookups by id, by name (with alternate names, region abbreviations and
 * short forms), by prefix, and the nearest city to a point. Loaded on first use.
 */
import fs from 'node:fs';
import path from 'node:path';

export type PlaceKind = 'city' | 'region' | 'country';

export interface GazetteerPlace {
  /** `geonames:<id>`; a region without a GeoNames id: `admin1:<CC>.<code>`. */
  id: string;
  kind: PlaceKind;
  /** Its own name, e.g. "Leeds". */
  name: string;
  /** Name, region and country: "Leeds, England, United Kingdom". */
  fullName: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  countryName: string;
  /** `CC.admin1` of the region a city is in, or a region's own key. */
  region: string | null;
  regionName: string | null;
  lat: number;
  lon: number;
  population: number;
}

export interface Gazetteer {
  byId(id: string): GazetteerPlace | undefined;
  /**
   * Places called this (any case or accents; alternate names and short forms too): those whose own
   * name it is first, then those with it as an alternate name; each most populous first.
   */
  named(name: string): GazetteerPlace[];
  /** `named` for a name already normalised by `placeKey` (the reader's hot path). */
  namedKey(key: string): readonly GazetteerPlace[];
  /** A region by its abbreviation within a country ("CA" in US, "ON" in CA, "NSW" in AU), or undefined. */
  regionByAbbreviation(country: string, abbreviation: string): GazetteerPlace | undefined;
  /** Every region abbreviation (as written, e.g. "CA", "ON", "NSW") → regions with it. */
  regionAbbreviations(): ReadonlyMap<string, GazetteerPlace[]>;
  /** Whether this, as written, is a country's usual abbreviation ("UK", "USA", "U.A.E."), not just an ISO code. */
  isCountryAbbreviation(written: string): boolean;
  /** A country by ISO2, ISO3, name or alias. */
  country(name: string): GazetteerPlace | undefined;
  /** Places whose name (or an alternate) starts with the text, most populous first. */
  search(prefix: string, limit: number): GazetteerPlace[];
  /** The nearest city to a point, within `maxKm`. */
  nearestCity(lat: number, lon: number, maxKm?: number): GazetteerPlace | undefined;
  /** The radius a short form stands for ("Bay Area": San Francisco, 80 km), when it is one. */
  shortFormRadius(name: string): number | undefined;
  /** The old metros (src/reference/data/metros.json) as places: main city and a radius covering the metro. */
  metro(id: string): { place: GazetteerPlace; radiusKm: number } | undefined;
  cities(): readonly GazetteerPlace[];
  /** Every normalised name the index knows (for the reader's tables). */
  names(): ReadonlyMap<string, GazetteerPlace[]>;
  /**
   * Whether a name (a `placeKey`) is also an everyday word or a given name ("reading", "mobile",
   * "jordan"): the reader then wants evidence before taking it for a place (ambiguous-names.tsv).
   */
  isAmbiguousName(key: string): boolean;
  /** Whether a name (a `placeKey`) is the place's own, not one of its alternate names. */
  isOwnName(key: string, place: GazetteerPlace): boolean;
}

const DATA_DIR = path.join(__dirname, 'data', 'gazetteer');

/** Lower case, accents and punctuation dropped, spaces collapsed: how names are compared. */
export function placeKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[łŁ]/g, 'l')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Great-circle distance in km (haversine, mean Earth radius). */
export function distanceKm(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const rad = Math.PI / 180;
  const dLat = (bLat - aLat) * rad;
  const dLon = (bLon - aLon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Rows of a TSV file with a header line, as objects keyed by the header's names. */
function readTsv(file: string): Record<string, string>[] {
  const lines = fs.readFileSync(path.join(DATA_DIR, file), 'utf8').split('\n');
  const header = lines[0].split('\t');
  const rows: Record<string, string>[] = [];
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    rows.push(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
  }
  return rows;
}

/** Words GeoNames adds to some region names. */
const REGION_WORDS = /\s+(?:Region|Province|Prefecture|Governorate|Oblast|Voivodeship|Department|District|Territory)$/;

const list = (cell: string) => (cell ? cell.split('|').filter(Boolean) : []);

/** Grid cells of about 1° for nearest-city lookups. */
const cellOf = (lat: number, lon: number) => `${Math.floor(lat)}:${Math.floor(lon)}`;

function build(): Gazetteer {
  const byId = new Map<string, GazetteerPlace>();
  const byName = new Map<string, GazetteerPlace[]>();
  const countries = new Map<string, GazetteerPlace>();
  const countryByKey = new Map<string, GazetteerPlace>();
  const regions = new Map<string, GazetteerPlace>();
  const abbreviations = new Map<string, GazetteerPlace[]>();
  const cities: GazetteerPlace[] = [];
  const countryAbbreviations = new Set<string>();
  const grid = new Map<string, GazetteerPlace[]>();
  // Names a place goes by itself (its name, ASCII name, a country's aliases, a short form), as
  // against the alternates GeoNames lists, some of them historic ("Franklin" for El Paso).
  const ownNames = new Set<string>();
  const addName = (name: string, place: GazetteerPlace, own = true) => {
    const key = placeKey(name);
    if (own) ownNames.add(`${key}|${place.id}`);
    // Its own name with umlauts written out is still its own ("Duesseldorf", "Koeln"), as Germans type it.
    if (own && /[äöüÄÖÜ]/.test(name)) ownNames.add(`${placeKey(name.replace(/[äÄ]/g, 'ae').replace(/[öÖ]/g, 'oe').replace(/[üÜ]/g, 'ue'))}|${place.id}`);
    if (key === '') return;
    const at = byName.get(key);
    if (!at) byName.set(key, [place]);
    else if (!at.includes(place)) at.push(place);
  };

  // A few regions and dependencies have no point in the data: they cannot be placed, so are left out.
  const located = (r: Record<string, string>) => r.lat !== '' && r.lon !== '';
  for (const r of readTsv('countries.tsv').filter(located)) {
    const place: GazetteerPlace = {
      id: `geonames:${r.geonameid}`,
      kind: 'country',
      name: r.name,
      fullName: r.name,
      country: r.iso2,
      countryName: r.name,
      region: null,
      regionName: null,
      lat: Number(r.lat),
      lon: Number(r.lon),
      population: Number(r.population) || 0,
    };
    countries.set(r.iso2, place);
    byId.set(place.id, place);
    for (const alias of list(r.aliases)) if (alias === alias.toUpperCase()) countryAbbreviations.add(alias.replace(/[.\s]/g, ''));
    for (const name of [r.name, r.iso3, ...list(r.aliases)]) {
      addName(name, place);
      countryByKey.set(placeKey(name), place);
    }
    countryByKey.set(placeKey(r.iso2), place);
  }
  for (const r of readTsv('regions.tsv').filter(located)) {
    const country = countries.get(r.country);
    if (!country) continue;
    const key = `${r.country}.${r.admin1}`;
    const place: GazetteerPlace = {
      id: r.geonameid ? `geonames:${r.geonameid}` : `admin1:${key}`,
      kind: 'region',
      name: r.name,
      fullName: r.name === country.name ? r.name : `${r.name}, ${country.name}`,
      country: r.country,
      countryName: country.name,
      region: key,
      regionName: r.name,
      lat: Number(r.lat),
      lon: Number(r.lon),
      population: Number(r.population) || 0,
    };
    regions.set(key, place);
    byId.set(place.id, place);
    for (const name of [r.name, r.ascii_name, ...list(r.local_names)].filter(Boolean)) {
      addName(name, place);
      // "Waikato Region", "Villa Clara Province" are written "Waikato", "Villa Clara".
      const bare = name.replace(REGION_WORDS, '').trim();
      if (bare !== name && bare.length >= 3) addName(bare, place);
    }
    for (const abbreviation of list(r.abbreviations)) {
      const at = abbreviations.get(abbreviation);
      if (at) at.push(place);
      else abbreviations.set(abbreviation, [place]);
    }
  }
  for (const r of readTsv('cities.tsv')) {
    const country = countries.get(r.country);
    if (!country) continue;
    const region = regions.get(`${r.country}.${r.admin1}`);
    const parts = [r.name, ...(region && region.name !== r.name ? [region.name] : []), ...(country.name !== r.name ? [country.name] : [])];
    const place: GazetteerPlace = {
      id: `geonames:${r.geonameid}`,
      kind: 'city',
      name: r.name,
      fullName: parts.join(', '),
      country: r.country,
      countryName: country.name,
      region: region?.region ?? null,
      regionName: region?.name ?? null,
      lat: Number(r.lat),
      lon: Number(r.lon),
      population: Number(r.population) || 0,
    };
    byId.set(place.id, place);
    cities.push(place);
    for (const name of [r.name, r.ascii_name]) if (name) addName(name, place);
    // A shortening of the main name is its own too ("New York" of New York City, "Frankfurt").
    const mainKey = placeKey(r.name);
    for (const name of list(r.alternate_names)) addName(name, place, mainKey.startsWith(`${placeKey(name)} `));
    const cell = cellOf(place.lat, place.lon);
    const at = grid.get(cell);
    if (at) at.push(place);
    else grid.set(cell, [place]);
  }
  for (const r of readTsv('well-known-forms.tsv')) {
    const place = byId.get(`geonames:${r.geonameid}`);
    if (place) addName(r.form, place);
  }
  const shortForms = new Map<string, { place: GazetteerPlace; radiusKm: number }>();
  for (const r of readTsv('short-forms.tsv')) {
    const place = byId.get(`geonames:${r.geonameid}`);
    if (!place) continue;
    shortForms.set(placeKey(r.short_form), { place, radiusKm: Number(r.radius_km) });
    addName(r.short_form, place);
  }
  const metros = new Map<string, { place: GazetteerPlace; radiusKm: number }>();
  for (const r of readTsv('metros.tsv')) {
    const place = byId.get(`geonames:${r.geonameid}`);
    if (place) metros.set(r.metro_id, { place, radiusKm: Number(r.radius_km) });
  }
  // "Scotland", "England" and "Wales" are aliases of the United Kingdom and regions of their own: the name is the region's.
  for (const [key, places] of byName) {
    const regionHere = new Set(places.filter((p) => p.kind === 'region' && placeKey(p.name) === key).map((p) => p.country));
    if (regionHere.size)
      byName.set(
        key,
        // …but "Mexico" is the country's own name too (and its State of México's): both stay.
        places.filter((p) => !(p.kind === 'country' && regionHere.has(p.country) && placeKey(p.name) !== key)),
      );
  }
  const ambiguous = new Set(readTsv('ambiguous-names.tsv').map((r) => r.name_key));
  const byPopulation = (a: GazetteerPlace, b: GazetteerPlace) => b.population - a.population || a.id.localeCompare(b.id);
  // Places whose own name it is first, then those that have it as an alternate; each most populous first.
  for (const [key, places] of byName) {
    const own = (p: GazetteerPlace) => (ownNames.has(`${key}|${p.id}`) ? 0 : 1);
    places.sort((a, b) => own(a) - own(b) || byPopulation(a, b));
  }
  // Prefix search: every name key in order, binary-searched.
  const sortedKeys = [...byName.keys()].sort();

  return {
    byId: (id) => byId.get(id),
    named: (name) => byName.get(placeKey(name)) ?? [],
    namedKey: (key) => byName.get(key) ?? [],
    regionByAbbreviation: (country, abbreviation) => abbreviations.get(abbreviation)?.find((p) => p.country === country),
    regionAbbreviations: () => abbreviations,
    country: (name) => countryByKey.get(placeKey(name)),
    isCountryAbbreviation: (written) => countryAbbreviations.has(written.replace(/[.\s]/g, '')),
    search(prefix, limit) {
      const key = placeKey(prefix);
      if (key === '') return [];
      let lo = 0;
      let hi = sortedKeys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sortedKeys[mid] < key) lo = mid + 1;
        else hi = mid;
      }
      const found = new Set<GazetteerPlace>();
      for (let i = lo; i < sortedKeys.length && sortedKeys[i].startsWith(key); i++) for (const p of byName.get(sortedKeys[i])!) found.add(p);
      return [...found].sort(byPopulation).slice(0, limit);
    },
    nearestCity(lat, lon, maxKm = 100) {
      let best: { place: GazetteerPlace; d: number } | undefined;
      const reach = Math.ceil(maxKm / 80) + 1;
      const [la, lo] = [Math.floor(lat), Math.floor(lon)];
      for (let dy = -reach; dy <= reach; dy++) {
        for (let dx = -reach; dx <= reach; dx++) {
          for (const p of grid.get(`${la + dy}:${lo + dx}`) ?? []) {
            const d = distanceKm(lat, lon, p.lat, p.lon);
            if (d <= maxKm && (!best || d < best.d)) best = { place: p, d };
          }
        }
      }
      return best?.place;
    },
    shortFormRadius: (name) => shortForms.get(placeKey(name))?.radiusKm,
    metro: (id) => metros.get(id),
    cities: () => cities,
    names: () => byName,
    isAmbiguousName: (key) => ambiguous.has(key),
    isOwnName: (key, place) => ownNames.has(`${key}|${place.id}`),
  };
}

let loaded: Gazetteer | undefined;
/** The gazetteer, built on first use (about a second; the reader's threads and the API each hold one). */
export function gazetteer(): Gazetteer {
  loaded ??= build();
  return loaded;
}
