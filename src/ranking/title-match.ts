/**
 * Matching role titles against the role vocabulary (src/reference/role-vocabulary.ts), shared by
 * the brief reader and title scoring:
 *  - `titleTokens` / `titleSimilarity`: a title's words without seniority modifiers, compared by
 *    a Dice overlap weighted by how rare each word is among known titles (IDF), so "Software
 *    Engineer" and "Backend Engineer" share little ("engineer" is everywhere) while "Backend
 *    Engineer" and "Backend Developer" share the word that matters;
 *  - `canonicalRoles`: the known phrase a title is, or contains ("Sr. iOS Developer, Payments" →
 *    alias "iOS developer" → Mobile Engineer of software engineering);
 *  - `similarRolePhrases`: the nearest known phrases by character-trigram TF-IDF cosine
 *    (reference/trigram-index.ts), for role words that match nothing exactly ("data scienist",
 *    "server side dev").
 */
import { SENIORITY_TITLE_WORDS } from '../reference/taxonomy';
import { BRIEF_SENIORITY_WORDS, FAMILY_UMBRELLA_TITLES, ROLE_PHRASES, type RolePhrase, type RolePhraseSource } from '../reference/role-vocabulary';
import type { Seniority } from '../domain/profile';
import { trigramIndex, type TrigramIndex } from '../reference/trigram-index';

// ---- tokens ----

const FILLER_WORDS = new Set(['of', 'and', 'the', 'for', 'at', 'in', 'to', 'a', 'an', 'with']);
const LEVEL_NUMERALS = new Set(['i', 'ii', 'iii', 'iv', 'v', '1', '2', '3', '4', '5']);
/**
 * Levels whose words only modify a title ("Senior", "Staff", "Lead"). Words of the manager-and-up
 * levels ("Manager", "Director", "VP") name the role itself, so they stay.
 */
const MODIFIER_LEVELS: readonly Seniority[] = ['intern', 'junior', 'mid', 'senior', 'lead'];

/** Lower-case words of a text: accents dropped, split on anything but letters, digits, + and #. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9+#]+/)
    .filter((t) => t !== '');
}

let modifiers: Set<string> | undefined;
/** Single-word seniority modifiers and level numerals ("senior", "sr", "staff", "ii"). */
function modifierWords(): Set<string> {
  if (!modifiers) {
    const phrases = MODIFIER_LEVELS.flatMap((l) => [...(SENIORITY_TITLE_WORDS[l] ?? []), ...(BRIEF_SENIORITY_WORDS[l] ?? [])]);
    // Single words only: "Team Lead" must not make "team" meaningless, but "Mid-Level" is one word.
    modifiers = new Set([...LEVEL_NUMERALS, ...phrases.filter((p) => !/\s/.test(p.trim())).flatMap(words)]);
  }
  return modifiers;
}

/** Title words without seniority modifiers and filler; all words but filler when nothing else is left. */
export function titleTokens(title: string): string[] {
  const all = words(title);
  const mods = modifierWords();
  const kept = all.filter((t) => !mods.has(t) && !FILLER_WORDS.has(t));
  return kept.length > 0 ? kept : all.filter((t) => !FILLER_WORDS.has(t));
}

/** A phrase's lookup key: its words without seniority modifiers ("Sr. Backend Engineer" → "backend engineer"). */
export function roleKey(text: string): string {
  const mods = modifierWords();
  const kept = words(text).filter((t) => !mods.has(t));
  return (kept.length > 0 ? kept : words(text)).join(' ');
}

/**
 * The key a known phrase is indexed under: its role key, unless dropping the modifiers leaves one
 * word that is not the phrase ("security lead" → "security", "summer associate" → "summer"):
 * then all its words, so a bare "security" or "summer" is no role.
 */
function phraseKey(phrase: string): string {
  const key = roleKey(phrase);
  const all = words(phrase).join(' ');
  return !key.includes(' ') && key !== all ? all : key;
}

// ---- known phrases ----

const SOURCE_RANK: Record<RolePhraseSource, number> = { title: 0, 'level-title': 1, alias: 2, onet: 3 };

interface PhraseIndex {
  byKey: Map<string, RolePhrase[]>;
  /** Exact-case phrases (abbreviations) by their written form. */
  byExact: Map<string, RolePhrase[]>;
  idf: Map<string, number>;
  maxIdf: number;
}

let index: PhraseIndex | undefined;
function phraseIndex(): PhraseIndex {
  if (index) return index;
  const byKey = new Map<string, RolePhrase[]>();
  const byExact = new Map<string, RolePhrase[]>();
  for (const p of ROLE_PHRASES) {
    const map = p.exact ? byExact : byKey;
    const key = p.exact ? p.phrase : phraseKey(p.phrase);
    if (key === '') continue;
    map.set(key, [...(map.get(key) ?? []), p]);
  }
  for (const list of [...byKey.values(), ...byExact.values()]) {
    list.sort((a, b) => SOURCE_RANK[a.source] - SOURCE_RANK[b.source] || Number(b.title !== undefined) - Number(a.title !== undefined));
  }
  // Word rarity among the curated phrases (O*NET's long tail would make every word look rare).
  const docs = [...new Set(ROLE_PHRASES.filter((p) => p.source !== 'onet' && !p.exact).map((p) => phraseKey(p.phrase)))];
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d.split(' '))) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [t, n] of df) idf.set(t, Math.log(1 + docs.length / n));
  index = { byKey, byExact, idf, maxIdf: Math.log(1 + docs.length) };
  return index;
}

const weightOf = (t: string) => phraseIndex().idf.get(t) ?? phraseIndex().maxIdf;

/**
 * How well a person's title covers a wanted title, each word weighted by its rarity among known
 * titles: mostly the share of the wanted words the person's title has (a "Tax Accountant" is an
 * accountant), a little the overlap both ways (so the exact title still ranks first); 1 for the
 * same words, near 0 when only common words ("engineer", "manager") are shared.
 */
export function titleSimilarity(personTitle: string, wanted: string): number {
  const person = new Set(titleTokens(personTitle));
  const want = new Set(titleTokens(wanted));
  if (person.size === 0 || want.size === 0) return 0;
  let covered = 0;
  let wantTotal = 0;
  let personTotal = 0;
  for (const t of want) {
    wantTotal += weightOf(t);
    if (person.has(t)) covered += weightOf(t);
  }
  for (const t of person) personTotal += weightOf(t);
  const coverage = covered / wantTotal;
  const dice = (2 * covered) / (wantTotal + personTotal);
  return 0.8 * coverage + 0.2 * dice;
}

export interface RoleReading {
  /** The known phrases, most trusted first (more than one family when the phrase is ambiguous). */
  phrases: RolePhrase[];
  /** The words of the title that matched, e.g. "ios developer". */
  matched: string;
  /** The whole title is the phrase (not merely contains it). */
  whole: boolean;
}

/**
 * What a title names: the known phrase it is (ignoring seniority modifiers), else the longest known
 * phrase it contains; an abbreviation only as written ("PM", not "pm"). Undefined: nothing known.
 */
export function canonicalRoles(title: string): RoleReading | undefined {
  const { byKey, byExact } = phraseIndex();
  const key = roleKey(title);
  const all = words(title).join(' ');
  const whole = byKey.get(key) ?? byKey.get(all);
  if (whole) return { phrases: whole, matched: byKey.has(key) ? key : all, whole: true };
  const tokens = key.split(' ');
  for (let n = tokens.length - 1; n >= 1; n--) {
    for (let i = 0; i + n <= tokens.length; i++) {
      const sub = tokens.slice(i, i + n).join(' ');
      const found = byKey.get(sub);
      if (found) return { phrases: found, matched: sub, whole: false };
    }
  }
  for (const written of title.split(/[^A-Za-z0-9+#&/]+/)) {
    const found = byExact.get(written);
    if (found) return { phrases: found, matched: written, whole: key.split(' ').length <= 1 };
  }
  return undefined;
}

/**
 * Whether every wanted title is a manager-and-up title found by its department words ("Operations
 * Manager", "Head of Security"): the title then names a level too, and a person of the same
 * department at another level ("Director of Operations" for an operations manager) matches it only
 * half. The scorer and the retrieval estimate both read it from here.
 */
export function departmentTitlesOnly(criteria: { titles?: readonly string[]; family?: string | null }): boolean {
  // The scorer asks once per person of the same criteria: worked out once per criteria object.
  let only = departmentTitlesOf.get(criteria);
  if (only === undefined) {
    const titles = criteria.titles ?? [];
    only =
      titles.length > 0 &&
      titles.every((t) => {
        const phrases = canonicalRoles(t)?.phrases.filter((p) => !criteria.family || p.family === criteria.family) ?? [];
        return phrases.length > 0 && !phrases.some((p) => p.title) && phrases[0].source === 'level-title';
      });
    departmentTitlesOf.set(criteria, only);
  }
  return only;
}
const departmentTitlesOf = new WeakMap<object, boolean>();

// ---- character-trigram TF-IDF ----

let phraseTrigrams: { keys: string[]; index: TrigramIndex } | undefined;
function trigramIdx() {
  if (!phraseTrigrams) {
    const keys = [...phraseIndex().byKey.keys()];
    phraseTrigrams = { keys, index: trigramIndex(keys) };
  }
  return phraseTrigrams;
}

export interface SimilarPhrase {
  key: string;
  phrases: RolePhrase[];
  /** Cosine of the character-trigram TF-IDF vectors, 0–1. */
  similarity: number;
}

/** The `limit` known role phrases nearest to `text` by character-trigram TF-IDF cosine. */
export function similarRolePhrases(text: string, limit = 3): SimilarPhrase[] {
  return trigramIdx()
    .index.nearest(roleKey(text), limit)
    .map((n) => ({ key: n.key, phrases: phraseIndex().byKey.get(n.key)!, similarity: n.similarity }));
}

// ---- title against title ----

export interface TitleMatch {
  /** 0–1. */
  match: number;
  /** When a known phrase made the two titles the same role: e.g. `'iOS developer' is Mobile Engineer`. */
  alias?: string;
}

/** The base title (or, for manager-and-up titles, family and level) a reading stands for. */
function roleOf(r: RoleReading | undefined): { family: string; title?: string; seniority?: Seniority; phrase: RolePhrase } | undefined {
  const p = r?.phrases[0];
  if (!p) return undefined;
  if (p.title) return { family: p.family, title: p.title, phrase: p };
  if (p.source === 'level-title' || p.source === 'alias') return { family: p.family, seniority: p.seniority, phrase: p };
  return undefined;
}

const aliasNote = (p: RolePhrase, canonical: string) => (p.source === 'title' ? undefined : `'${p.phrase}' is ${canonical}`);

/** How well another title of the family matches a title that names the whole family. */
export const UMBRELLA_MATCH = 0.9;

/** Words of manager-and-up titles that say the level, not the department ("Head of", "Director", "VP"). */
const LEVEL_TITLE_WORDS = new Set(['manager', 'director', 'head', 'vp', 'svp', 'evp', 'vice', 'president', 'chief', 'officer', 'senior', 'sr', 'of', 'the']);

/** A manager-and-up title's department words: "Head of Engineering" → "engineering". */
export function departmentWords(title: string): string {
  return words(title)
    .filter((w) => !LEVEL_TITLE_WORDS.has(w))
    .join(' ');
}

/**
 * How well one manager-and-up title matches another: by their department words only, the level
 * being the seniority's business ("Director of Engineering" is "Head of Engineering"; "Customer
 * Support Manager" is only partly "Manager, Customer Success"). Titles with no department word
 * left ("Manager") match any.
 */
function departmentSimilarity(personTitle: string, wanted: string): number {
  const want = departmentWords(wanted);
  if (want === '') return 1;
  const person = departmentWords(personTitle);
  return person === '' ? 0 : titleSimilarity(person, want);
}

/**
 * How well a person's title matches a wanted title, alias-aware: the same role under another name
 * ("Server-side Developer" and "Backend Engineer", "Sr. iOS Developer" and "Mobile Engineer")
 * matches fully and says which alias made it so; manager-and-up titles of a family compare by
 * their department words; otherwise the rarity-weighted word coverage.
 */
export function titleMatch(personTitle: string, wanted: string): TitleMatch {
  const direct = titleSimilarity(personTitle, wanted);
  if (direct >= 1) return { match: 1 };
  const person = roleOf(canonicalRoles(personTitle));
  const want = roleOf(canonicalRoles(wanted));
  if (person && want && person.family === want.family) {
    if (person.title && person.title === want.title) {
      const alias = aliasNote(want.phrase, want.title) ?? aliasNote(person.phrase, person.title);
      return alias ? { match: 1, alias } : { match: 1 };
    }
    // "Software Engineer" asked for generally: any software engineering title will do, the
    // exact one first.
    if (person.title && want.title && FAMILY_UMBRELLA_TITLES.get(want.family)?.has(want.title)) {
      return { match: UMBRELLA_MATCH, alias: `'${want.title}' covers ${person.title}` };
    }
    if (!person.title && !want.title) {
      const match = departmentSimilarity(personTitle, wanted);
      if (match >= 1) return { match: 1, alias: `'${want.phrase.phrase}' and '${person.phrase.phrase}' name the same department` };
      return { match };
    }
  }
  const viaCanonical = titleSimilarity(person?.title ?? personTitle, want?.title ?? wanted);
  return { match: Math.max(direct, viaCanonical) };
}
