/**
 * Where a brief wants people: a metro (by id, name, city or alias), alternatives joined by "or",
 * or only a country. Part of the brief reader (jd-extractor.ts).
 *
 * Mentions are weighed by their words: "based in", "Location:", the opening line make a place the
 * role's; "headquartered in", "offices in", "customers in" make it the company's.
 */
import countryAliasData from '../reference/data/country-aliases.json';
import { COUNTRIES, METROS } from '../reference/taxonomy';
import { editDistance } from '../domain/edit-distance';
import { SpanClaims } from './span-claims';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole-word pattern for a name; inner spaces and hyphens match any run of them. */
function namePattern(name: string, caseSensitive: boolean): RegExp {
  const body = name
    .trim()
    .split(/[\s-]+/)
    .map(escapeRe)
    .join('[\\s-]+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, caseSensitive ? 'gu' : 'giu');
}

type NameKind = 'id' | 'label' | 'city' | 'alias';
interface PlaceName {
  name: string;
  metroId: string;
  kind: NameKind;
  re: RegExp;
  /** Written in lower case too ("berlin", "the bay area"), or only capitalised. */
  anyCase: boolean;
}

const CONFIDENCE: Record<NameKind, number> = { id: 0.95, label: 0.95, city: 0.9, alias: 0.9 };

let names: PlaceName[] | undefined;
function placeNames(): PlaceName[] {
  if (names) return names;
  const out: PlaceName[] = [];
  const add = (name: string, metroId: string, kind: NameKind) => {
    // Short or all-capital aliases ("SF", "LA", "GTA") only as written.
    const caseSensitive = kind === 'alias' && (name.length <= 4 || name === name.toUpperCase());
    // Short one-word aliases are often ordinary words or surnames ("Mesa", "Irving"): capitalised only.
    const anyCase = kind !== 'alias' || /\s/.test(name.trim()) || name.length >= 5;
    out.push({ name, metroId, kind, re: namePattern(name, caseSensitive), anyCase });
  };
  for (const m of METROS) {
    add(m.label, m.id, 'label');
    if (m.city && m.city !== m.label) add(m.city, m.id, 'city');
    for (const a of m.aliases) add(a, m.id, 'alias');
    if (m.id.includes('-')) add(m.id, m.id, 'id');
  }
  names = out.sort((a, b) => b.name.length - a.name.length || a.name.localeCompare(b.name));
  return names;
}

/** Words just before a place that make it where the role is ("based in", "Location:", "in"). */
const ROLE_PLACE_CUES =
  /(?:\bbased in|\blocated in|\blocation|\bin|\bnear|\baround|\bhybrid|\bon-?site|\bonsite|\boffice|\brelocat\w* to|\bremote|\bwithin commuting distance of|\bcommutable to|\bfrom|\bout of|\bcandidates in|\bpeople in|@)\W{0,3}(?:the\s+)?(?:\w+\s+)?$/i;
/** Words before a place that make it the company's, not the role's ("headquartered in", "offices in"). */
const COMPANY_PLACE_CUES = /\b(?:headquarter\w*|hq|offices|founded|customers|clients|presence|across|as well as|including|studios?|sites|from our)\b/gi;

/** Whether the nearest cue before a place, in its sentence, says the place is the company's. */
function companyPlace(before: string): boolean {
  const clause = before.slice(Math.max(0, before.search(/[.;!?\n][^.;!?\n]*$/) + 1));
  let company = -1;
  for (const m of clause.matchAll(COMPANY_PLACE_CUES)) company = m.index + m[0].length;
  if (company < 0 || clause.length - company > 40) return false;
  // A role cue after the company cue wins: "HQ in Boston, this role is based in Denver".
  return !/\b(?:based|located|role|position|job|relocat\w*)\b/i.test(clause.slice(company));
}

interface PlaceMention {
  start: number;
  end: number;
  metroId: string;
  kind: NameKind;
  weight: number;
}

function metroMentions(text: string): PlaceMention[] {
  const claimed = new SpanClaims(text.length);
  const firstLineEnd = (() => {
    const i = text.search(/\n/);
    return i < 0 ? text.length : i;
  })();
  const out: PlaceMention[] = [];
  for (const n of placeNames()) {
    n.re.lastIndex = 0;
    for (const m of text.matchAll(n.re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (claimed.overlaps(start, end)) continue;
      if (!n.anyCase && n.kind !== 'id' && !/^[\p{Lu}\p{N}]/u.test(m[0])) continue;
      // "Seattle, Washington" is the state; "Washington, D.C." and "Washington DC" are the city.
      if (
        n.kind === 'city' &&
        /^washington$/i.test(m[0]) &&
        (/,\s*$/.test(text.slice(Math.max(0, start - 3), start)) || /^\s+state\b/i.test(text.slice(end, end + 8)))
      )
        continue;
      claimed.claim(start, end);
      const before = text.slice(Math.max(0, start - 50), start);
      let weight = 1;
      if (start < firstLineEnd) weight *= 1.3;
      if (ROLE_PLACE_CUES.test(before)) weight *= 1.5;
      if (companyPlace(before)) weight *= 0.4;
      out.push({ start, end, metroId: n.metroId, kind: n.kind, weight });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

const COUNTRY_ALIASES: Record<string, string> = countryAliasData;

let countryNames: { re: RegExp; country: string }[] | undefined;
function countryPatterns(): { re: RegExp; country: string }[] {
  if (!countryNames) {
    const entries = [...COUNTRIES.map((c) => [c, c] as const), ...Object.entries(COUNTRY_ALIASES)];
    countryNames = entries
      .sort((a, b) => b[0].length - a[0].length)
      .map(([name, country]) => ({ re: namePattern(name, name.length <= 4 || name === name.toUpperCase()), country }));
  }
  return countryNames;
}

function countryMention(text: string): string | undefined {
  let first: { index: number; country: string } | undefined;
  const claimed = new SpanClaims(text.length);
  for (const c of countryPatterns()) {
    c.re.lastIndex = 0;
    for (const m of text.matchAll(c.re)) {
      const end = m.index + m[0].length;
      if (claimed.overlaps(m.index, end)) continue;
      claimed.claim(m.index, end);
      if (companyPlace(text.slice(Math.max(0, m.index - 50), m.index))) continue;
      if (!first || m.index < first.index) first = { index: m.index, country: c.country };
    }
  }
  return first?.country;
}

// ---- misspelt place names ----

let placeWords: Map<string, string> | undefined;
/** One-word place names of 7+ letters, lower case → as written ("charlotte" → "Charlotte"). */
function longPlaceWords(): Map<string, string> {
  if (!placeWords) {
    placeWords = new Map();
    for (const n of placeNames()) if (/^\p{L}{7,}$/u.test(n.name)) placeWords.set(n.name.toLowerCase(), n.name);
  }
  return placeWords;
}

/**
 * The text with misspelt long place names corrected ("Charlote" → "Charlotte", "hyderbad" →
 * "Hyderabad"): a word of 7+ letters one edit from one (two from 9 letters) and no other.
 */
function correctPlaceWords(text: string): string {
  const names = longPlaceWords();
  return text.replace(/\p{L}{7,}/gu, (word) => {
    const lower = word.toLowerCase();
    if (names.has(lower)) return word;
    const max = lower.length >= 9 ? 2 : 1;
    const near = [...names.keys()].filter((n) => n[0] === lower[0] && editDistance(lower, n, max) <= max);
    return near.length === 1 ? names.get(near[0])! : word;
  });
}

/** "remote (Canada)", "Remote – US", "remote anywhere in Nigeria", "UK-remote": the whole country. */
function remoteCountry(text: string): string | undefined {
  for (const c of countryPatterns()) {
    c.re.lastIndex = 0;
    for (const m of text.matchAll(c.re)) {
      const before = text.slice(Math.max(0, m.index - 25), m.index);
      const after = text.slice(m.index + m[0].length, m.index + m[0].length + 12);
      if (/\bremote\b[^.\n;]{0,20}$/i.test(before) || /^[\s-]*(?:remote|wide)\b/i.test(after)) return c.country;
    }
  }
  return undefined;
}

export interface PlaceReading {
  metro?: { id: string; confidence: number };
  /** Other metros offered as alternatives ("London or Berlin"), or the country when no metro is named. */
  locations?: { values: string[]; confidence: number };
}

export function readPlace(written: string): PlaceReading {
  const text = correctPlaceWords(written);
  const remote = remoteCountry(text);
  const mentions = metroMentions(text);
  // A remote role open to a whole country is the country, unless a metro is named as its base.
  if (
    remote &&
    !mentions.some((m) =>
      /\b(?:based|located|relocat\w*)\b[^.\n]{0,20}$|^[\s-]*based\b/i.test(text.slice(Math.max(0, m.start - 30), m.start) + '|' + text.slice(m.end, m.end + 8)),
    )
  ) {
    return { locations: { values: [remote], confidence: 0.75 } };
  }
  if (mentions.length === 0) {
    const country = countryMention(text);
    return country ? { locations: { values: [country], confidence: /\bremote\b/i.test(text) ? 0.7 : 0.8 } } : {};
  }
  const byMetro = new Map<string, { weight: number; first: PlaceMention }>();
  for (const m of mentions) {
    const entry = byMetro.get(m.metroId);
    if (entry) entry.weight += m.weight;
    else byMetro.set(m.metroId, { weight: m.weight, first: m });
  }
  const ranked = [...byMetro.values()].sort((a, b) => b.weight - a.weight || a.first.start - b.first.start);
  const chosen = ranked[0].first;
  // Alternatives written next to each other: "London or Berlin", "NYC/Boston", "Austin, Denver or remote".
  const alternatives: string[] = [];
  let last = chosen;
  for (const m of mentions.filter((x) => x.start > chosen.start)) {
    const gap = text.slice(last.end, m.start);
    if (!/^\s*(?:,|\/|\bor\b|,\s*or\b|\band\b|&)\s*(?:the\s+)?$/i.test(gap)) break;
    if (m.metroId !== chosen.metroId && !alternatives.includes(m.metroId)) alternatives.push(m.metroId);
    last = m;
  }
  let confidence = CONFIDENCE[chosen.kind];
  if (/\bremote\b/i.test(text)) confidence = Math.min(confidence, 0.75);
  const others = ranked.filter((r) => r.first.metroId !== chosen.metroId && !alternatives.includes(r.first.metroId));
  if (others.some((o) => o.weight * 1.5 > ranked[0].weight)) confidence -= 0.1;
  const out: PlaceReading = { metro: { id: chosen.metroId, confidence: Math.round(confidence * 100) / 100 } };
  if (alternatives.length) out.locations = { values: alternatives, confidence: out.metro!.confidence };
  return out;
}
