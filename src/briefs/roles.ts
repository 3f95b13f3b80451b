/**
 * The role a brief asks for: family, base titles and seniority, read from the words recruiters
 * use (src/reference/role-vocabulary.ts) — titles, aliases, abbreviations, O*NET alternate
 * titles, "Head of <department>" forms and seniority words — with a character-trigram similarity
 * fallback for role words that match nothing exactly, and the brief's skills as evidence when it
 * names no role at all. Part of the brief reader (jd-extractor.ts).
 *
 * Every mention of a role is weighed by where it stands: the opening line and words like
 * "hiring", "looking for", "role:" make it the role asked for; "work with", "reporting to",
 * "partner with" make it a colleague ("you'll work closely with product managers").
 */
import wordAbbreviationData from '../reference/data/title-word-abbreviations.json';
import { ROLE_FAMILIES, SENIORITY_TITLE_WORDS, SENIORITY_YEARS, canonicalSkill, findFamily } from '../reference/taxonomy';
import { BRIEF_SENIORITY_WORDS, FAMILY_AREAS, NO_FAMILY, ROLE_PHRASES, SKILL_TITLE_HINTS, type RolePhrase } from '../reference/role-vocabulary';
import { occupationVocabulary, type OccupationPhrase } from '../reference/occupation-titles';
import { familyTitleOccupation, occupations } from '../reference/occupations';
import { SENIORITIES, type Seniority } from '../domain/profile';
import { departmentWords, similarRolePhrases, titleSimilarity, words } from '../ranking/title-match';
import { editDistance } from '../domain/edit-distance';
import { SpanClaims } from './span-claims';

export const MAX_EXTRACTED_TITLES = 5;
/** Occupations a brief is read as, at most. */
const MAX_OCCUPATIONS = 3;

// ---- tokens with positions ----

interface Token {
  /** As written. */
  text: string;
  /** Lower case, accents dropped; a misspelt role word corrected ("enginer" → "engineer"). */
  lower: string;
  /** Set when `lower` is a correction of what was written. */
  corrected?: boolean;
  start: number;
  end: number;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}+#]+/gu)) {
    const lower = words(m[0]).join('');
    if (lower !== '') out.push({ text: m[0], lower, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** "engineers" → "engineer", "SDRs" → "SDR"; undefined when the word is no plural. */
function singular(word: string): string | undefined {
  if (/^[A-Z]{2,}s$/.test(word)) return word.slice(0, -1);
  if (word.length > 3 && /[^s]s$/i.test(word)) return word.slice(0, -1);
  return undefined;
}

// ---- phrase tables ----

const MAX_PHRASE_WORDS = 7;
/** Single words too generic to name a role on their own, whatever list they come from. */
const GENERIC_WORDS = new Set(
  'engineer developer manager analyst specialist consultant director coordinator associate lead officer assistant representative executive administrator technician partner advisor architect supervisor head president vp owner agent clerk worker professional expert generalist officer staff member'.split(
    ' ',
  ),
);

interface Tables {
  /** Lower-case words joined by spaces → phrases. */
  byWords: Map<string, RolePhrase[]>;
  /** Case-sensitive abbreviations, words as written joined by spaces → phrases. */
  byExact: Map<string, RolePhrase[]>;
  /** The keys of the curated phrases (misspellings are corrected towards their words only). */
  curatedKeys: Set<string>;
  /** Seniority words (lower-case words joined) → level. */
  levelWords: Map<string, Seniority>;
  /** Department words (lower-case words joined) → families. */
  areas: Map<string, string[]>;
  /** Short all-capital department words ("IT", "HR", "TA"), matched only as written. */
  exactAreas: Set<string>;
}

let tables: Tables | undefined;
function phraseTables(): Tables {
  if (tables) return tables;
  const byWords = new Map<string, RolePhrase[]>();
  const byExact = new Map<string, RolePhrase[]>();
  for (const p of ROLE_PHRASES) {
    const key = p.exact
      ? p.phrase
          .split(/[^\p{L}\p{N}+#]+/u)
          .filter(Boolean)
          .join(' ')
      : words(p.phrase).join(' ');
    if (key === '' || key.split(' ').length > MAX_PHRASE_WORDS) continue;
    if (!p.exact && p.source === 'onet' && !key.includes(' ') && GENERIC_WORDS.has(key)) continue;
    const map = p.exact ? byExact : byWords;
    map.set(key, [...(map.get(key) ?? []), p]);
  }
  // The whole O*NET vocabulary (reference/occupation-titles.ts) after the curated phrases: a curated
  // phrase keeps its reading; an O*NET title of an occupation outside the families reads as that
  // occupation and is never evidence for a family ("head chef", "veterinary nurse").
  const curatedKeys = new Set(byWords.keys());
  const vocabulary = occupationVocabulary();
  // Level words are levels, not the O*NET titles some of them also are ("Principal", "Apprentice").
  const seniorityWords = new Set(
    [...Object.values(BRIEF_SENIORITY_WORDS).flat(), ...Object.values(SENIORITY_TITLE_WORDS).flat()].map((w) => words(w).join(' ')),
  );
  for (const [map, phrases] of [
    [byWords, vocabulary.byKey],
    [byExact, vocabulary.byExact],
  ] as const) {
    for (const [key, p] of phrases) {
      if (map.has(key) || key.split(' ').length > MAX_PHRASE_WORDS || seniorityWords.has(key.toLowerCase())) continue;
      if (!p.exact && !key.includes(' ') && (GENERIC_WORDS.has(key) || !ROLE_NOUN.test(key))) continue;
      map.set(key, [vocabularyPhrase(p)]);
    }
  }
  const levelWords = new Map<string, Seniority>();
  // Modifier levels only: "manager" or "director" next to a title make another title, not a level.
  for (const level of ['intern', 'junior', 'mid', 'senior', 'lead'] as const) {
    for (const w of [...BRIEF_SENIORITY_WORDS[level], ...(SENIORITY_TITLE_WORDS[level] ?? [])]) {
      const key = words(w).join(' ');
      if (key !== '' && !levelWords.has(key)) levelWords.set(key, level);
    }
  }
  const areas = new Map<string, string[]>();
  const exactAreas = new Set<string>();
  for (const [family, list] of FAMILY_AREAS) {
    for (const a of list) {
      const key = words(a).join(' ');
      if (key !== '') areas.set(key, [...new Set([...(areas.get(key) ?? []), family])]);
      if (/^[A-Z]{2,3}$/.test(a)) exactAreas.add(a);
    }
  }
  tables = { byWords, byExact, curatedKeys, levelWords, areas, exactAreas };
  return tables;
}

/** An O*NET vocabulary phrase as a role phrase: its family's, or NO_FAMILY outside the families. */
function vocabularyPhrase(p: OccupationPhrase): RolePhrase {
  return { phrase: p.phrase, family: p.family ?? NO_FAMILY, source: 'onet', exact: p.exact, occupations: p.codes };
}

// ---- context ----

/** Words before a mention that make it the role asked for. */
const HIRING_CUES =
  /\b(?:hiring|looking for|seeking|searching for|source|sourcing|find|finding|need|needs|needed|want|wants|wanted|recruit|recruiting|opening for|vacancy|position|role|title|join (?:us|our team|the team) as|as an?|as our|we(?:'re| are) (?:hiring|looking))\b/gi;
/** Words before a mention that make it someone else: a colleague, a manager, a customer. */
const COLLEAGUE_CUES =
  /\b(?:(?:lead|leads|leading|manage|manages|managing|oversee|oversees|overseeing|grow|coach|coaching)\s+(?:a\s+(?:team\s+)?of\s+)?(?:\d+|a team|two|three|four|five|six|seven|eight|nine|ten|several)|with|alongside|partner(?:ing|s)? with|report(?:s|ing)? (?:in)?to|collaborat\w* with|work(?:ing)? closely with|support(?:s|ing)?|manag(?:ed|es|ing) by|hired by|team of|mentor(?:s|ing)?|fellow|other|between)\b/gi;
/** Verbs that make the level word after them no level ("to lead Backend Engineer hiring"). */
const VERB_BEFORE_LEAD = /\b(?:to|will|you'll|you will|help|helps|can|who|and)\s*$/i;

/**
 * A word that names a person by what they do ("carpenter", "pharmacist", "electrician", "chef"):
 * one O*NET word outside the families counts only if it looks like one ("Class", "Hospital",
 * "models" and "trained" are O*NET titles or parts of them, and no roles in a brief).
 */
const ROLE_NOUN =
  /(?:er|or|ist|ian|ant|ent|eer|ee|man|men|woman|person|smith|wright|chef|cook|nurse|aide|clerk|guard|nanny|vet|judge|tutor|maid|pilot|host|coach|poet|scout|porter|usher|lawyer|priest|monk|nun|barista|medic|doctor|dentist|surgeon|midwife|rabbi|imam|pastor|chaplain|sheriff|marshal)s?$/;

/** Whether a position is inside parentheses on its line. */
function insideParentheses(text: string, at: number): boolean {
  const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
  return line.lastIndexOf('(') > line.lastIndexOf(')');
}

/** After a role noun that ends its phrase: punctuation, the end, or a joining word ("Teacher (cover)", "chef for"), not "server administration". */
const ENDS_NOUN_PHRASE = /^(?:\s*$|\s*[^\s\p{L}\p{N}]|\s+(?:for|in|at|with|to|and|or|needed|wanted|required|position|role|job|opening|vacancy|from|on|near|based|who|wanted)\b)/iu;

/**
 * Where a role is named: right after a hiring word, or among the brief's first few words when it
 * ends its phrase and no role was named before it ("Year 4 Class Teacher — Bristol"; not "Senior
 * SRE: Linux server administration, Chef").
 */
function rolePosition(text: string, tokens: Token[], i: number, n: number, earlierRole: boolean): boolean {
  const levels = levelsBefore(text, tokens, i);
  if (/\b(?:hiring|looking for|seeking|need|needs|wanted|want|recruiting)\s+(?:an?\s+|\d+\s+|some\s+)?$/i.test(text.slice(Math.max(0, levels.from - 30), levels.from))) return true;
  if (earlierRole || !ENDS_NOUN_PHRASE.test(text.slice(tokens[i + n - 1].end, tokens[i + n - 1].end + 12))) return false;
  return tokens.findIndex((t) => t.start >= levels.from) <= 5 || text.length <= 60;
}

/** Where the last match of a cue ends in `before`, or -1. */
function lastCueEnd(re: RegExp, before: string): number {
  let end = -1;
  for (const m of before.matchAll(re)) end = m.index + m[0].length;
  return end;
}

/**
 * How much a mention says about the role asked for: more in the opening line and after a hiring
 * word, much less after a colleague word; the nearer cue of the two decides.
 */
function contextWeight(text: string, start: number, end: number, firstLineEnd: number): number {
  // The clause before the mention: up to 60 characters, not across a sentence or a line.
  const window = text.slice(Math.max(0, start - 60), start);
  const clause = window.slice(Math.max(0, window.search(/[.;!?\n][^.;!?\n]*$/) + 1));
  // A long description opens with the job title and then names many other roles (colleagues,
  // customers, the hiring manager); a one-liner is all role.
  const long = text.length >= 400;
  let w = start < firstLineEnd ? (long ? 3 : 1.6) : long ? 0.5 : start < 200 ? 1.2 : 1;
  const hiring = lastCueEnd(HIRING_CUES, clause);
  const colleague = lastCueEnd(COLLEAGUE_CUES, clause);
  if (hiring > colleague) w *= 1.5;
  else if (colleague > hiring) w *= 0.3;
  // "not another accountant", "our CFO wants…", "(we place RNs, we don't need one)".
  if (/\b(?:not|no|nor|never)\s+(?:an?\s+|another\s+|the\s+|any\s+|more\s+)?$/i.test(clause) || /\b(?:our|to the|from the|for the)\s+$/i.test(clause)) w *= 0.3;
  if (/^[^.;\n()]{0,30}?\b(?:don'?t|do not|doesn'?t|does not|not) need\b/i.test(text.slice(end, end + 60))) w *= 0.3;
  return w;
}

// ---- misspelt role words ----

/** Short forms of title words ("dev", "mgr", "ops"), read as the word. */
const WORD_ABBREVIATIONS: Record<string, string> = wordAbbreviationData;

let roleWords: { known: Set<string>; byFirst: Map<string, string[]>; heads: Map<string, number> } | undefined;
/** The words of every role phrase, department and level word, by first letter; how often each ends a phrase. */
function roleWordIndex() {
  if (!roleWords) {
    const { byWords, curatedKeys, levelWords, areas } = phraseTables();
    // Corrected towards the curated words only (the O*NET vocabulary's 50,000 titles hold a near
    // word for almost anything: "trained" → "trainer"); a word of any title is no misspelling.
    const curatedWords = new Set([...curatedKeys, ...levelWords.keys(), ...areas.keys()].flatMap((k) => k.split(' ')));
    const known = new Set([...curatedWords, ...[...byWords.keys()].flatMap((k) => k.split(' '))]);
    const byFirst = new Map<string, string[]>();
    for (const w of curatedWords) if (w.length >= 5 && /^[a-z]+$/.test(w)) byFirst.set(w[0], [...(byFirst.get(w[0]) ?? []), w]);
    const heads = new Map<string, number>();
    for (const k of curatedKeys) {
      const head = k.split(' ').at(-1) ?? '';
      heads.set(head, (heads.get(head) ?? 0) + 1);
    }
    roleWords = { known, byFirst, heads };
  }
  return roleWords;
}

/**
 * The role word a misspelt word stands for ("prodcut" → "product", "recuiter" → "recruiter"):
 * the one known word within one edit (two from 8 letters), same first letter; none when the
 * word is known, short, or two known words are as close.
 */
function correction(word: string): string | undefined {
  const { known, byFirst, heads } = roleWordIndex();
  if (word.length < 6 || !/^[a-z]+$/.test(word) || known.has(word) || (word.endsWith('s') && known.has(word.slice(0, -1)))) return undefined;
  // Verb forms and adverbs are words, not misspelt roles ("trained" is no "trainer").
  if (/(?:ed|ing|ly)$/.test(word)) return undefined;
  const max = word.length >= 8 ? 2 : 1;
  // Nearest first; between equally near words, the one that ends more role phrases ("enginer" is
  // an "engineer", not an "engine"; "designr" a "designer", not a "design").
  const candidates = (byFirst.get(word[0]) ?? [])
    .map((w) => ({ w, d: editDistance(word, w, max), heads: heads.get(w) ?? 0 }))
    .filter((c) => c.d <= max)
    .sort((a, b) => a.d - b.d || b.heads - a.heads);
  const [best, next] = candidates;
  if (!best) return undefined;
  return next && next.d === best.d && next.heads === best.heads ? undefined : best.w;
}

/** Corrects misspelt role words where roles are named: the opening words and after hiring words. */
function correctRoleWords(text: string, tokens: Token[]): void {
  tokens.forEach((t, i) => {
    const expanded = WORD_ABBREVIATIONS[t.lower];
    if (expanded) {
      t.lower = expanded;
      return;
    }
    if (i >= 30 && lastCueEnd(HIRING_CUES, text.slice(Math.max(0, t.start - 40), t.start)) < 0) return;
    const fixed = correction(t.lower);
    if (fixed) {
      t.lower = fixed;
      t.corrected = true;
    }
  });
}

// ---- role mentions ----

export interface RoleMention {
  start: number;
  end: number;
  written: string;
  /** The mention's words as read: lower case, short forms expanded, misspellings corrected. */
  words: string;
  /** Candidate readings (one per family the phrase can belong to). */
  phrases: RolePhrase[];
  /** Levels stated next to the mention or carried by the phrase. */
  levels: Seniority[];
  weight: number;
  /** How the mention was recognised. */
  via: 'exact' | 'department' | 'similar';
  /** For `similar`: the cosine, 0–1. */
  similarity?: number;
  /** Read through a corrected misspelling. */
  corrected?: boolean;
}

/** Level words written right before token i (a run such as "senior/staff" gives both). */
function levelsBefore(text: string, tokens: Token[], i: number): { levels: Seniority[]; from: number } {
  const { levelWords } = phraseTables();
  const levels: Seniority[] = [];
  let j = i;
  let from = tokens[i].start;
  while (j > 0 && i - j < 6) {
    let found: { level: Seniority; n: number } | undefined;
    for (let n = Math.min(3, j); n >= 1; n--) {
      const key = tokens
        .slice(j - n, j)
        .map((t) => t.lower)
        .join(' ');
      const level = levelWords.get(key);
      if (level) {
        found = { level, n };
        break;
      }
    }
    const gap = text.slice(tokens[j - 1].end, tokens[j].start);
    if (found) {
      if (!/^[\s/,.&-]*$/.test(gap)) break;
      const first = tokens[j - found.n];
      if (found.level === 'lead' && first.lower === 'lead' && VERB_BEFORE_LEAD.test(text.slice(Math.max(0, first.start - 12), first.start))) break;
      if (!levels.includes(found.level)) levels.push(found.level);
      j -= found.n;
      from = first.start;
      continue;
    }
    // "senior or staff", "senior and lead": a joining word between two level words.
    if (levels.length > 0 && ['or', 'and'].includes(tokens[j - 1].lower)) {
      j -= 1;
      continue;
    }
    break;
  }
  return { levels, from };
}

/** A level word right after the mention: "QA lead", "Data Analyst Intern", "Software Engineer II". */
function levelAfter(text: string, tokens: Token[], k: number): Seniority | undefined {
  const next = tokens[k];
  if (!next) return undefined;
  const gap = text.slice(tokens[k - 1]?.end ?? next.start, next.start);
  if (/^\s+$/.test(gap)) {
    if (next.lower === 'lead' || next.lower === 'leads') return 'lead';
    if (next.lower === 'intern' || next.lower === 'interns' || next.lower === 'internship') return 'intern';
    if (next.lower === 'manager' || next.lower === 'managers') return 'manager';
    if (next.lower === 'director') return 'director';
    if (next.text === 'II') return 'mid';
    if (next.text === 'III') return 'senior';
  }
  // "Graphic Designer, junior", "Data Analyst (Senior)"; not "Manager — Mid-Market".
  if (/^\s*[,(–—-]\s*$/.test(gap) && !/^[-/]\p{L}/u.test(text.slice(next.end, next.end + 2))) return phraseTables().levelWords.get(next.lower);
  return undefined;
}

/** Exact mentions of known role phrases, longest first from each word, never overlapping. */
function exactMentions(text: string, tokens: Token[], firstLineEnd: number): RoleMention[] {
  const { byWords, byExact } = phraseTables();
  const out: RoleMention[] = [];
  for (let i = 0; i < tokens.length;) {
    let hit: { n: number; phrases: RolePhrase[] } | undefined;
    for (let n = Math.min(MAX_PHRASE_WORDS, tokens.length - i); n >= 1 && !hit; n--) {
      const window = tokens.slice(i, i + n);
      // Words of one phrase sit next to each other ("front-end developer", not "front. End").
      if (window.some((t, x) => x > 0 && !/^[\s\-/&.']{1,3}$/.test(text.slice(window[x - 1].end, t.start)))) continue;
      const lower = window.map((t) => t.lower);
      const written = window.map((t) => t.text);
      const lastLower = singular(written[n - 1])?.toLowerCase();
      const lastWritten = singular(written[n - 1]);
      const found =
        byWords.get(lower.join(' ')) ??
        (lastLower ? byWords.get([...lower.slice(0, -1), lastLower].join(' ')) : undefined) ??
        byExact.get(written.join(' ')) ??
        (lastWritten ? byExact.get([...written.slice(0, -1), lastWritten].join(' ')) : undefined);
      // A two-letter abbreviation only O*NET knows is a state, a degree or a word as often as a role
      // ("Boston, MA", "MA in economics"): it counts only opening the brief ("EA to the CEO", "PA to the MD").
      const twoLetters = found?.every((p) => p.exact && p.occupations && p.phrase.replace(/[^A-Za-z]/g, '').length <= 2);
      if (found && !(twoLetters && i > 0)) hit = { n, phrases: found };
    }
    if (!hit) {
      i += 1;
      continue;
    }
    const first = tokens[i];
    const last = tokens[i + hit.n - 1];
    const before = levelsBefore(text, tokens, i);
    const after = levelAfter(text, tokens, i + hit.n);
    const levels = [...before.levels, ...(after && !before.levels.includes(after) ? [after] : [])];
    // A phrase that carries its own level ("Engineering Manager") keeps it.
    const carried = hit.phrases.find((p) => p.seniority)?.seniority;
    if (carried && !levels.includes(carried)) levels.push(carried);
    const window = tokens.slice(i, i + hit.n);
    const corrected = window.some((t) => t.corrected);
    // "developer" or "engineer" alone says little ("developer tools", "our engineers"); one word
    // only O*NET knows as a title ("models", "closers", "hospital") names a role only where roles are named.
    const generic = hit.n === 1 && GENERIC_WORDS.has(first.lower) ? 0.6 : 1;
    const named = rolePosition(text, tokens, i, hit.n, out.length > 0);
    const outsideWord = hit.n === 1 && hit.phrases.every((p) => p.family === NO_FAMILY) && !named ? 0.25 : 1;
    // An abbreviation only O*NET knows is often a certificate or a system ("CREST CRT/CCT", "(MLS ASCP)").
    const vocabularyAbbreviation = !hit.phrases.every((p) => p.exact && p.occupations)
      ? 1
      : insideParentheses(text, first.start)
        ? 0.2
        : named
          ? 1
          : 0.5;
    out.push({
      start: before.from,
      end: last.end,
      written: text.slice(first.start, last.end),
      words: window.map((t) => t.lower).join(' '),
      phrases: hit.phrases,
      levels,
      weight: contextWeight(text, before.from, last.end, firstLineEnd) * generic * outsideWord * vocabularyAbbreviation * (corrected ? 0.85 : 1),
      via: 'exact',
      ...(corrected ? { corrected } : {}),
    });
    i += hit.n + (after ? 1 : 0);
  }
  return out;
}

/** Level heads of "<head> <department>" ("Head of Engineering", "VP Eng", "Director, Sales"). */
const DEPARTMENT_HEADS: { words: string[]; level: Seniority }[] = [
  { words: ['head', 'of'], level: 'director' },
  { words: ['director', 'of'], level: 'director' },
  { words: ['director'], level: 'director' },
  { words: ['senior', 'director', 'of'], level: 'director' },
  { words: ['vp', 'of'], level: 'vp' },
  { words: ['vp'], level: 'vp' },
  { words: ['svp'], level: 'vp' },
  { words: ['evp'], level: 'vp' },
  { words: ['vice', 'president', 'of'], level: 'vp' },
  { words: ['vice', 'president'], level: 'vp' },
  { words: ['chief'], level: 'cxo' },
  // "Manager, Customer Success", "Mgr, Customer Support" (mgr is read as manager).
  { words: ['manager', 'of'], level: 'manager' },
  { words: ['manager'], level: 'manager' },
];
/**
 * Words after a department that make it a role of the family: level words ("Engineering Manager",
 * "Sales Director", "Marketing Lead") and role nouns with no level ("Marketing Officer", "Customer
 * Service Adviser", "Mechanical Engineering Consultant", "HVAC Engineer").
 */
const DEPARTMENT_TAILS: Record<string, Seniority | undefined> = {
  manager: 'manager',
  director: 'director',
  lead: 'lead',
  head: 'director',
  leader: 'lead',
  vp: 'vp',
  supervisor: 'manager',
  officer: undefined,
  adviser: undefined,
  advisor: undefined,
  consultant: undefined,
  specialist: undefined,
  coordinator: undefined,
  assistant: undefined,
  executive: undefined,
  administrator: undefined,
  engineer: undefined,
  designer: undefined,
  analyst: undefined,
};
/** Words that may stand between a department and its tail ("Audit Team Leader", "HVAC Systems Engineer"). */
const TAIL_FILLERS = new Set(['team', 'systems', 'system', 'project', 'design', 'test', 'support', 'services', 'service']);

function departmentMentions(text: string, tokens: Token[], firstLineEnd: number, taken: (start: number, end: number) => boolean): RoleMention[] {
  const { areas, exactAreas } = phraseTables();
  const out: RoleMention[] = [];
  const areaAt = (i: number): { n: number; families: string[] } | undefined => {
    for (let n = Math.min(4, tokens.length - i); n >= 1; n--) {
      const window = tokens.slice(i, i + n);
      const families = areas.get(window.map((t) => t.lower).join(' '));
      // "IT manager", not "make it manager".
      if (families && (n > 1 || !exactAreas.has(window[0].lower.toUpperCase()) || window[0].text === window[0].lower.toUpperCase())) return { n, families };
    }
    return undefined;
  };
  const push = (from: Token, to: Token, families: string[], level: Seniority | undefined) => {
    if (taken(from.start, to.end)) return;
    const phrases = families.map((family): RolePhrase => ({
      phrase: text.slice(from.start, to.end),
      family,
      ...(level ? { seniority: level } : {}),
      source: 'level-title',
      exact: false,
    }));
    out.push({
      start: from.start,
      end: to.end,
      written: text.slice(from.start, to.end),
      words: tokens
        .filter((t) => t.start >= from.start && t.end <= to.end)
        .map((t) => t.lower)
        .join(' '),
      phrases,
      levels: level ? [level] : [],
      weight: contextWeight(text, from.start, to.end, firstLineEnd),
      via: 'department',
    });
  };
  for (let i = 0; i < tokens.length; i++) {
    for (const head of DEPARTMENT_HEADS) {
      const n = head.words.length;
      if (
        tokens
          .slice(i, i + n)
          .map((t) => t.lower)
          .join(' ') !== head.words.join(' ')
      )
        continue;
      const area = areaAt(i + n);
      if (area) push(tokens[i], tokens[i + n + area.n - 1], area.families, head.level);
      break;
    }
    const area = areaAt(i);
    if (area) {
      // "<area> manager", "<area> team leader", "<area> officer", "HVAC systems engineer".
      let k = i + area.n;
      while (k < tokens.length && k < i + area.n + 2 && TAIL_FILLERS.has(tokens[k].lower)) k++;
      const tail = tokens[k];
      if (tail && tail.lower in DEPARTMENT_TAILS) push(tokens[i], tail, area.families, DEPARTMENT_TAILS[tail.lower]);
      else if (k > i + area.n && TAIL_FILLERS.has(tokens[k - 1].lower) && tokens[k - 1].lower in DEPARTMENT_TAILS)
        push(tokens[i], tokens[k - 1], area.families, DEPARTMENT_TAILS[tokens[k - 1].lower]);
    }
  }
  return out;
}

/** Token positions the similarity fallback starts spans at, at most (24 opening words and 40 after hiring words). */
const MAX_SIMILAR_STARTS = 64;
/** An O*NET title counts as a likeness from this cosine (its 50,000 titles hold many near misses). */
const OCCUPATION_SIMILARITY = 0.7;
/** Spans compared with the whole O*NET vocabulary (a few milliseconds each), at most. */
const MAX_OCCUPATION_QUERIES = 24;

const STOP_SPAN_WORDS = new Set(
  'a an the and or in at for of to with we our you your is are be will who this that as on by from remote hybrid based office onsite role job position team hiring looking seeking need needed want wanted join years year experience plus asap urgently please person persons someone somebody people individual candidate candidates hire talent guy profile'.split(
    ' ',
  ),
);

/**
 * Role words that match nothing exactly: spans of the opening words and of the words after a
 * hiring phrase, compared with every known phrase by trigram similarity; the best span per
 * opening counts when similar enough.
 */
/** Dice overlap of two words' letter pairs: "enginer" and "engineer" agree, "build" and "engineer" do not. */
function wordsAgree(a: string, b: string): boolean {
  const pairs = (w: string) => new Set(Array.from({ length: Math.max(0, w.length - 1) }, (_, i) => w.slice(i, i + 2)));
  const x = pairs(a);
  const y = pairs(b);
  let common = 0;
  for (const p of x) if (y.has(p)) common += 1;
  return x.size + y.size > 0 && (2 * common) / (x.size + y.size) >= 0.6;
}

/** Whether a word agrees with a phrase's head (last) word. */
const headAgrees = (word: string, phrase: string) => wordsAgree(word, phrase.split(' ').at(-1) ?? '');

function similarMentions(
  text: string,
  tokens: Token[],
  firstLineEnd: number,
  threshold: number,
  taken: (start: number, end: number) => boolean,
): RoleMention[] {
  // Where a role may be named: the opening words and the words after a hiring phrase, a bounded
  // number of them (a brief names its role early; "find … find … find …" must not make every word a start).
  const starts: number[] = [];
  for (let i = 0; i < tokens.length && starts.length < MAX_SIMILAR_STARTS; i++) {
    if (i < 24 || lastCueEnd(HIRING_CUES, text.slice(Math.max(0, tokens[i].start - 30), tokens[i].start)) >= 0) starts.push(i);
  }
  const { levelWords } = phraseTables();
  const found: RoleMention[] = [];
  // The same words are looked up once ("find ing ion" repeated is one lookup).
  const nearest = new Map<string, ReturnType<typeof similarRolePhrases>>();
  let occupationQueries = 0;
  for (const i of starts) {
    for (let n = 1; n <= 4 && i + n <= tokens.length; n++) {
      const span = tokens.slice(i, i + n);
      const first = span[0];
      const last = span[n - 1];
      if (STOP_SPAN_WORDS.has(first.lower) || STOP_SPAN_WORDS.has(last.lower) || levelWords.has(first.lower) || levelWords.has(last.lower)) continue;
      if (span.some((t, x) => x > 0 && !/^[\s\-/&']{1,3}$/.test(text.slice(span[x - 1].end, t.start)))) continue;
      if (taken(first.start, last.end)) continue;
      const written = text.slice(first.start, last.end);
      // A skill is no misspelt role ("Statistics" is not a "Statistician").
      if (written.length < 4 || canonicalSkill(written)) continue;
      // The span must end in the phrase's head word, or near it: "backend enginer" is a
      // "backend engineer", "can build" is no "build engineer", "summer" no "summer associate".
      const key = written.toLowerCase();
      if (!nearest.has(key)) {
        // The curated phrases and, for a bounded number of spans, the whole O*NET vocabulary.
        const curated = similarRolePhrases(written, 5);
        const onet =
          ROLE_NOUN.test(last.lower) && occupationQueries++ < MAX_OCCUPATION_QUERIES
            ? occupationVocabulary()
                .similar(written, 5)
                .filter((o) => !o.phrase.exact && o.similarity >= OCCUPATION_SIMILARITY)
                .map((o) => ({ key: o.key, similarity: o.similarity, phrases: [vocabularyPhrase(o.phrase)] }))
            : [];
        nearest.set(
          key,
          [...curated, ...onet].sort((a, b) => b.similarity - a.similarity),
        );
      }
      const best = nearest
        .get(key)!
        .find(
          (c) =>
            c.similarity >= threshold &&
            c.key.split(' ').length <= n &&
            !GENERIC_WORDS.has(c.key) &&
            headAgrees(last.lower, c.key) &&
            // "forestry adviser" is no "HR adviser": a two-word likeness agrees in its first word too.
            (n === 1 || !c.key.includes(' ') || wordsAgree(first.lower, c.key.split(' ')[0])),
        );
      if (!best) continue;
      const before = levelsBefore(text, tokens, i);
      found.push({
        start: before.from,
        end: last.end,
        written,
        words: span.map((t) => t.lower).join(' '),
        phrases: best.phrases,
        levels: [...before.levels, ...best.phrases.flatMap((p) => (p.seniority ? [p.seniority] : [])).slice(0, 1)],
        weight: contextWeight(text, before.from, last.end, firstLineEnd) * best.similarity,
        via: 'similar',
        similarity: best.similarity,
      });
    }
  }
  // Overlapping spans: keep the most similar.
  found.sort((a, b) => b.similarity! - a.similarity! || a.start - b.start);
  const kept: RoleMention[] = [];
  const keptSpans = new SpanClaims(text.length);
  for (const m of found) {
    if (keptSpans.overlaps(m.start, m.end)) continue;
    keptSpans.claim(m.start, m.end);
    kept.push(m);
  }
  return kept;
}

/** The opening words of a brief up to its first break ("Director of Pharmacy" of "Director of Pharmacy for a 300-bed hospital"). */
const OPENING = /^[^,;:()\n—–|.!?]*?(?=\s+(?:for|in|at|with|to|near|needed|wanted|-)\b|[,;:()\n—–|.!?]|$)/i;
/** The loosest likeness the last resort takes. */
const LAST_RESORT_SIMILARITY = 0.5;

function openingMention(text: string, tokens: Token[], firstLineEnd: number): RoleMention | undefined {
  const written = OPENING.exec(text)?.[0].trim() ?? '';
  // Only words that name someone ("Director of Pharmacy"), not "Looking for great people".
  if (written.length < 3 || written.split(/\s+/).length > 6 || !words(written).some((w) => ROLE_NOUN.test(w))) return undefined;
  const best = occupationVocabulary()
    .similar(written, 1)
    .find((o) => !o.phrase.exact && o.similarity >= LAST_RESORT_SIMILARITY);
  if (!best) return undefined;
  const start = text.indexOf(written);
  const i = tokens.findIndex((t) => t.start >= start);
  const before = i >= 0 ? levelsBefore(text, tokens, i) : { levels: [], from: start };
  return {
    start,
    end: start + written.length,
    written,
    words: words(written).join(' '),
    phrases: [vocabularyPhrase(best.phrase)],
    levels: before.levels,
    weight: contextWeight(text, start, start + written.length, firstLineEnd) * best.similarity,
    via: 'similar',
    similarity: best.similarity,
  };
}

// ---- skills as evidence ----

/** Skill evidence (summed rarity) enough to name a family when no role is named: two or three telling skills. */
const SKILLS_ALONE = 2.5;

/** How telling each skill is of a family: the rarer it is among families, the more. */
const SKILL_FAMILIES: Map<string, string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const f of ROLE_FAMILIES) for (const s of f.skills) out.set(s.toLowerCase(), [...(out.get(s.toLowerCase()) ?? []), f.id]);
  return out;
})();

function skillEvidence(skills: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of skills) {
    const families = SKILL_FAMILIES.get(s.toLowerCase()) ?? [];
    const idf = Math.log(ROLE_FAMILIES.length / Math.max(1, families.length));
    for (const f of families) out.set(f, (out.get(f) ?? 0) + idf);
  }
  return out;
}

// ---- the reading ----

export interface RoleReadingResult {
  family?: { id: string; confidence: number };
  /** O*NET-SOC codes of the role, most likely first (a role outside the families has only these). */
  occupations?: { codes: string[]; confidence: number };
  titles?: { titles: string[]; confidence: number };
  seniority?: { levels: Seniority[]; confidence: number };
  /** Text spans of the role mentions, so skills and industries are not read inside them. */
  spans: { start: number; end: number }[];
  /** Every role mention found and its weight (what the family vote saw), for explanations. */
  mentions: RoleMention[];
  /** The family vote, best first. */
  votes: [string, number][];
}

/** Whether only the O*NET vocabulary knows a mention's phrase (no curated reading of it). */
const fromVocabularyOnly = (m: RoleMention) => m.phrases.every((p) => p.occupations !== undefined);

/** Phrase of a mention that belongs to `family`, if any. */
const phraseFor = (m: RoleMention, family: string) => m.phrases.find((p) => p.family === family);

/** A base title of the family for a phrase without one (an O*NET title): the most similar, if close. */
function nearestBaseTitle(phrase: string, family: string): string | undefined {
  const f = findFamily(family);
  if (!f) return undefined;
  let best: { title: string; s: number } | undefined;
  for (const t of f.titles) {
    const s = titleSimilarity(phrase, t);
    if (!best || s > best.s) best = { title: t, s };
  }
  return best && best.s >= 0.5 ? best.title : undefined;
}

const MANAGER_LEVELS: readonly Seniority[] = ['manager', 'director', 'vp', 'cxo'];

/**
 * The title the corpus writes for a manager-and-up role of the family: the level title whose
 * department words best cover the mention's ("support team manager" → Customer Support Manager,
 * "VP Eng" → VP of Engineering); none when no department word is shared and the mention has some.
 */
function nearestLevelTitle(mentionWords: string, family: string, level: Seniority): string | undefined {
  const candidates = ROLE_PHRASES.filter((p) => p.family === family && p.source === 'level-title' && p.seniority === level);
  const wanted = departmentWords(mentionWords);
  if (wanted === '' || candidates.length === 0) return candidates[0]?.phrase;
  let best: { phrase: string; s: number } | undefined;
  for (const c of candidates) {
    const s = titleSimilarity(departmentWords(c.phrase), wanted);
    if (!best || s > best.s) best = { phrase: c.phrase, s };
  }
  return best && best.s > 0 ? best.phrase : undefined;
}

/** The family's base title a department names, when exactly one has its words ("procurement lead" → Procurement Specialist). */
function baseTitleOfDepartment(mentionWords: string, family: string): string | undefined {
  const wanted = departmentWords(mentionWords)
    .split(' ')
    .filter((w) => !phraseTables().levelWords.has(w))
    .join(' ');
  const f = findFamily(family);
  if (!f || wanted === '') return undefined;
  const full = f.titles.filter((t) => titleSimilarity(t, wanted) >= 0.8);
  return full.length === 1 ? full[0] : undefined;
}

/** The title a mention names in the family, as the corpus writes titles. */
function titleOfMention(m: RoleMention, family: string): string | undefined {
  const p = phraseFor(m, family)!;
  // A manager-and-up role has its own titles ("Design Manager", not the designers' base title).
  const level = m.levels.find((l) => MANAGER_LEVELS.includes(l));
  if (level) return nearestLevelTitle(m.via === 'department' ? p.phrase : m.words, family, level);
  if (p.title) return p.title;
  if (p.source === 'onet') return nearestBaseTitle(p.phrase, family);
  if (m.via === 'department') return baseTitleOfDepartment(m.words, family);
  return undefined;
}

/** Levels a range of years can imply (the manager-and-up levels are roles, not years). */
const YEARS_LEVELS: readonly Seniority[] = ['junior', 'mid', 'senior'];

/** Level phrases that state a level without a title ("entry-level", "senior-level", "internship"). */
const LEVEL_PHRASES: { re: RegExp; level: Seniority }[] = [
  { re: /\b(?:internship|intern position|co-?op (?:role|position|student))\b/i, level: 'intern' },
  {
    re: /\b(?:entry[\s-]level|early[\s-]career|new[\s-]grad(?:uate)?s?|graduate (?:role|position|programme|program|scheme)|recent grad(?:uate)?s?)\b/i,
    level: 'junior',
  },
  { re: /\bmid[\s-](?:level|senior|weight)\b/i, level: 'mid' },
  { re: /\bsenior[\s-]level\b/i, level: 'senior' },
  { re: /\b(?:staff|principal)[\s-]level\b/i, level: 'lead' },
];

/**
 * The role of a brief. `readSkills` reads the brief's skills outside the role mentions found
 * (title words are no skills: "Data Analyst" is no "Data Analysis"); they are evidence too.
 */
/** Levels stated apart from any title: "entry-level", "level: mid to senior", "senior or staff level". */
function statedLevels(text: string): Seniority[] {
  const out = new Set<Seniority>();
  for (const p of LEVEL_PHRASES) if (p.re.test(text)) out.add(p.level);
  const { levelWords } = phraseTables();
  const words = '(junior|jr|mid|senior|sr|staff|lead|principal|entry)';
  for (const m of text.matchAll(new RegExp(`\\b${words}(?:[\\s-]?level)?\\s*(?:to|or|/|-|–)\\s*${words}(?:[\\s-]?level)?\\b`, 'gi'))) {
    for (const w of [m[1], m[2]]) {
      const level = levelWords.get(w.toLowerCase()) ?? (w.toLowerCase() === 'entry' ? 'junior' : undefined);
      if (level) out.add(level);
    }
  }
  const stated = /\b(?:level|seniority)(?:[\s-]?wise)?\s*[:\-–]\s*([^.\n;,]{1,30})/i.exec(text);
  for (const w of stated ? stated[1].toLowerCase().split(/[^a-z]+/) : []) {
    const level = levelWords.get(w);
    if (level) out.add(level);
  }
  return [...out];
}

export function readRole(
  text: string,
  readSkills: (roleSpans: { start: number; end: number }[]) => readonly string[],
  years?: { min: number; max?: number },
): RoleReadingResult {
  const tokens = tokenize(text);
  correctRoleWords(text, tokens);
  const newline = text.search(/\n|(?<=[.!?])\s/);
  const firstLineEnd = newline < 0 ? text.length : Math.max(newline, 1);
  const allExact = exactMentions(text, tokens, firstLineEnd);
  // A curated phrase is read before a department's words; a department's words before a title
  // only the O*NET vocabulary knows ("Customer Service Manager" is customer success, not O*NET's
  // office supervisors).
  const curated = new SpanClaims(text.length);
  for (const m of allExact) if (!fromVocabularyOnly(m)) curated.claim(m.start, m.end);
  const department = departmentMentions(text, tokens, firstLineEnd, (s, e) => curated.overlaps(s, e));
  // Only a department's manager-and-up or lead roles outrank O*NET ("security officer" stays a guard).
  const byDepartment = new SpanClaims(text.length);
  for (const m of department) if (m.levels.length) byDepartment.claim(m.start, m.end);
  const exact = allExact.filter((m) => !fromVocabularyOnly(m) || !byDepartment.overlaps(m.start, m.end));
  const byExact = new SpanClaims(text.length);
  for (const m of exact) byExact.claim(m.start, m.end);
  const known = [...exact, ...department.filter((m) => m.levels.length || !byExact.overlaps(m.start, m.end))];
  const byKnown = new SpanClaims(text.length);
  for (const m of known) byKnown.claim(m.start, m.end);
  // Guess at unknown role words only when no role is named outright.
  const similar = known.some((m) => m.weight >= 1) ? [] : similarMentions(text, tokens, firstLineEnd, 0.6, (s, e) => byKnown.overlaps(s, e));
  const mentions = [...known, ...similar].sort((a, b) => a.start - b.start);
  const spans = mentions.map((m) => ({ start: m.start, end: m.end }));
  const skills = readSkills(spans);
  // Last resort before a brief is refused for naming nothing known: a looser likeness (its head
  // word still agreeing), read with the low confidence its cosine gives.
  if (mentions.length === 0 && Math.max(0, ...skillEvidence(skills).values()) < SKILLS_ALONE) {
    mentions.push(...similarMentions(text, tokens, firstLineEnd, 0.45, () => false));
  }
  // Never refused for want of a known title: the opening words' nearest O*NET title, however loose
  // ("Director of Pharmacy" is near "Manager of Pharmacy"), read with the low confidence its cosine gives.
  if (mentions.length === 0 && Math.max(0, ...skillEvidence(skills).values()) < SKILLS_ALONE) {
    const opening = openingMention(text, tokens, firstLineEnd);
    if (opening) mentions.push(opening);
  }
  // The first role named outright is usually the one asked for ("PMM for developer tools").
  const opening = mentions.find((m) => m.weight >= 1);
  if (opening) opening.weight *= 1.25;

  // Family: the weight of its mentions (an ambiguous phrase counts for each family at a discount),
  // then the skills' evidence.
  const votes = new Map<string, number>();
  for (const m of mentions) {
    const families = [...new Set(m.phrases.map((p) => p.family))];
    const share = families.length > 1 ? 0.6 : 1;
    for (const f of families) votes.set(f, (votes.get(f) ?? 0) + m.weight * share);
  }
  const bySkills = skillEvidence(skills);
  // Skills weigh less once a family's role is named; an outside occupation named does not lessen them.
  const skillScale = mentions.some((m) => m.phrases.some((p) => p.family !== NO_FAMILY)) ? 0.08 : 0.25;
  for (const [f, e] of bySkills) votes.set(f, (votes.get(f) ?? 0) + e * skillScale);
  const order = new Map(ROLE_FAMILIES.map((f, i) => [f.id, i]));
  const ranked = [...votes].sort((a, b) => b[1] - a[1] || (order.get(a[0]) ?? 0) - (order.get(b[0]) ?? 0));
  const top = ranked[0];
  if (!top) return { spans, mentions, votes: ranked };
  const [family, points] = top;
  if (family === NO_FAMILY) return outsideReading(text, mentions, { spans, mentions, votes: ranked }, years);
  const ofFamily = mentions.filter((m) => phraseFor(m, family));
  const runnerUp = ranked[1]?.[1] ?? 0;

  let confidence: number;
  if (ofFamily.some((m) => m.via !== 'similar' && !m.corrected && m.phrases.some((p) => p.family === family && p.source !== 'onet'))) confidence = 0.9;
  else if (ofFamily.some((m) => m.via !== 'similar')) confidence = 0.8;
  else if (ofFamily.length > 0) confidence = Math.min(0.8, 0.2 + Math.max(...ofFamily.map((m) => m.similarity ?? 0)) * 0.7);
  else {
    // Skills alone: a few telling ones (Altium, Swift + Xcode) say enough; one common skill does not.
    if ((bySkills.get(family) ?? 0) < SKILLS_ALONE) return { spans, mentions, votes: ranked };
    confidence = 0.6;
  }
  if (runnerUp >= points) confidence -= 0.2;
  else if (runnerUp * 2 > points) confidence -= 0.1;
  const result: RoleReadingResult = { family: { id: family, confidence: round2(confidence) }, spans, mentions, votes: ranked };

  // Titles: the family's base titles the mentions name, strongest first.
  const strongest = ofFamily.length ? Math.max(...ofFamily.map((m) => m.weight)) : 0;
  const titled = ofFamily
    .map((m) => ({ m, title: titleOfMention(m, family) }))
    .filter((x): x is { m: RoleMention; title: string } => x.title !== undefined && x.m.weight >= strongest * 0.4)
    .sort((a, b) => b.m.weight - a.m.weight || a.m.start - b.m.start);
  const titles: string[] = [];
  for (const t of titled) if (!titles.includes(t.title)) titles.push(t.title);
  if (titles.length === 0 && ofFamily.length === 0) {
    // Skills alone: a skill that points to one title of the family ("Swift" → Mobile Engineer).
    const hinted = new Map<string, number>();
    for (const h of skills.flatMap((s) => SKILL_TITLE_HINTS.get(s.toLowerCase()) ?? []))
      if (h.family === family) hinted.set(h.title, (hinted.get(h.title) ?? 0) + 1);
    const [mostHinted] = [...hinted].sort((a, b) => b[1] - a[1]);
    if (mostHinted) titles.push(mostHinted[0]);
  }
  if (titles.length > 0) {
    const sure = titled.some((t) => t.m.via === 'exact' && !t.m.corrected && phraseFor(t.m, family)!.source !== 'onet');
    result.titles = { titles: titles.slice(0, MAX_EXTRACTED_TITLES), confidence: sure ? 0.9 : titled.length ? 0.75 : 0.6 };
  }
  // Occupations: those of the base titles read (the reviewed table the corpus also uses), else
  // those the mentions' O*NET titles name.
  const codes = new Set(titles.map((t) => familyTitleOccupation(family, t)).filter((c): c is string => !!c));
  if (codes.size === 0) for (const code of codeVotes(ofFamily, family)) codes.add(code);
  if (codes.size > 0) result.occupations = { codes: [...codes].slice(0, MAX_OCCUPATIONS), confidence: Math.min(confidence, result.titles?.confidence ?? 0.7) };

  const leading = ofFamily.filter((m) => m.weight >= strongest * 0.75);
  const seniority = readSeniority(text, leading, years);
  if (seniority) result.seniority = seniority;
  return result;
}

/** The O*NET-SOC codes the mentions' phrases of a family (or NO_FAMILY) name, most weight first: those within half the best. */
function codeVotes(mentions: readonly RoleMention[], family: string): string[] {
  const votes = new Map<string, number>();
  for (const m of mentions) for (const c of phraseFor(m, family)?.occupations ?? []) votes.set(c.code, (votes.get(c.code) ?? 0) + m.weight * c.weight);
  // A stable sort: equal votes keep the phrases' order (likeliest, then most employed, first).
  const ranked = [...votes].sort((a, b) => b[1] - a[1]);
  return ranked.filter(([, v]) => v >= ranked[0][1] * 0.5).map(([code]) => code);
}

/** An abbreviation's words from the occupation's O*NET titles ("LPN" → "Licensed Practical Nurse"), or undefined. */
function expansionOf(abbreviation: string, code: string): string | undefined {
  const letters = abbreviation.replace(/[^A-Za-z]/g, '').toLowerCase();
  return occupations()
    .titles()
    .find(
      (t) =>
        t.code === code &&
        !/[()]/.test(t.title) &&
        words(t.title)
          .map((w) => w[0])
          .join('') === letters,
    )?.title;
}

/** A title as the search should look for it: as written without its level words, in title case; an abbreviation spelt out. */
function titleAsWritten(m: RoleMention, code: string | undefined): string {
  const p = phraseFor(m, NO_FAMILY)!;
  if (p.exact && code) return expansionOf(m.written, code) ?? m.written;
  const cleaned = m.written.replace(/\s+/g, ' ').trim();
  return cleaned === cleaned.toLowerCase() ? cleaned.replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase()) : cleaned;
}

/**
 * A role outside every family ("head chef", "pharmacist", "CDL-A truck driver"): its occupations by
 * the weight of the mentions naming them, its titles as written, its levels. No family: the words
 * that name it are no evidence for one.
 */
function outsideReading(
  text: string,
  mentions: readonly RoleMention[],
  base: Pick<RoleReadingResult, 'spans' | 'mentions' | 'votes'>,
  years: { min: number; max?: number } | undefined,
): RoleReadingResult {
  const outside = mentions.filter((m) => phraseFor(m, NO_FAMILY));
  const strongest = Math.max(...outside.map((m) => m.weight));
  const leading = outside.filter((m) => m.weight >= strongest * 0.75).sort((a, b) => b.weight - a.weight || a.start - b.start);
  // The occupations of the strongest mention ("lead carpenter", not also "home builder" further on).
  const codes = codeVotes(leading.slice(0, 1), NO_FAMILY).slice(0, MAX_OCCUPATIONS);
  const sure = leading.some((m) => m.via === 'exact' && !m.corrected);
  const similarity = Math.max(0, ...leading.map((m) => m.similarity ?? 0));
  const confidence = sure ? 0.85 : round2(Math.min(0.8, 0.2 + similarity * 0.7));
  const titles: string[] = [];
  for (const m of leading.filter((x) => phraseFor(x, NO_FAMILY)!.occupations?.some((c) => codes.includes(c.code)))) {
    const title = titleAsWritten(m, codes[0]);
    if (!titles.some((t) => t.toLowerCase() === title.toLowerCase())) titles.push(title);
  }
  const result: RoleReadingResult = { ...base, occupations: { codes, confidence } };
  if (titles.length) result.titles = { titles: titles.slice(0, MAX_EXTRACTED_TITLES), confidence };
  const seniority = readSeniority(text, leading, years);
  if (seniority) result.seniority = seniority;
  return result;
}

/** The levels stated with the leading mentions; else a level phrase; else what a range of years implies. */
function readSeniority(text: string, leading: readonly RoleMention[], years: { min: number; max?: number } | undefined): RoleReadingResult['seniority'] {
  const levels = new Set(leading.flatMap((m) => m.levels));
  if (levels.size === 0) for (const l of statedLevels(text)) levels.add(l);
  let implied = false;
  if (levels.size === 0 && years?.max !== undefined) {
    // A range of years ("2–3 years", "4 to 6 yrs") bounds the level: the levels whose usual years
    // hold its middle.
    const middle = (years.min + years.max) / 2;
    for (const level of YEARS_LEVELS) if (SENIORITY_YEARS[level][0] <= middle && middle <= SENIORITY_YEARS[level][1]) levels.add(level);
    implied = true;
  }
  if (levels.size === 0 || levels.size > 3) return undefined;
  const sorted = SENIORITIES.filter((s) => levels.has(s));
  const fromMention = leading.some((m) => m.levels.length > 0);
  return { levels: sorted, confidence: implied ? 0.6 : fromMention ? (sorted.length === 1 ? 0.85 : 0.75) : 0.7 };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
