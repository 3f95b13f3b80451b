/**
 * Where a brief wants people, read on the gazetteer (DESIGN.md §4a): cities, regions and
 * countries anywhere, "City, ST" / "City, Country" / "City (Country)", several places ("Leeds or
 * Manchester", "Bristol / remote UK"), radius phrases ("within 30 miles of", "up to 50 km from",
 * "commutable to"). The old metros keep their curated names and aliases ("Bay Area", "Cambridge
 * MA") and are read as metros, as before, except an alias's town far from the metro's city
 * ("Frisco, TX"), which is that town. Part of the brief reader (reader.ts).
 *
 * Mentions are weighed by their words: "based in", "Location:", the opening line make a place the
 * role's; "headquartered in", "offices in", "customers in" make it the company's; "not Victoria BC"
 * rules a place out. The mentions themselves are read in place-mentions.ts.
 */
import { distanceKm, gazetteer, placeKey, type GazetteerPlace } from '../reference/gazetteer';
import { PLACE_RADIUS, type PlaceInput } from '../reference/place-resolution';
import type { SpanClaims } from './span-claims';
import { DISTRICT_NAMESAKE_TOWN, ownSegment, placeMentions, type Mention } from './place-mentions';

/** "Commutable to X", "within commuting distance of X": about an hour's drive. */
export const COMMUTE_RADIUS_KM = 50;
const KM_PER_MILE = 1.609344;
/** Between places of one list: "Leeds or Manchester", "NYC/Boston", "Bristol / remote UK", "Eugene or Bend, or fully remote within Oregon". */
const LIST_GAP =
  /^[ \t]*(?:[,/&+|][ \t]*|\((?=[ \t]*(?:or|and|remote)\b)[ \t]*)?(?:(?:or|and|oder|und|ou|et)[ \t]+)?(?:(?:fully[ \t]+)?remote[ \t,(–-]*(?:anywhere[ \t]+)?(?:in|within|across)?[ \t]*)?(?:the[ \t]+)?$/i;

// ---- choosing ----

/** A place's identity among mentions: the metro, or the gazetteer place. */
const identity = (m: Mention) => m.metro?.metroId ?? m.place.id;
/** How near a bigger town (not an old metro) a town must lie to be part of it ("Manchester (Salford)"; not "Worcester … Birmingham"). */
const TOWN_COVERS_KM = 25;
/** How near another named town a namesake must lie to be the one meant ("Grantham and Boston"). */
const NAMESAKE_NEAR_KM = 80;
/** Words that make the name after them a town's ("city council in", "the town of"). */
const TOWN_BEFORE = /\b(?:(?:city|town|borough|district) council (?:in|of|for)|the (?:city|town) of|(?:city|town) of)\s+$/i;
/** Words that make the name before them a town's ("city centre", "town center"). */
const TOWN_AFTER = /^\s+(?:city|town) cent(?:re|er)\b/i;

/** Countries the brief's words imply: its currency, or bodies, checks and terms of one country only. */
function textCountries(text: string): Set<string> {
  const countries = new Set<string>();
  // Pounds, and UK-only bodies, checks and qualifications ("HMP Durham", "SIA licence", "Gas Safe", "CSCS card").
  if (/£|\b(?:NHS|HMP|SIA (?:licen[cs]ed?|badge|door)|CSCS|Gas Safe|HGV|NVQ|GCSEs?|A[- ]levels?|Ofsted|BS \d{4,5})\b/.test(text)) countries.add('GB');
  if (/₹|\blakhs?\b|\bLPA\b/.test(text)) countries.add('IN');
  // US-only terms of employment and clearance ("federal contractor, Secret clearance", "401(k)").
  if (/\b(?:TS\/SCI|(?:top )?secret clearance|public trust clearance|401\(?k\)?|W-?2 (?:only|employee|role)|federal contractor)\b/i.test(text))
    countries.add('US');
  return countries;
}

/** Countries the brief names or implies (qualifiers, regions, metros, and `implied` by its words), to choose among same-named places. */
function briefCountries(implied: ReadonlySet<string>, mentions: readonly Mention[]): Set<string> {
  const countries = new Set(implied);
  for (const m of mentions) if (m.qualified || m.metro || m.place.kind !== 'city' || m.candidates.length <= 1) countries.add(m.place.country);
  return countries;
}

/**
 * Mentions in lists ("Leeds or Manchester", "Bristol / remote UK"); a weak name counts in a list
 * with a solid place or a list standing alone ("Reading or Oxford office").
 */
function lists(text: string, mentions: readonly Mention[]): Mention[][] {
  const out: Mention[][] = [];
  for (const m of mentions) {
    const last = out.at(-1)?.at(-1);
    // A district in brackets may stand between towns: "Melbourne (Cremorne) or Sydney (Surry Hills)"
    // ("Portland, Maine (hybrid) or remote within Maine" is a town and an area, chosen apart).
    const written = text.slice(last?.end ?? 0, m.start);
    const unbracketed = written.replace(/^\s*\([^()\n]{1,40}\)/, '');
    const gap = /\bremote\b/i.test(unbracketed) ? written : unbracketed;
    if (last && LIST_GAP.test(gap) && /\S/.test(gap)) out.at(-1)!.push(m);
    else out.push([m]);
  }
  return out
    .map((group) =>
      group.some((m) => m.evidence === 'solid') || ownSegment(text, group[0].start, group.at(-1)!.end) ? group : group.filter((m) => m.evidence === 'solid'),
    )
    .filter((group) => group.length > 0);
}

/** Whether a metro or city mention's area (its metro radius, or TOWN_COVERS_KM around a town) holds a place. */
function covers(m: Mention, p: GazetteerPlace): boolean {
  const radius = m.metro ? gazetteer().metro(m.metro.metroId)!.radiusKm : TOWN_COVERS_KM;
  return distanceKm(m.place.lat, m.place.lon, p.lat, p.lon) <= radius;
}

export interface PlaceReading {
  metro?: { id: string; confidence: number };
  /** Other metros offered as alternatives ("London or Berlin"). */
  locations?: { values: string[]; confidence: number };
  /** Everything else: places by id, a city with its radius. */
  places?: { values: PlaceInput[]; confidence: number };
}

export function readPlace(text: string, taken?: SpanClaims): PlaceReading {
  const found = lists(text, placeMentions(text, taken));
  const districts = new Set([...districtsAbroad(found.flat()), ...countiesAbroad(text, found.flat())]);
  const groups = found.map((g) => g.filter((m) => !districts.has(m))).filter((g) => g.length > 0);
  if (groups.length === 0) {
    // No place named, only who may apply: "Singaporeans / PRs only", "must be an Australian citizen".
    const country = demonymCountry(text);
    return country ? { places: { values: [{ id: country.id }], confidence: DEMONYM_CONFIDENCE } } : {};
  }
  const all = groups.flat();
  // "anywhere in Mexico" is the country, not its capital; "Georgia (the state, not the country)" the state.
  for (const m of all) {
    const said = /^\s*\(?\s*the\s+(state|country)\b/i.exec(text.slice(m.end, m.end + 16))?.[1]?.toLowerCase();
    if (m.qualified || (m.place.kind !== 'city' && !said)) continue;
    const wanted = said === 'state' ? 'region' : said === 'country' ? 'country' : acrossArea(text, m) ? 'area' : undefined;
    const area =
      wanted === 'area'
        ? (m.candidates.find((c) => c.kind === 'country') ?? m.candidates.find((c) => c.kind === 'region'))
        : wanted && m.candidates.find((c) => c.kind === wanted);
    if (area) {
      m.place = area;
      m.metro = undefined;
    }
  }
  // …and a region's name written as a town's is the town: "the city council in Canterbury" is
  // Kent's city, not New Zealand's region; so is "Canterbury city centre".
  for (const m of all) {
    if (m.qualified || m.place.kind !== 'region') continue;
    const before = text.slice(Math.max(0, m.start - 30), m.start);
    const after = text.slice(m.end, m.end + 16);
    if (!TOWN_BEFORE.test(before) && !TOWN_AFTER.test(after)) continue;
    const town = m.candidates.find((c) => c.kind === 'city');
    if (town) m.place = town;
  }
  // Same-named places: the one in a country the rest of the brief names ("Richmond" with
  // "Virginia" elsewhere, "Cambridge" in a brief paid in £), a metro's alias included.
  const implied = textCountries(text);
  for (const m of all) {
    if (m.qualified || (m.metro && !m.metro.alias)) continue;
    const countries = briefCountries(
      implied,
      all.filter((x) => x !== m),
    );
    if (countries.size === 0 || countries.has(m.place.country)) continue;
    const local = m.candidates.find((c) => c.kind === m.place.kind && countries.has(c.country));
    if (!local) continue;
    m.place = local;
    m.metro = undefined;
  }
  // A name whose namesake lies right beside another town the brief names for the role is that
  // namesake, an old metro's name too: "our Grantham and Boston (Lincs) stores" is Lincolnshire's
  // Boston, 40 km away ("trips to the group office in Brussels" leave Lille French).
  for (const m of all) {
    if (m.qualified || m.place.kind !== 'city') continue;
    const towns = all.filter((x) => x !== m && !x.company && x.place.kind === 'city' && x.place.country !== m.place.country);
    const near = (c: GazetteerPlace) => towns.some((x) => distanceKm(c.lat, c.lon, x.place.lat, x.place.lon) <= NAMESAKE_NEAR_KM);
    if (towns.length === 0 || near(m.place)) continue;
    const namesake = m.candidates.find((c) => c.kind === 'city' && c.id !== m.place.id && near(c));
    if (!namesake) continue;
    m.place = namesake;
    m.metro = undefined;
  }
  // A name written again without its qualifier is the place it named first ("Greenville, SC … within 20 miles of Greenville").
  for (const m of all) {
    if (m.qualified) continue;
    const named = all.find((x) => x.qualified && x.written.toLowerCase() === m.written.toLowerCase());
    if (named) {
      m.place = named.place;
      m.metro = named.metro;
    }
  }
  // A town inside a bigger place named apart is that place ("Metro Detroit (Auburn Hills, MI)",
  // "Sydney … our Surry Hills office"); places of one list stay apart ("Reading or Oxford").
  for (const group of groups) {
    for (const m of group) {
      if (m.metro || m.place.kind !== 'city') continue;
      const around = all.find(
        (x) =>
          !group.includes(x) &&
          // Not a place the brief names as the company's ("site office in Sharjah (head office in Dubai)",
          // "Boulder. HQ is in Denver").
          !x.company &&
          x.weight >= m.weight * 0.5 &&
          (x.metro || (x.place.kind === 'city' && x.place.population > m.place.population)) &&
          covers(x, m.place),
      );
      if (around) {
        m.metro = around.metro;
        m.place = around.place;
      }
    }
  }
  // Within a list, a qualifier on one member fits the others: "Calgary or Edmonton, Alberta".
  for (const group of groups) {
    const qualified = group.find((m) => m.qualified && m.place.kind === 'city');
    if (!qualified) continue;
    for (const m of group) {
      if (m.qualified || m.metro) continue;
      const same = m.candidates.find((c) => c.kind === 'city' && c.region === qualified.place.region);
      if (same) m.place = same;
    }
  }
  const weightOf = new Map<string, number>();
  for (const m of all) weightOf.set(identity(m), (weightOf.get(identity(m)) ?? 0) + m.weight);
  const scoreOf = (group: Mention[]) => Math.max(...group.map((m) => weightOf.get(identity(m))!));
  const remote = /\bremote\b/i.test(text);
  const onlyCountries = (group: Mention[]) => group.every((m) => m.place.kind === 'country' && !m.metro);
  const onlyAreas = (group: Mention[]) => group.every((m) => m.place.kind !== 'city' && !m.metro);
  // A country or region alone counts when no town is named, or when the role is open across it
  // ("remote (Canada)", "UK-wide", "anywhere in Hessen", "Netherlands only"), unless a town is named as its base.
  // …but not the company's market ("serves patients from across Alaska").
  const wideArea = groups.find((group) => onlyAreas(group) && group.some((m) => countryWide(text, m) && !m.company));
  const based = groups.some(
    (group) =>
      !onlyCountries(group) &&
      group.some((m) =>
        /\b(?:based|located|relocat\w*)\b[^.\n]{0,20}$|^[\s-]*based\b/i.test(
          text.slice(Math.max(0, m.start - 30), m.start) + '|' + text.slice(m.end, m.end + 8),
        ),
      ),
  );
  const towns = groups.filter((group) => !onlyCountries(group));
  let chosen: Mention[];
  const bestOf = (pool: Mention[][]) => [...pool].sort((a, b) => scoreOf(b) - scoreOf(a) || a[0].start - b[0].start)[0];
  const townsOutside = (area: Mention[]) => towns.filter((group) => !onlyAreas(group) && !group.every((m) => area.some((a) => holds(a.place, m.place))));
  if (wideArea && !based) {
    chosen = wideArea;
    // "Glasgow office, or remote from anywhere in the UK": the town and the area.
    const before = towns.filter(
      (group) => group.at(-1)!.end < wideArea[0].start && OR_REMOTE.test(withoutAbbreviationDots(text.slice(group.at(-1)!.end, wideArea[0].start))),
    );
    if (before.length) chosen = [...bestOf(before), ...wideArea];
  } else {
    chosen = bestOf(towns.length ? towns : groups);
    // Towns inside an area named first as the one to live in, or listed in brackets after it, are
    // examples ("anywhere in Hessen (Frankfurt, Wiesbaden)", "must be Sweden-based: the team is in
    // Malmö and Umeå", "North Brabant (Tilburg, Breda)").
    const area = groups.find(
      (g) => onlyAreas(g) && g[0].start < chosen[0].start && g.some((m) => countryWide(text, m) || livesIn(text, m) || bracketHolds(text, m, chosen)),
    );
    if (area && !based && townsOutside(area).length === 0) chosen = area;
    // An area repeated as the company's market ("across Texas", "the Texas business") is no wider
    // role than the town inside it the brief names ("San Antonio, TX").
    if (onlyAreas(chosen) && !chosen.some((m) => countryWide(text, m) || livesIn(text, m))) {
      const inside = towns.filter((g) => !onlyAreas(g) && g.every((m) => chosen.some((a) => holds(a.place, m.place))) && scoreOf(g) * 2 >= scoreOf(chosen));
      if (inside.length) chosen = bestOf(inside);
    }
  }
  // "Fully remote, anywhere in the world; HQ'd in Austin": only the company has a place.
  if (ANYWHERE_AT_ALL.test(text) && chosen.every((m) => m.company)) return {};
  const unique = chosen.filter((m, i) => chosen.findIndex((x) => identity(x) === identity(m)) === i).slice(0, 20);
  const radii = radiusPhrases(text);

  let confidence = unique[0].metro?.confidence ?? (unique[0].qualified ? 0.9 : unique[0].place.kind === 'country' ? 0.8 : 0.85);
  if (remote) confidence = Math.min(confidence, 0.75);
  const others = groups.filter((g) => g !== chosen && !g.some((m) => unique.some((u) => identity(u) === identity(m))));
  if (others.some((o) => scoreOf(o) * 1.5 > scoreOf(chosen))) confidence -= 0.1;
  confidence = Math.round(confidence * 100) / 100;

  const radiusOf = (m: Mention) => radiusFor(text, m, unique, radii);
  if (unique.every((m) => m.metro && radiusOf(m) === undefined)) {
    const [first, ...rest] = unique.map((m) => m.metro!.metroId);
    return { metro: { id: first, confidence }, ...(rest.length ? { locations: { values: rest, confidence } } : {}) };
  }
  const values: PlaceInput[] = unique.map((m) => {
    // A metro's town with a radius of its own is that town ("20mi radius of Fort Lauderdale", not of Miami).
    const aliasTown = m.metro?.alias && radiusOf(m) !== undefined ? m.candidates.find((c) => c.kind === 'city') : undefined;
    const metro = aliasTown ? undefined : m.metro && gazetteer().metro(m.metro.metroId);
    const place = aliasTown ?? (metro ? metro.place : m.place);
    if (place.kind !== 'city') return { id: place.id };
    return { id: place.id, radius_km: radiusOf(m) ?? metro?.radiusKm ?? gazetteer().shortFormRadius(m.written) ?? PLACE_RADIUS.defaultCityKm };
  });
  return { places: { values, confidence } };
}

/** Towns under this population read by an alternate name only are suspect (many districts share them). */
const ALTERNATE_NAME_TOWN = 300_000;

/** A small town abroad read by its own name is suspect beside a city of at least this many people. */
const DISTRICT_HOST_CITY = 1_000_000;

/**
 * A small town abroad read only by another of its names is a district of the brief's own place:
 * "Dhaka, Gulshan office" is not Tabas (Iran), one of whose alternate names is Gulshan; and so is a
 * small namesake of a big city's district: "Melbourne – public hospital in Parkville" is not
 * Parkville, Maryland.
 */
function districtsAbroad(all: readonly Mention[]): Set<Mention> {
  return new Set(
    all.filter((m) => {
      if (m.qualified || m.metro || m.place.kind !== 'city' || m.place.population >= ALTERNATE_NAME_TOWN) return false;
      // A town read by its own name only when it is small and a big city is named beside it (not when that
      // city's name has a namesake beside the town: "our Grantham and Boston (Lincs) stores").
      const bigCityNamed = () =>
        all.some(
          (x) =>
            x !== m &&
            !x.company &&
            (x.metro || (x.place.kind === 'city' && x.place.population >= DISTRICT_HOST_CITY)) &&
            !x.candidates.some((c) => c.kind === 'city' && distanceKm(c.lat, c.lon, m.place.lat, m.place.lon) <= NAMESAKE_NEAR_KM),
        );
      if (placeKey(m.written) === placeKey(m.place.name) && !(m.place.population < DISTRICT_NAMESAKE_TOWN && bigCityNamed())) return false;
      const others = all.filter((x) => x !== m && !x.company);
      return others.length > 0 && others.every((x) => x.place.country !== m.place.country);
    }),
  );
}

/**
 * A smaller town or a region abroad written right after a town and a comma or a bracket is that
 * town's county, state, district or short name: "Taunton, Somerset" is not Somerset, Massachusetts
 * (the gazetteer holds first-level regions only), "Kolkata (Salt Lake Sector V)" not Utah's metro,
 * "Gqeberha (PE)" not Prince Edward Island.
 */
function countiesAbroad(text: string, all: readonly Mention[]): Set<Mention> {
  return new Set(
    all.filter((m) => {
      // An old metro only under another of its names ("Tamps." is Tamaulipas, not Tampa; "Salt Lake" a Kolkata district).
      if (m.qualified || m.place.kind === 'country' || (m.metro && placeKey(m.written) === placeKey(m.place.name))) return false;
      const town = all.find((x) => x.end < m.start && /^\s*[,(]\s*$/.test(text.slice(x.end, m.start)));
      if (!town || town.place.kind !== 'city' || town.place.country === m.place.country) return false;
      return m.place.kind === 'region' || town.place.population > m.place.population;
    }),
  );
}

/** How sure a country read from who may apply is. */
const DEMONYM_CONFIDENCE = 0.6;
/** "Singaporeans only", "Australians / NZ citizens only", "must be a Canadian citizen", "Malaysian nationals". */
const DEMONYM = /\b(\p{Lu}\p{Ll}{3,}(?:an|ian|ese|i))s?\b(?=(?:\s*\/\s*[\p{L}\s]{2,15})?\s+only\b|\s+(?:citizens?|nationals?|residents?|passport holders?)\b)/u;

/** The country a demonym names, by its English name ("Singaporean" → Singapore, "Canadian" → Canada). */
function demonymCountry(text: string): GazetteerPlace | undefined {
  const demonym = DEMONYM.exec(text)?.[1];
  if (!demonym) return undefined;
  const stems = [
    demonym.replace(/an$/, ''),
    demonym.replace(/n$/, ''),
    demonym.replace(/ian$/, 'a'),
    demonym.replace(/ese$/, ''),
    demonym.replace(/ese$/, 'a'),
    demonym.replace(/i$/, ''),
  ];
  for (const stem of stems) {
    const country = gazetteer()
      .named(stem)
      .find((p) => p.kind === 'country');
    if (country) return country;
  }
  return undefined;
}

/** "anywhere in Mexico", "remote within Maine", "Mexico-wide": the name is an area, not its capital ("remote, based in Berlin" is the city). */
function acrossArea(text: string, m: Mention): boolean {
  const before = text.slice(Math.max(0, m.start - 25), m.start);
  return (
    /\b(?:anywhere|(?:remote|work)\s+(?:from\s+)?(?:anywhere\s+)?(?:in|within|across))\s+(?:in\s+)?(?:the\s+)?$/i.test(before) ||
    /^[\s-]*wide\b/i.test(text.slice(m.end, m.end + 8))
  );
}

/** A role open everywhere: "anywhere in the world", "work from anywhere", "location-independent". */
const ANYWHERE_AT_ALL =
  /\banywhere in the world\b|\bwork from anywhere\b|\blocation[- ]independent\b|\bglobal(?:ly)?[- ]remote\b|\bremote,? anywhere\b(?!\s+in\b)/i;

/** Between a town and an area it is an alternative to: ", or remote from anywhere in", " (hybrid) or remote within". */
const OR_REMOTE =
  /^[^.]{0,30}\b(?:or|oder|ou|o|of)\b[^.\n]{0,12}\b(?:remote(?:ly)?|work(?:ing)? from home|wfh|home-based|elsewhere|sonst(?:wo)?|ailleurs|anywhere)\b[^.\n]{0,30}$/i;

/** Text with the dots of short abbreviations dropped: ", Sask., or remote" → ", Sask, or remote"; "Co. Clare" → "Co Clare". */
const withoutAbbreviationDots = (t: string) => t.replace(/\b(\p{L}{1,5})\.(?=[\s,])/gu, '$1');

/** Whether the brackets right after an area hold the towns chosen: "North Brabant (Tilburg, Breda)" gives examples of the area. */
function bracketHolds(text: string, area: Mention, towns: readonly Mention[]): boolean {
  const open = /^\s*\(/.exec(text.slice(area.end, area.end + 3));
  const close = open ? text.indexOf(')', area.end) : -1;
  return close > 0 && towns.every((t) => t.start > area.end && t.end <= close);
}

/** Whether an area holds a place: its region for a region, its country for a country. */
function holds(area: GazetteerPlace, p: GazetteerPlace): boolean {
  return area.kind === 'region' ? p.region === area.region : p.country === area.country;
}

/** "must live in Sweden", "Sweden-based", "Sachsen (Dresden, Chemnitz …)": an area named as where people live. */
function livesIn(text: string, m: Mention): boolean {
  const before = text.slice(Math.max(0, m.start - 30), m.start);
  const after = text.slice(m.end, m.end + 10);
  return /\b(?:live|living|reside|resident|residing|located|based)\s+(?:in|within)\s+(?:the\s+)?$/i.test(before) || /^[\s-]*based\b|^\s*\(/i.test(after);
}

/**
 * "remote (Canada)", "Remote – US", "anywhere in Nigeria", "UK-remote", "UK-wide", "Netherlands
 * only", "travel across Texas", "territory is all of QLD": the whole area ("stores across the US" is the company's).
 */
function countryWide(text: string, m: Mention): boolean {
  const before = text.slice(Math.max(0, m.start - 25), m.start);
  const after = text.slice(m.end, m.end + 14);
  return (
    /\bremote\b[^.\n;]{0,20}$|\b(?:anywhere|elsewhere|sonst(?:wo)?|ailleurs)\s+(?:in\s+|en\s+)?(?:the\s+)?$|\b(?:innerhalb|ganz|overal in|partout en|toda|todo)\s+(?:in\s+)?$|\b(?:travel\w*|territory(?:\s+is|\s+covers)?)\s+(?:across\s+|throughout\s+|all\s+of\s+|the\s+whole\s+of\s+)?(?:the\s+)?$/i.test(
      before,
    ) || /^[\s-]*(?:wide[\s-]+)?(?:remote|wide|only)\b/i.test(after)
  );
}

// ---- radius ----

interface RadiusPhrase {
  start: number;
  end: number;
  km: number;
}

/** "within 30 miles of", "up to 50 km from", "max. 50 km Umkreis", "inom 80 km från", "a 30-mile radius", "commutable to". */
function radiusPhrases(text: string): RadiusPhrase[] {
  const out: RadiusPhrase[] = [];
  const distance = /(?<![\p{L}\p{N}.,])(\d{1,3}(?:[.,]\d)?)[ \t]*-?[ \t]*(km|kms|kilomet(?:er|re)s?|mi|miles?)(?![\p{L}])/giu;
  for (const m of text.matchAll(distance)) {
    const before = text.slice(Math.max(0, m.index - 30), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 25);
    // "within ~30 km", "Poznan + 30 km max", "a 20mi radius".
    const asked =
      /(?:\b(?:within|up to|max\.?|maximum|no more than|less than|under|radius|inside|a|raio|radio|rayon|straal|umkreis|promieniu|inom|innen|inden for|indenfor|entro|binnen|bis zu|hasta|até|moins de|a menos de|do)|\+)\s*(?:of\s*|de\s*|van\s*|von\s*)?(?:a\s*)?(?:~|ca\.?|c\.|approx(?:\.|imately)?|about|around|roughly)?\s*$/i.test(
        before,
      );
    const radiusAfter = /^\s*(?:radius|umkreis|of|from|away|out|around|commute|drive|max\b|maximum|från|fra|fran|von|de|da|od)\b/i.test(after);
    if (!asked && !radiusAfter) continue;
    const n = Number(m[1].replace(',', '.'));
    const km = /^k/i.test(m[2]) ? n : n * KM_PER_MILE;
    out.push({ start: m.index, end: m.index + m[0].length, km: Math.min(PLACE_RADIUS.max, Math.max(PLACE_RADIUS.min, Math.round(km))) });
  }
  for (const m of text.matchAll(/\bcommut(?:able|ing distance)\b/gi)) {
    if (!out.some((r) => Math.abs(r.start - m.index) < 40)) out.push({ start: m.index, end: m.index + m[0].length, km: COMMUTE_RADIUS_KM });
  }
  return out;
}

/** The radius asked for a chosen place: a phrase on its line (or just before it), or the brief's only one. */
function radiusFor(text: string, m: Mention, chosen: readonly Mention[], radii: readonly RadiusPhrase[]): number | undefined {
  if (radii.length === 0 || m.place.kind !== 'city') return undefined;
  const lineOf = (i: number) => [text.lastIndexOf('\n', i - 1) + 1, (text.indexOf('\n', i) + 1 || text.length + 1) - 1] as const;
  const [from, to] = lineOf(m.start);
  const onLine = radii.filter((r) => r.start >= from && r.start <= to);
  if (onLine.length) return onLine.sort((a, b) => Math.abs(a.start - m.start) - Math.abs(b.start - m.start))[0].km;
  if (radii.length === 1 && !chosen.some((c) => c !== m && c.start >= lineOf(radii[0].start)[0] && c.start <= lineOf(radii[0].start)[1])) return radii[0].km;
  return undefined;
}
