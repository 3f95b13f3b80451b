/**
 * Where the corpus's people live (DESIGN.md §5): real gazetteer cities, a few kilometres around
 * each city's point. People of the role families go to the 68 old metros in today's proportions
 * (src/corpus/data/metro-weights.json), each to a city of the metro in proportion to population,
 * so every old metro keeps its density; everyone else goes to the markets recruiters hire in
 * (src/corpus/data/country-profiles.json `market`), to a city in proportion to population.
 */
import countryProfileData from './data/country-profiles.json';
import metroWeightData from './data/metro-weights.json';
import { NAME_CULTURES, UNIVERSITIES } from './names';
import { cumulative, type Rng } from './rng';
import type { PersonLocation } from '../domain/profile';
import { distanceKm, gazetteer, type GazetteerPlace } from '../reference/gazetteer';
import { METROS } from '../reference/taxonomy';

interface CountryProfile {
  language: string;
  cultures: Record<string, number>;
  /** Whose universities stand in when the country has none listed. */
  edu?: string;
  /** Share of the people outside the families' metros. */
  market?: number;
}

const COUNTRY_PROFILES: Record<string, CountryProfile> = countryProfileData.countries;
const METRO_PROFILES: Record<string, CountryProfile> = metroWeightData.profiles;

/** Name cultures, language and universities of a place's people. */
export interface PlaceCulture {
  cultureCum: Float64Array;
  dominantCulture: number;
  language: string;
  englishSpeaking: boolean;
  eduCountry: string;
}

function cultureOf(profile: CountryProfile, countryName: string): PlaceCulture {
  const weights = NAME_CULTURES.map((c) => profile.cultures[c.id] ?? 0);
  for (const id of Object.keys(profile.cultures)) {
    if (!NAME_CULTURES.some((c) => c.id === id)) throw new Error(`corpus places: unknown culture ${id}`);
  }
  let dominant = 0;
  weights.forEach((w, i) => {
    if (w > weights[dominant]) dominant = i;
  });
  const edu = UNIVERSITIES[countryName] ? countryName : profile.edu && UNIVERSITIES[profile.edu] ? profile.edu : 'United States';
  return {
    cultureCum: cumulative(weights),
    dominantCulture: dominant,
    language: profile.language,
    englishSpeaking: profile.language === 'English',
    eduCountry: edu,
  };
}

/** Where one person is. */
export interface Whereabouts {
  location: PersonLocation;
  /** The old metro around them, or ''. */
  metro: string;
  city: GazetteerPlace;
  culture: PlaceCulture;
}

interface CityPool {
  cities: GazetteerPlace[];
  cum: Float64Array;
}

const pool = (cities: GazetteerPlace[]): CityPool => ({ cities, cum: cumulative(cities.map((c) => Math.max(1, c.population))) });

export interface Placer {
  /** The family people's metros, weighted as today. */
  metroCum: Float64Array;
  inMetro(rng: Rng, metroIndex: number): Whereabouts;
  inMarkets(rng: Rng): Whereabouts;
}

/** How far from its metro's city the towns of family people are. */
const FAMILY_METRO_KM = 25;

/** How far from its point a city's people live: a small town 2 km, a city of millions up to 15. */
const spreadKm = (population: number) => Math.min(15, Math.max(2, Math.sqrt(population) / 200));

const round5 = (n: number) => Math.round(n * 1e5) / 1e5;

export function createPlacer(): Placer {
  const g = gazetteer();
  // Profiles are named as people say them ("Netherlands"); places carry ISO codes.
  const profiles = new Map<string, { name: string; profile: CountryProfile }>();
  for (const [name, profile] of Object.entries(COUNTRY_PROFILES)) {
    const country = g.country(name);
    if (!country) throw new Error(`corpus places: ${name} is not a gazetteer country`);
    profiles.set(country.country, { name, profile });
  }
  const cultures = new Map<string, PlaceCulture>();
  const cultureFor = (iso: string, metroId?: string) => {
    const key = metroId && METRO_PROFILES[metroId] ? `metro:${metroId}` : iso;
    let c = cultures.get(key);
    if (!c) {
      const known = profiles.get(iso);
      if (!known) throw new Error(`corpus places: no country profile for ${iso}`);
      cultures.set(key, (c = cultureOf((metroId && METRO_PROFILES[metroId]) || known.profile, known.name)));
    }
    return c;
  };

  // Each old metro: its main city and the cities of its country near it. Family people stay
  // within about 30 km of the metro's city (FAMILY_METRO_KM plus a town's spread), so a metro
  // search, however graded, finds them all in its place.
  const metroPools = METROS.map((m) => {
    const metro = g.metro(m.id);
    if (!metro) throw new Error(`corpus places: metro ${m.id} is not in the gazetteer`);
    const reach = Math.min(metro.radiusKm, FAMILY_METRO_KM);
    const inside = g.cities().filter((c) => c.country === metro.place.country && distanceKm(c.lat, c.lon, metro.place.lat, metro.place.lon) <= reach);
    return { id: m.id, main: metro.place, radiusKm: metro.radiusKm, pool: pool(inside.length ? inside : [metro.place]) };
  });
  const metroOf = (city: GazetteerPlace) =>
    metroPools.find((m) => m.main.country === city.country && distanceKm(city.lat, city.lon, m.main.lat, m.main.lon) <= m.radiusKm)?.id ?? '';

  // The markets: countries with a share, each with its cities.
  const markets = [...profiles]
    .filter(([, { profile }]) => (profile.market ?? 0) > 0)
    .map(([iso, { name, profile }]) => ({ name, share: profile.market!, pool: pool(g.cities().filter((c) => c.country === iso)) }))
    .filter((m) => m.pool.cities.length > 0);
  const marketCum = cumulative(markets.map((m) => m.share));
  const metroCum = cumulative(METROS.map((m) => metroWeightData.weights[m.id as keyof typeof metroWeightData.weights] ?? metroWeightData.default));

  const place = (rng: Rng, city: GazetteerPlace, metro: string): Whereabouts => {
    // A point in a disk around the city's point, uniform over its area.
    const r = spreadKm(city.population) * Math.sqrt(rng.float());
    const angle = 2 * Math.PI * rng.float();
    const lat = round5(city.lat + (r * Math.cos(angle)) / 111.2);
    const lon = round5(city.lon + (r * Math.sin(angle)) / (111.32 * Math.max(0.05, Math.cos((city.lat * Math.PI) / 180))));
    return {
      location: { name: city.fullName, locality: city.name, region: city.regionName ?? '', country: city.country, lat, lon },
      metro,
      city,
      culture: cultureFor(city.country, metro || undefined),
    };
  };

  return {
    metroCum,
    inMetro(rng, metroIndex) {
      const m = metroPools[metroIndex];
      return place(rng, m.pool.cities[rng.weighted(m.pool.cum)], m.id);
    },
    inMarkets(rng) {
      const market = markets[rng.weighted(marketCum)];
      const city = market.pool.cities[rng.weighted(market.pool.cum)];
      return place(rng, city, metroOf(city));
    },
  };
}
