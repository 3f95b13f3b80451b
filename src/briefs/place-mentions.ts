/**
 * Place mentions in a brief, read on the gazetteer (places.ts chooses among them): names written
 * as places are written (capitalised, codes as written, lower case only for big places), their
 * qualifiers ("Portland, OR", "Hamilton (Waikato)"), the old metros' curated names, misspelt big
 * cities, and how each mention is weighed by the words around it. A name that is also a word or a
 * given name ("Reading", "Mobile", "Florence") counts only with evidence: a cue ("in Reading,"), a
 * qualifier ("Mobile, AL") or a line of its own.
 */
import { distanceKm, gazetteer, placeKey, type GazetteerPlace } from '../reference/gazetteer';
import { choosePlace } from '../reference/place-resolution';
import { canonicalSkill, METROS } from '../reference/taxonomy';
import { editDistance } from '../domain/edit-distance';
import type { SpanClaims } from './span-claims';
import { insideParentheses, isRoleWord, ROLE_NOUN } from './role-words';

/** A place name of more words than this is not looked up (longest: "Frankfurt am Main", "Saint-Jean-sur-Richelieu"). */
const MAX_NAME_WORDS = 6;
/** Mentions read per brief: a list of hundreds of towns is no brief, and choosing among them is quadratic. */
const MAX_MENTIONS = 100;
/** Written in lower case, a place counts only when this populous (a typed "london", "toronto"). */
const LOWER_CASE_MIN_POPULATION = 1_000_000;
/** … or with a cue or a line of its own ("nurse in leeds"). */
const LOWER_CASE_WITH_CUE_MIN_POPULATION = 50_000;
/** Misspellings are corrected towards the old metros' names and cities this populous. */
const CORRECTABLE_MIN_POPULATION = 1_000_000;
/** …and of a smaller city when a cue or its region says a place is meant ("commutable to sheffeild", "chatanooga tn"). */
const CORRECTABLE_WITH_CUE_MIN_POPULATION = 100_000;

// ---- tokens ----

interface Token {
  text: string;
  key: string;
  start: number;
  end: number;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) out.push({ text: m[0], key: placeKey(m[0]), start: m.index, end: m.index + m[0].length });
  return out.filter((t) => t.key !== '');
}

/** Countries whose regions recruiters name by code on their own ("BC-based", "in NSW"). */
const ABBREVIATED_REGIONS = new Set(['US', 'CA', 'AU']);

/** Tokens of one name are apart only by spaces, hyphens, apostrophes or a period ("St. Louis", "D.C."). */
const joinsName = (gap: string) => /^[ \t.'’-]{1,3}$/.test(gap);

// ---- the old metros' names ----

export interface MetroName {
  metroId: string;
  /** One of the metro's curated aliases ("Cambridge" for Boston), not its label or city. */
  alias: boolean;
  confidence: number;
  /** Short or all-capital aliases ("SF", "LA", "GTA") only as written. */
  exact: string | undefined;
  /** Written in lower case too ("berlin", "the bay area"), or only capitalised. */
  anyCase: boolean;
}

let metroNameTable: Map<string, MetroName> | undefined;
function metroNames(): Map<string, MetroName> {
  if (metroNameTable) return metroNameTable;
  const table = new Map<string, MetroName>();
  const add = (name: string, metroId: string, alias: boolean, confidence: number) => {
    const key = placeKey(name);
    if (key === '' || table.has(key)) return;
    const exact = alias && (name.length <= 4 || name === name.toUpperCase()) ? name : undefined;
    // Short one-word aliases are often ordinary words or surnames ("Mesa", "Irving"): capitalised only.
    const anyCase = !alias || /\s/.test(name.trim()) || name.length >= 5;
    table.set(key, { metroId, alias, confidence, exact, anyCase });
  };
  // Labels and cities before aliases, so a city's own name wins over another metro's alias.
  for (const m of METROS) {
    add(m.label, m.id, false, 0.95);
    if (m.id.includes('-')) add(m.id, m.id, false, 0.95);
  }
  for (const m of METROS) add(m.city, m.id, false, 0.9);
  // An alias that names a whole region much bigger than the metro ("NSW", "Île-de-France", "Comunidad
  // de Madrid") is that region, read on the gazetteer; "LA", "NY" and "DC" stay the metros recruiters mean.
  const g = gazetteer();
  const namesRegion = (alias: string, city: GazetteerPlace) =>
    // "Delhi" and "Zürich" are also towns of the metro: they stay its names.
    !g.named(alias).some((p) => p.kind === 'city' && distanceKm(p.lat, p.lon, city.lat, city.lon) <= 30) &&
    (g.named(alias).some((p) => p.kind === 'region' && p.country === city.country && p.population >= 2 * city.population) ||
      (alias.length >= 3 && g.regionByAbbreviation(city.country, alias) !== undefined));
  for (const m of METROS) {
    const city = g.metro(m.id)?.place;
    for (const a of m.aliases) if (!city || !namesRegion(a, city)) add(a, m.id, true, 0.9);
  }
  metroNameTable = table;
  return table;
}

// ---- misspelt names ----

let correctable: Map<string, string[]> | undefined;
/**
 * One-word names worth correcting towards, by first letter: metro names and cities of 100,000+ of
 * 7+ letters; of 5–6 letters ("london", "tokyo", "sydney") only metro names and cities of a million.
 */
function correctableNames(): Map<string, string[]> {
  if (correctable) return correctable;
  const keys = new Set<string>();
  for (const key of metroNames().keys()) if (/^[a-z]{5,}$/.test(key)) keys.add(key);
  const g = gazetteer();
  for (const c of g.cities()) {
    const key = placeKey(c.name);
    const least = key.length >= 7 ? CORRECTABLE_WITH_CUE_MIN_POPULATION : CORRECTABLE_MIN_POPULATION;
    if (c.population >= least && /^[a-z]{5,}$/.test(key) && !g.isAmbiguousName(key)) keys.add(key);
  }
  correctable = new Map();
  for (const key of keys) {
    const at = correctable.get(key[0]);
    if (at) at.push(key);
    else correctable.set(key[0], [key]);
  }
  return correctable;
}

/** How far a word may be from a name to be its misspelling: one edit, two from 9 letters. */
const editsAllowed = (key: string) => (key.length >= 9 ? 2 : 1);

/** Another name of a city of 100,000+ that is only a near spelling of its own (7+ letters, as `correction` allows): "Zaragosa". */
function nearSpelling(key: string, place: GazetteerPlace): boolean {
  const max = editsAllowed(key);
  return (
    place.kind === 'city' && place.population >= CORRECTABLE_WITH_CUE_MIN_POPULATION && key.length >= 7 && editDistance(key, placeKey(place.name), max) <= max
  );
}

/** A word the role or skill vocabularies use: no misspelt place. */
const knownWord = (key: string) => isRoleWord(key) || canonicalSkill(key) !== undefined;

/**
 * The one known name a misspelt word is close to ("melborne" → "melbourne", "londn" → "london"):
 * one edit, two from 9 letters; a word of 5–6 letters only when no place, role or skill is called so.
 */
function correction(key: string, memo: Map<string, string | undefined>): string | undefined {
  if (!/^[a-z]{5,}$/.test(key)) return undefined;
  if (key.length < 7 && (gazetteer().namedKey(key).length > 0 || knownWord(key))) return undefined;
  if (memo.has(key)) return memo.get(key);
  const max = editsAllowed(key);
  const near = (correctableNames().get(key[0]) ?? []).filter((n) => n !== key && editDistance(key, n, max) <= max);
  memo.set(key, near.length === 1 ? near[0] : undefined);
  return memo.get(key);
}

/**
 * A misspelt town of any size written before its state or province ("Pensecola FL"): the one town of
 * that region within one edit, for a capitalised word of 7+ letters.
 */
function regionalCorrection(text: string, token: Token, memo: Map<string, string | undefined>): string | undefined {
  if (!/^\p{Lu}/u.test(token.text) || !/^[a-z]{7,}$/.test(token.key)) return undefined;
  const code = /^\s*,?\s*([A-Z]{2,3})\b/.exec(text.slice(token.end, token.end + 7))?.[1];
  if (!code) return undefined;
  const memoKey = `${token.key} ${code}`;
  if (memo.has(memoKey)) return memo.get(memoKey);
  const g = gazetteer();
  const regions = (g.regionAbbreviations().get(code) ?? []).filter((r) => ABBREVIATED_REGIONS.has(r.country));
  let fixed: string | undefined;
  if (regions.length > 0 && g.namedKey(token.key).length === 0 && !knownWord(token.key)) {
    const near = new Set(
      regions.flatMap((r) => cityKeysOf(r).filter((key) => Math.abs(key.length - token.key.length) <= 1 && editDistance(token.key, key, 1) <= 1)),
    );
    fixed = near.size === 1 ? [...near][0] : undefined;
  }
  memo.set(memoKey, fixed);
  return fixed;
}

let cityKeysByRegion: Map<string, string[]> | undefined;
/** The name keys of a first-level region's towns (built once: a hostile brief full of "Xxxxxxx FL" stays cheap). */
function cityKeysOf(region: GazetteerPlace): readonly string[] {
  if (!cityKeysByRegion) {
    cityKeysByRegion = new Map();
    for (const c of gazetteer().cities()) {
      const at = `${c.country}.${c.region}`;
      const keys = cityKeysByRegion.get(at);
      if (keys) keys.push(placeKey(c.name));
      else cityKeysByRegion.set(at, [placeKey(c.name)]);
    }
  }
  return cityKeysByRegion.get(`${region.country}.${region.region}`) ?? [];
}

// ---- cues ----

/** Words just before a place that make it where the role is ("based in", "Location:", "in"). */
const ROLE_PLACE_CUES =
  /(?:\bbased (?:in|at)|\blocated in|\blocation|\b(?:miles?|km|kms|kilomet\w+|mi)\s+(?:of|from)|\bin|\bnear|\baround|\bhybrid|\bon-?site|\bonsite|\boffice|\brelocat\w* to|\bremote|\bwithin commuting distance of|\bcommutable to|\bfrom|\bout of|\bcandidates in|\bpeople in|\bwithin|@)\W{0,3}(?:the\s+)?(?:\w+\s+)?$/i;
/** A cue right before the name ("in Reading", "Location: Mobile"). */
const CLOSE_CUE =
  /(?:\b(?:in|near|around|based|located|outside|standort|arbeitsort|einsatzort|(?:relocat\w*|mov\w*|commutable|commute) to|(?:reach|distance) of|(?:miles?|km|kilomet\w+|mi) (?:of|from)|(?:outskirts|city|area) of)|location\s*:|@)[ \t]*(?:the[ \t]+|our[ \t]+|downtown[ \t]+|central[ \t]+|greater[ \t]+)?$/i;
/** Words right after a place that make it one ("Reading office", "Mobile-based", "Omaha plant"). */
const AFTER_CUE = /^[ \t-]*(?:based|office|offices|area|metro|region|hq|campus|site|plant|facility|hub|cbd|city|downtown|base)\b/i;
/** A town's own public places, named after it: "Dunedin Hospital", "Leeds General Infirmary", "Exeter Airport". */
const TOWN_FACILITY =
  /^[ \t]+(?:general[ \t]+)?(?:hospital|infirmary|airport|university|college|council|city council|port|station|prison|crown court|clinic)\b/i;
/** A name followed by this ends there ("in Mobile, AL", "in Reading or Oxford"), not inside a phrase ("in Mobile apps"). */
const ENDS_PHRASE = /^(?:\s*$|\s*[,.;:!?()\]/|&\n]|\s+(?:or|and)\b|\s+[-–—]\s)/i;
/**
 * Words before a place that make it the company's, not the role's ("headquartered in", "offices in"), or
 * a place the role only visits or is reckoned from ("the odd day at our Sligo plant", "four hours north of Brisbane"),
 * or where candidates relocate from ("relocation from East London"; a fly-in fly-out worker's "flights ex-Brisbane"
 * are where they live, so no cue).
 */
const COMPANY_PLACE_CUES =
  /\b(?:headquarter\w*|hq|offices|founded|customers|clients|presence|across|as well as|including|studios?|sites|(?<!(?:hybrid|remote|work|working) )from our|sister (?:team|company|office)|parent company|head office|main office|corporate office|meets|meetings|konzernzentrale|hauptsitz|zentrale|hoofdkantoor|siège|sede central|(?:done|spent) time|worked|experience (?:in|at)|(?:the )?odd (?:day|visit|trip)s?|(?:trade (?:fairs?|shows?)|conferences?|expos?)(?: \w+)? (?:in|at)|occasional(?:ly)?(?: \w+)?|(?:some|occasional|regular) (?:travel|trips?|visits?) to|relocat\w* (?:\w+ )?from|(?:hours?|hrs?|minutes?|mins?)(?:'s)?\s+(?:drive\s+)?(?:(?:north|south|east|west)(?:-?(?:east|west))?\s+of|from|away from|outside(?: of)?)|(?:rest of (?:the |our )?(?:\w+ )?team|other teams?|colleagues|founders|ceo|cfo|cto|coo|dpo|gc|boss|(?:our|biggest|largest|main|key|anchor)\s+(?:\w+\s+)?(?:customer|client|partner)s?)\s+(?:who\s+)?(?:is|are|sits?|sitting|works?|lives?)\s+(?:based\s+)?(?:in|out of))\b/gi;
/** Words after a place that make it a licence's or a registration's ("Alaska RN license", "Texas MRT license"). */
const CREDENTIAL_AFTER = /^[ \t]+(?:[\w()/-]+[ \t]+){0,2}(?:licen[cs]es?|registration|certificat\w*|permit|accreditation)\b/i;
/** A person's name, not a place: "reports to Florence", "contact Jackson", "Dr. Lincoln". */
const PERSON_CUE = /\b(?:report(?:s|ing)?\s+(?:in)?to|contact|ask\s+for|speak\s+(?:to|with)|e-?mail|attn:?|mr\.?|ms\.?|mrs\.?|dr\.?)\s*$/i;
/** "not Victoria BC", "NOT Portland OR", "(not Richmond BC!)": a place ruled out. */
const RULED_OUT = /\b(?:not|excluding|except|rather than)\s+(?:in\s+)?(?:the\s+)?$/i;
/** Segment ends for "a line of its own": "Göteborg — manufacturing engineer", ", Wroclaw,". */
const SEGMENT_BREAK = /[\n,;|•()[\]:]|[.!?](?=\s)|[ \t][-–—][ \t]|[–—]/g;
/** What may stand beside a place in its own segment: "Location: Leeds", "Leeds office", "hybrid". */
const SEGMENT_FILLER =
  /^(?:\s|\b(?:location|locations|based|in|near|hybrid|remote|on-?site|onsite|office|offices|area|only|preferred|the|our|city|county|metro|region|or|and|anywhere|uk|us)\b|[/&+-])*$/i;

/** Whether the nearest cue before a place, in its sentence, says the place is the company's. */
function companyPlace(before: string): boolean {
  const clause = before.slice(Math.max(0, before.search(/[.;!?\n][^.;!?\n]*$/) + 1));
  let company = -1;
  for (const m of clause.matchAll(COMPANY_PLACE_CUES)) company = m.index + m[0].length;
  if (company < 0 || clause.length - company > 40) return false;
  // A role cue after the company cue wins: "HQ in Boston, this role is based in Denver".
  return !/\b(?:based|located|role|position|job|relocat\w*)\b/i.test(clause.slice(company));
}

// ---- mentions ----

export interface Mention {
  start: number;
  end: number;
  /** The name as written (qualifiers excluded). */
  written: string;
  /** An old metro, when the name is one of its names and no qualifier says otherwise. */
  metro?: MetroName;
  place: GazetteerPlace;
  /** Other places of the name, for a later choice by the brief's countries. */
  candidates: readonly GazetteerPlace[];
  qualified: boolean;
  evidence: 'solid' | 'weak' | 'none';
  weight: number;
  /** Named as the company's place ("headquartered in", "our DPO sits in"), not the role's. */
  company?: true;
}

interface Found {
  start: number;
  end: number;
  key: string;
  metro?: MetroName;
  candidates: readonly GazetteerPlace[];
}

/** The longest known name starting at token `i` and written as a place is written, or undefined. */
/** Capitalised words that may stand before a place's name: "Greater London", "Central Tokyo", "Hybrid Leeds". */
const NAME_MODIFIERS =
  /^(?:Hey|Hi|Hello|Calling|Attention|Greater|Central|Downtown|Uptown|Midtown|North|South|East|West|Northern|Southern|Eastern|Western|Metro|Inner|Outer|Upper|Lower|Old|New|Hybrid|Remote|Onsite|Based|Near|In|At|Location|Locations|Office|Relocate|Relocation|Or|And|Either|The|Our|Your|From|To|Within|Around|Outside|Only|Anywhere|Candidates|City|Region|Area|Standort|Arbeitsort|Einsatzort|Raum|Großraum|Ganz|Innerhalb|Büro|Sede|Lieu|Locatie|Kantoor|Flughafen|Hauptbahnhof|Klinikum|Aeropuerto|Aeroporto|Aéroport|Hospital|Hôpital|Ospedale|Port|Porto|Puerto|Airport|Universität|Universidad|Université|Università)$/;
/** Words of districts' names anywhere: "Old Town", "City Centre", "Harbour Front". */
const GENERIC_PLACE_WORDS = new Set(
  'old new town city centre center downtown uptown midtown village harbour harbor port north south east west upper lower central park hill hills heights bay beach market square quarter district gulf coast valley lake island islands cape'.split(
    ' ',
  ),
);
/** Continents and world regions are no places of the gazetteer ("containers from Asia", "EMEA"), though towns bear some of their names. */
const WORLD_REGIONS = new Set(['asia', 'europe', 'africa', 'america', 'americas', 'oceania', 'antarctica', 'emea', 'apac', 'latam', 'middle east']);

function nameAt(text: string, tokens: Token[], i: number, corrections: Map<string, string | undefined>): Found | undefined {
  if (WORLD_REGIONS.has(tokens[i].key)) return undefined;
  const g = gazetteer();
  const metros = metroNames();
  let last = i;
  while (last + 1 < tokens.length && last + 1 - i < MAX_NAME_WORDS && joinsName(text.slice(tokens[last].end, tokens[last + 1].start))) last++;
  for (let j = last; j >= i; j--) {
    // "Sydney CBD" is Sydney (its centre's own entry is read by an alternate name only after a cue).
    if (j > i && tokens[j].key === 'cbd') continue;
    const start = tokens[i].start;
    const end = tokens[j].end;
    const key = tokens
      .slice(i, j + 1)
      .map((t) => t.key)
      .join(' ');
    const written = text.slice(start, end);
    let metro = metros.get(key);
    if (metro && ((metro.exact && metro.exact.replace(/\s+/g, ' ') !== written.replace(/\s+/g, ' ')) || (!metro.anyCase && !/^[\p{Lu}\p{N}]/u.test(written))))
      metro = undefined;
    // German written without umlauts: "Duesseldorf", "Koeln", "Muenchen".
    const umlautKey = /^\p{Lu}/u.test(written) && /ae|oe|ue/.test(key) ? key.replace(/ae/g, 'a').replace(/oe/g, 'o').replace(/ue/g, 'u') : key;
    const nameKey = g.namedKey(key).length || metro ? key : umlautKey;
    const candidates = writtenAsPlace(written, nameKey, g.namedKey(nameKey));
    if (metro || candidates.length) return { start, end, key: nameKey, metro, candidates };
  }
  // A state or province code with a cue: "BC-based", "in NSW" (checked in `evidence`).
  const regions = /^[A-Z]{2,3}$/.test(tokens[i].text)
    ? (g.regionAbbreviations().get(tokens[i].text) ?? []).filter((r) => ABBREVIATED_REGIONS.has(r.country))
    : [];
  if (regions.length)
    return { start: tokens[i].start, end: tokens[i].end, key: tokens[i].key, candidates: [...regions].sort((a, b) => b.population - a.population) };
  // A misspelt city or metro name ("Melborne", "Pittsburg" when no other reading fits): a big one
  // capitalised, or a metro's name typed in lower case ("hyderbad"); any other city of 100,000+
  // only after a cue or before its region ("commutable to sheffeild", "chatanooga tn").
  const fixed = correction(tokens[i].key, corrections) ?? regionalCorrection(text, tokens[i], corrections);
  const fixedMetro = fixed ? metros.get(fixed) : undefined;
  const fixedPlaces = fixed ? g.namedKey(fixed) : [];
  const cued = () =>
    CLOSE_CUE.test(text.slice(Math.max(0, tokens[i].start - 40), tokens[i].start)) ||
    fixedPlaces.some((p) => {
      const code = /^\s*,?\s*([A-Za-z]{2,3})\b/.exec(text.slice(tokens[i].end, tokens[i].end + 7))?.[1];
      return code !== undefined && g.regionByAbbreviation(p.country, code.toUpperCase())?.region === p.region;
    });
  const big = fixedMetro !== undefined || fixedPlaces.some((p) => p.population >= CORRECTABLE_MIN_POPULATION);
  // A short word ("Londn", "Sydeny") only standing as a place stands: after a cue, before its region or in a segment of its own.
  const short = tokens[i].key.length < 7;
  const placed = () => cued() || ownSegment(text, tokens[i].start, tokens[i].end) || /^\s*\(/.test(text.slice(tokens[i].end, tokens[i].end + 3));
  // A longer one capitalised in a segment of its own too ("— Thesaloniki, 2 days a week in the office").
  const capital = /^\p{Lu}/u.test(tokens[i].text);
  if (fixed && (short ? placed() : (big && (capital || fixedMetro?.anyCase)) || cued() || (capital && ownSegment(text, tokens[i].start, tokens[i].end)))) {
    return { start: tokens[i].start, end: tokens[i].end, key: fixed, metro: fixedMetro?.anyCase ? fixedMetro : undefined, candidates: fixedPlaces };
  }
  return undefined;
}

/** Towns of at least this size may be written with their district after a hyphen ("Köln-Ehrenfeld"). */
const DISTRICT_TOWN = 50_000;
/** Towns under this size may share their name with a district of a bigger place ("Crystal City", Melbourne's Parkville). */
export const DISTRICT_NAMESAKE_TOWN = 50_000;

/** "in Köln-Ehrenfeld", "Luxembourg-Kirchberg office": a sizeable town, its district after a hyphen, where a place stands. */
function townDistrict(text: string, found: Found): boolean {
  const district = /^-(\p{Lu}[\p{L}]+)/u.exec(text.slice(found.end, found.end + 30));
  if (!district || !(found.metro || found.candidates.some((c) => c.kind === 'city' && c.population >= DISTRICT_TOWN))) return false;
  const after = text.slice(found.end + district[0].length, found.end + district[0].length + 12);
  return CLOSE_CUE.test(text.slice(Math.max(0, found.start - 40), found.start)) || AFTER_CUE.test(after);
}

/** The places of a name, kept only when the text writes it as such a place is written. */
function writtenAsPlace(written: string, key: string, places: readonly GazetteerPlace[]): readonly GazetteerPlace[] {
  if (places.length === 0) return places;
  const g = gazetteer();
  const letters = written.replace(/[^\p{L}]/gu, '');
  // All capitals of up to four letters is a code: only the short forms and country codes ("NYC", "UK", "UAE").
  if (letters.length <= 4 && letters === letters.toUpperCase()) {
    return g.shortFormRadius(written) !== undefined || g.isCountryAbbreviation(written) ? places : [];
  }
  if (/^\p{Lu}/u.test(written)) return key.replace(/ /g, '').length <= 2 ? [] : places;
  // Lower case: big places only, never a code ("a sf office"); checked again with cues in `evidence`.
  return key.replace(/ /g, '').length >= 4 && !g.isAmbiguousName(key) && places[0].population >= LOWER_CASE_WITH_CUE_MIN_POPULATION ? places : [];
}

/**
 * Qualifiers right after a name that fit one of its places: ", OR", " (Scotland)", ", Alberta,
 * Canada", " MA". Returns them and where they end.
 */
function qualifiersAfter(
  text: string,
  tokens: Token[],
  next: number,
  candidates: readonly GazetteerPlace[],
  lowerCase: boolean,
): { qualifiers: string[]; end: number; nextToken: number } {
  const g = gazetteer();
  const qualifiers: string[] = [];
  let end = -1;
  let i = next;
  while (i < tokens.length && qualifiers.length < 2) {
    const gap = text.slice(end < 0 ? tokens[next - 1].end : end, tokens[i].start);
    const comma = /^[ \t]*(?:,|\()[ \t]*$/.test(gap);
    if (!comma && !/^[ \t]+$/.test(gap)) break;
    let matched: { qualifier: string; last: number } | undefined;
    for (let j = Math.min(tokens.length - 1, i + 3); j >= i && !matched; j--) {
      if (j > i && !joinsName(text.slice(tokens[j - 1].end, tokens[j].start))) continue;
      const asWritten = text.slice(tokens[i].start, tokens[j].end);
      // Sloppy lower case throughout ("tulsa ok") reads as written properly.
      const written = lowerCase && /^[a-z]{2,3}$/.test(asWritten) ? asWritten.toUpperCase() : asWritten;
      const abbreviation = /^[A-Z]{2,3}$/.test(written);
      // Without a comma only a state code or a capitalised region or country: "Boston MA", "Portland Oregon".
      if (!abbreviation && !/^\p{Lu}/u.test(written)) continue;
      if (!comma && !abbreviation && !g.country(written) && !g.named(written).some((p) => p.kind === 'region')) continue;
      const fits = candidates.some((p) => placeFits(p, written));
      if (fits) matched = { qualifier: written, last: j };
    }
    // A qualifier in parentheses is all they hold: "(Waikato)", not "(Dubai Internet City)".
    if (matched && gap.includes('(') && !/^[ \t]*[),]/.test(text.slice(tokens[matched.last].end, tokens[matched.last].end + 3))) matched = undefined;
    if (!matched) break;
    qualifiers.push(matched.qualifier);
    end = tokens[matched.last].end;
    if (text[end] === ')') end++;
    i = matched.last + 1;
  }
  return { qualifiers, end, nextToken: i };
}

/** Whether a qualifier names a place's region or country (or the region itself, for a region). */
function placeFits(p: GazetteerPlace, qualifier: string): boolean {
  return choosePlace([p], [qualifier]) !== undefined;
}

/** Every place mention of the text, with its weight; claimed spans (roles, skills) are skipped. */
export function placeMentions(text: string, taken: SpanClaims | undefined): Mention[] {
  const tokens = tokenize(text);
  const firstLineEnd = (() => {
    const i = text.search(/\n/);
    return i < 0 ? text.length : i;
  })();
  const g = gazetteer();
  const out: Mention[] = [];
  const corrections = new Map<string, string | undefined>();
  for (let i = 0; i < tokens.length; i++) {
    if (taken?.overlaps(tokens[i].start, tokens[i].end)) continue;
    const found = nameAt(text, tokens, i, corrections);
    if (!found || taken?.overlaps(found.start, found.end)) continue;
    // Part of a compound ("Allen-Bradley", "Mercedes-Benz") or a county ("Utah County"): no place;
    // but a town's district where a place stands is the town ("in Köln-Ehrenfeld", "Luxembourg-Kirchberg office").
    if (
      (/^-(?!based\b)\p{L}|^\s+(?:county|parish)\b/iu.test(text.slice(found.end, found.end + 10)) && !townDistrict(text, found)) ||
      /\p{L}-$/u.test(text.slice(Math.max(0, found.start - 2), found.start))
    )
      continue;
    let next = i + 1;
    while (next < tokens.length && tokens[next].start < found.end) next++;
    const pool = found.metro ? [...found.candidates, g.metro(found.metro.metroId)!.place] : found.candidates;
    const q = qualifiersAfter(text, tokens, next, pool, !/^[\p{Lu}\p{N}]/u.test(text.slice(found.start, found.end)));
    const reading = resolveMention(found, q.qualifiers);
    if (!reading) continue;
    const { metro, candidates } = reading;
    // "Québec City", "Limerick city": the city of a name that is also a region's.
    const cityAfter = /^[ \t]+city\b/i.exec(text.slice(found.end, found.end + 6))?.[0];
    const place = cityAfter && reading.place.kind !== 'city' ? (candidates.find((c) => c.kind === 'city') ?? reading.place) : reading.place;
    const end = q.qualifiers.length ? q.end : found.end + (cityAfter?.length ?? 0);
    i = (q.qualifiers.length ? q.nextToken : next) - 1;
    const mention: Mention = {
      start: found.start,
      end,
      written: text.slice(found.start, found.end),
      metro,
      place,
      candidates,
      qualified: q.qualifiers.length > 0,
      evidence: 'none',
      weight: 1,
    };
    mention.evidence = evidence(text, mention, found.key);
    if (mention.evidence === 'none') continue;
    const before = text.slice(Math.max(0, found.start - 50), found.start);
    if (RULED_OUT.test(before.slice(-25)) || (!mention.qualified && PERSON_CUE.test(before.slice(-25)))) continue;
    if (found.start < firstLineEnd) mention.weight *= 1.3;
    // Written with its region or country, a place is meant: "Victoria, Australia".
    if (mention.qualified) mention.weight *= 1.2;
    if (ROLE_PLACE_CUES.test(before) || AFTER_CUE.test(text.slice(end, end + 20))) mention.weight *= 1.5;
    // Nor is a licence's place ("an active Alaska RN license", "NSW shotfirer licence") the role's.
    if (companyPlace(before) || CREDENTIAL_AFTER.test(text.slice(end, end + 40))) {
      mention.weight *= 0.4;
      mention.company = true;
    }
    // Followed by another capitalised word, a name may be an institution's ("Texas Medical Center",
    // "Boston Scientific"); a public place of the town is in it ("Dunedin Hospital", "HMP Durham").
    if (/^[ \t]+\p{Lu}\p{Ll}/u.test(text.slice(end, end + 4)) && !AFTER_CUE.test(text.slice(end, end + 20)) && !TOWN_FACILITY.test(text.slice(end, end + 20)))
      mention.weight *= 0.5;
    // "Washington State" is the state, not the capital.
    if (metro?.metroId === 'washington-dc' && /^\s+state\b/i.test(text.slice(end, end + 8))) {
      mention.metro = undefined;
      mention.place = choosePlace(g.named('Washington').filter((p) => p.kind === 'region')) ?? mention.place;
    }
    out.push(mention);
    if (out.length === MAX_MENTIONS) break;
  }
  return out;
}

/** How far from its metro's city a metro alias's town may lie and still stand for the metro (km). */
const ALIAS_TOWN_KM = 30;

/**
 * The place a name stands for with its qualifiers. An old metro's name is the metro when the
 * qualifiers fit it ("Portland, OR", not "Portland, Maine"), and a metro's alias only when its
 * town lies near the metro's city ("Cambridge MA", "Reston" for Washington; not "Frisco" for Dallas).
 */
function resolveMention(
  found: Found,
  qualifiers: readonly string[],
): { metro?: MetroName; place: GazetteerPlace; candidates: readonly GazetteerPlace[] } | undefined {
  const g = gazetteer();
  const candidates = qualifiers.length ? found.candidates.filter((c) => choosePlace([c], qualifiers)) : found.candidates;
  const named = choosePlace(candidates, qualifiers, found.key);
  if (found.metro) {
    const metro = g.metro(found.metro.metroId)!;
    // A metro's alias stands for the metro only when its town is near the metro's city; a town
    // farther out is itself ("Frisco, TX" is 41 km from Dallas, "Waterloo, ON" 94 km from Toronto),
    // so a search around it finds the people near the town the brief names.
    const inMetro = (p: GazetteerPlace) => distanceKm(metro.place.lat, metro.place.lon, p.lat, p.lon) <= Math.min(metro.radiusKm, ALIAS_TOWN_KM);
    const keep = qualifiers.length
      ? (!!choosePlace([metro.place], qualifiers) && (!found.metro.alias || named === undefined || inMetro(named))) || (named !== undefined && inMetro(named))
      : !found.metro.alias ||
        named === undefined ||
        inMetro(named) ||
        // "Santa Clara" the Bay Area city before the bigger one in Cuba: a curated alias wins a close call.
        candidates.some((c) => c.kind === 'city' && inMetro(c) && c.population * 2 >= named.population);
    if (keep) return { metro: found.metro, place: metro.place, candidates };
  }
  // An alternate name that is also a word ("Center" for a town in Ohio) is no place.
  if (!named || (g.isAmbiguousName(found.key) && !candidates.some((c) => g.isOwnName(found.key, c)))) return undefined;
  return { place: named, candidates };
}

/** Short names of the days of the week, and what joins two of them ("Mon–Fri", "Sat & Sun"). */
const WEEKDAY = /^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)$/i;
const DAY_AFTER = /^\s*(?:[-–—/&,+]|to|thru|through|and)\s*(?:mon|tue|wed|thu|fri|sat|sun)/i;
const DAY_BEFORE = /(?:mon|tue|wed|thu|fri|sat|sun)\w*\s*(?:[-–—/&,+]|to|thru|through|and)\s*$/i;
/** Names made only of bearings: "North East", "South-East", "Central", "Midlands", "Western Province". */
const BEARING_NAME =
  /^(?:(?:north|south|east|west|northern|southern|eastern|western|central|centre|center|middle|mid|upper|lower|inner|outer|north ?east|north ?west|south ?east|south ?west|midlands|coast|coastal|capital|islands?|the|and|region|province|district|state)(?: |$))+$/;
/**
 * How sure a mention is a place rather than a word, a name or a skill: `solid` on its own, `weak`
 * only in a list with a solid place or standing alone ("Reading or Oxford office"), `none` dropped.
 */
function evidence(text: string, m: Mention, key: string): Mention['evidence'] {
  const g = gazetteer();
  // "DC on Brackmills", "our DC in Leicester": a distribution centre, not Washington.
  if (
    /^[A-Z]{2}$/.test(m.written) &&
    !g.isCountryAbbreviation(m.written) &&
    (/\b(?:the|our|a|an|new|regional|national)\s+$/i.test(text.slice(Math.max(0, m.start - 12), m.start)) ||
      /^\s+(?:on|in|at|near|site|shift|operatives?|manager)\b/i.test(text.slice(m.end, m.end + 12)))
  )
    return 'none';
  if (m.qualified || m.metro || g.isCountryAbbreviation(m.written) || g.shortFormRadius(m.written) !== undefined) return 'solid';
  const before = text.slice(Math.max(0, m.start - 40), m.start);
  const after = text.slice(m.end, m.end + 30);
  // "Santa Rosa counties", "Orange County": a county named after a town is not the town.
  if (m.place.kind === 'city' && /^\s+count(?:y|ies)\b/i.test(after)) return 'none';
  // A day in a run of days ("Mon–Fri 8–5") is no Mon State.
  if (WEEKDAY.test(m.written) && (DAY_AFTER.test(after) || DAY_BEFORE.test(before))) return 'none';
  // A name in a list of skills is one of them ("Kotlin, Spring", "Rails / Phoenix").
  const itemBefore = /([^(),/;\n]{1,30}?)\s*[,/]\s*$/.exec(before)?.[1];
  const itemAfter = /^\s*[,/]\s*([^(),/;\n]{1,30}?)\s*(?:[(),/;\n]|$)/.exec(after)?.[1];
  if (!m.qualified && [itemBefore, itemAfter].some((item) => item !== undefined && canonicalSkill(item.trim()) !== undefined)) return 'none';
  // …and in a bracketed list of names that are mostly no places, one of them ("Stihl, Husqvarna, Honda").
  if (!m.qualified && bracketedNonPlaces(text, m.start, m.end) >= 2) return 'none';
  // "the Crystal City office", "Century City": a district named "<name> City" is not a small town of that name.
  const afterName = text.slice(m.start + m.written.length, m.start + m.written.length + 20);
  if (
    m.place.kind === 'city' &&
    m.place.population < DISTRICT_NAMESAKE_TOWN &&
    /^[ \t]+City\b/.test(afterName) &&
    !/^[ \t]+City[ \t]+(?:centre|center|council|hall|limits)\b/i.test(afterName) &&
    g.named(`${m.written} City`).length === 0
  )
    return 'none';
  // "Limerick city", "Cork city or county": a name followed by "city" is a place.
  const cityNamed = /\p{L}[ \t]+city$/iu.test(m.written) || /^[ \t]+city\b/i.test(afterName);
  const closeCue = (CLOSE_CUE.test(before) && ENDS_PHRASE.test(after)) || AFTER_CUE.test(after) || cityNamed;
  const cued = closeCue || ownSegment(text, m.start, m.end);
  // The second word of another proper name ("Faria Lima", "Al Noor") is no place of its own.
  const nameBefore = /(?:^|[^\p{L}.!?\n:;•-]\s*)(\p{Lu}\p{Ll}+)[ \t]+$/u.exec(text.slice(Math.max(0, m.start - 20), m.start))?.[1];
  if (
    !m.qualified &&
    !m.metro &&
    nameBefore &&
    !NAME_MODIFIERS.test(nameBefore) &&
    gazetteer().named(nameBefore).length === 0 &&
    !isRoleWord(nameBefore.toLowerCase())
  )
    return 'none';
  // A town called by a role word ("Officer", Victoria) is that town only after a close cue: "HSE Officer" is a role.
  if (!m.qualified && !m.metro && isRoleWord(key) && ROLE_NOUN.test(key) && !closeCue) return 'none';
  // A state code alone in its segment is the state ("remote, TX"), but not a credential that is wanted ("PE preferred").
  if (m.place.kind === 'region' && /^[A-Z]{2,3}$/.test(m.written))
    return cued && !/^\s+(?:preferred|required|desired|a plus)\b/i.test(after) ? 'solid' : 'none';
  const commonWordsOnly = key.split(' ').every((w) => GENERIC_PLACE_WORDS.has(w));
  // A region named by a common place word alone ("Gulf" for Papua New Guinea's Gulf Province) only with its country.
  if (m.place.kind === 'region' && !m.qualified && commonWordsOnly) return 'none';
  // A region named only by its bearing ("East", "North East", "Midlands") is as often a part of
  // another country ("the North East of England", "East Midlands"): only with its country.
  if (m.place.kind === 'region' && BEARING_NAME.test(key)) return 'none';
  // Lower case: a big place, or one with a cue ("remote, leeds"); a region in lower case only after a
  // close cue ("(meta, tiktok)" is no Colombian department).
  if (!/^[\p{Lu}\p{N}]/u.test(m.written)) {
    if (m.place.kind === 'region') return closeCue ? 'solid' : 'none';
    // Only another name of the place, in lower case, is a word first ("para" is Spanish for "for", not Belém).
    if (!g.isOwnName(key, m.place)) return closeCue ? 'solid' : 'none';
    return m.place.population >= LOWER_CASE_MIN_POPULATION || cued ? 'solid' : 'none';
  }
  // A word, a given name, a short name or only another name of the place (GeoNames lists historic and
  // foreign ones: "Mazak" for Kayseri) needs a cue.
  // Another name made of common place words ("Old Town" for Las Vegas) is a district, not that city.
  if (!m.candidates.some((c) => g.isOwnName(key, c)) && commonWordsOnly) return 'none';
  // …but a big city's other spelling standing as a place stands is that city ("Londn (Shoreditch)", "— Tokio,"),
  // and so is a near spelling of a smaller city's own name, as a misspelling of it would be ("— Zaragosa").
  if (!m.candidates.some((c) => g.isOwnName(key, c))) {
    const standing = (ownSegment(text, m.start, m.end) && !insideParentheses(text, m.start)) || /^\s*\(/.test(after);
    return closeCue || (standing && (m.place.population >= LOWER_CASE_MIN_POPULATION || nearSpelling(key, m.place))) ? 'solid' : 'none';
  }
  if (g.isAmbiguousName(key) || key.replace(/ /g, '').length <= 3) return cued ? 'solid' : 'weak';
  return 'solid';
}

/** How many other items of the bracketed comma list a span stands in are names of no place (0 outside such a list). */
function bracketedNonPlaces(text: string, start: number, end: number): number {
  const open = text.lastIndexOf('(', start);
  const close = text.indexOf(')', end);
  if (open < 0 || close < 0 || text.slice(open, start).includes(')') || text.slice(end, close).includes('(') || close - open > 120) return 0;
  const items = text
    .slice(open + 1, close)
    .split(/,|\s&\s|\s(?:and|or)\s/)
    .map((item) => item.trim())
    .filter(Boolean);
  const own = placeKey(text.slice(start, end));
  // Only names count ("Stihl", "Husqvarna"), not phrases ("offices in Basel", "no relocation").
  const name = /^\p{Lu}[\p{L}.'-]*(?:\s\p{Lu}[\p{L}.'-]*){0,2}$/u;
  return items.filter((item) => name.test(item) && placeKey(item) !== own && gazetteer().named(item).length === 0).length;
}

/** Whether a span stands alone between segment breaks, give or take filler words ("Location: Leeds", "Leeds office"). */
export function ownSegment(text: string, start: number, end: number): boolean {
  let segStart = 0;
  for (const m of text.slice(Math.max(0, start - 60), start).matchAll(SEGMENT_BREAK)) segStart = Math.max(0, start - 60) + m.index + m[0].length;
  if (start - 60 > 0 && segStart === 0) return false;
  SEGMENT_BREAK.lastIndex = 0;
  const rest = text.slice(end, end + 60);
  const brk = rest.search(/[\n,;|•()[\]:.!?]|[ \t][-–—][ \t]|[–—]/);
  const segEnd = brk < 0 ? (end + 60 >= text.length ? text.length : -1) : end + brk;
  if (segEnd < 0) return false;
  return SEGMENT_FILLER.test(text.slice(segStart, start)) && SEGMENT_FILLER.test(text.slice(end, segEnd));
}
