/**
 * The words of roles in a brief, for the role reader (roles.ts, role-mentions.ts): tokens, the
 * phrase tables (the curated role vocabulary, then the whole O*NET vocabulary), the cues around a
 * mention that say whether it is the role asked for, level words next to a title, and misspelt
 * role words.
 */
import wordAbbreviationData from '../reference/data/title-word-abbreviations.json';
import { SENIORITY_TITLE_WORDS } from '../reference/taxonomy';
import { BRIEF_SENIORITY_WORDS, FAMILY_AREAS, NO_FAMILY, ROLE_PHRASES, type RolePhrase } from '../reference/role-vocabulary';
import { occupationVocabulary, type OccupationPhrase } from '../reference/occupation-titles';
import { singularWord } from '../reference/occupations';
import type { Seniority } from '../domain/profile';
import { words } from '../ranking/title-match';
import { editDistance } from '../domain/edit-distance';

// ---- tokens with positions ----

export interface Token {
  /** As written. */
  text: string;
  /** Lower case, accents dropped; a misspelt role word corrected ("enginer" → "engineer"). */
  lower: string;
  /** Set when `lower` is a correction of what was written. */
  corrected?: boolean;
  start: number;
  end: number;
}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}+#]+/gu)) {
    const lower = words(m[0]).join('');
    if (lower !== '') out.push({ text: m[0], lower, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** "engineers" → "engineer", "SDRs" → "SDR"; undefined when the word is no plural. */
export function singular(word: string): string | undefined {
  if (/^[A-Z]{2,}s$/.test(word)) return word.slice(0, -1);
  if (/wives$/i.test(word)) return singularWord(word); // "midwives": the vocabulary's own rule
  if (word.length > 3 && /[^s]s$/i.test(word)) return word.slice(0, -1);
  return undefined;
}

// ---- phrase tables ----

export const MAX_PHRASE_WORDS = 7;
/** Single words too generic to name a role on their own, whatever list they come from. */
export const GENERIC_WORDS = new Set(
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
export function phraseTables(): Tables {
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
      // …except that the project's recruiter terms outrank titles the families took from O*NET's lists
      // ("heating engineer" is a UK heating technician, not O*NET's alternate title for mechanical engineers).
      const curatedOnlyFromOnet = p.recruiterTerm && map.get(key)?.every((c) => c.source === 'onet');
      if ((map.has(key) && !curatedOnlyFromOnet) || key.split(' ').length > MAX_PHRASE_WORDS || seniorityWords.has(key.toLowerCase())) continue;
      if (!p.exact && !key.includes(' ') && !p.recruiterTerm && (GENERIC_WORDS.has(key) || !ROLE_NOUN.test(key))) continue;
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
export function vocabularyPhrase(p: OccupationPhrase): RolePhrase {
  return { phrase: p.phrase, family: p.family ?? NO_FAMILY, source: 'onet', exact: p.exact, occupations: p.codes };
}

// ---- context ----

/** Words before a mention that make it the role asked for. */
export const HIRING_CUES =
  /\b(?:hiring|looking for|seeking|searching for|source|sourcing|find|finding|need|needs|needed|want|wants|wanted|recruit|recruiting|opening for|vacancy|position|role|title|join (?:us|our team|the team) as|as an?|as our|we(?:'re| are) (?:hiring|looking))\b/gi;
/** Words before a mention that make it someone else: a colleague, a manager, a customer. */
const COLLEAGUE_CUES =
  /\b(?:(?:lead|leads|leading|manage|manages|managing|oversee|oversees|overseeing|grow|coach|coaching)\s+(?:a\s+(?:team\s+)?of\s+)?(?:\d+|a team|two|three|four|five|six|seven|eight|nine|ten|several)|with|alongside|partner(?:ing|s)? with|report(?:s|ing)?\s+(?:\w+\s+)?(?:in)?to|collaborat\w* with|work(?:ing)? closely with|support(?:s|ing)?|manag(?:ed|es|ing) by|hired by|team of|mentor(?:s|ing)?|fellow|other|between)\b/gi;
/** A hiring word and an article or a head count, right before a role's name ("hiring a", "need 2"). */
export const RIGHT_AFTER_HIRING = /\b(?:hiring|looking for|seeking|need|needs|wanted|want|recruiting)\s+(?:an?\s+|\d+\s+|some\s+)?$/i;
/** …and how a chat asks for one ("any leads on a", "anyone know a", "the CISO wants a"). */
export const RIGHT_AFTER_CHAT_ASK = /\b(?:wants|leads on|anyone know|know)\s+(?:an?\s+|\d+\s+|some\s+)?$/i;
/** Verbs that make the level word after them no level ("to lead Backend Engineer hiring"). */
const VERB_BEFORE_LEAD = /\b(?:to|will|you'll|you will|help|helps|can|who|and)\s*$/i;

/**
 * A word that names a person by what they do ("carpenter", "pharmacist", "electrician", "chef",
 * "histotech"; not "biotech" or "fintech", which are industries):
 * one O*NET word outside the families counts only if it looks like one ("Class", "Hospital",
 * "models" and "trained" are O*NET titles or parts of them, and no roles in a brief).
 */
export const ROLE_NOUN =
  /(?:er|or|ist|ian|ant|(?<!m)ent|eer|ee|man|men|woman|person|smith|wright|chef|cook|nurse|aide|clerk|guard|nanny|nannies|vet|judge|tutor|maid|pilot|host|hostess|coach|poet|scout|porter|usher|lawyer|priest|monk|nun|barista|medic|doctor|dentist|surgeon|midwife|rabbi|imam|pastor|chaplain|sheriff|marshal|architect|mechanic|chauffeur|masseur|detective|critic|midwives|deckhand|stagehand|derrickhand|floorhand|mason|actuary|actuaries|paralegal|paraprofessional|secretary|attorney|vicar|bishop|deacon|concierge|orderlies|bailiff|jockey|umpire|acrobat|clown|doula|osteopath|naturopath|constable|valet|barback|busboy|caddie|bellhop|governess|shepherd|lumberjack|roustabout|roughneck|stevedore|boatswain|bosun|registrar|missionary|sexton|waitress|actress|ballerina|baritone|deejay|athlete|seamstress|jackaroo|chaperone|barkeep|waitstaff|(?<=^[a-z]{3,})(?<!(?:bio|fin|med|ed|prop|insur|reg|clean|agri|ag|legal|mar|ad|health|high|food|gov|climate|deep|retail|travel|auto|nano|info|wealth|fashion|pet|beauty|sport|space|green|geo|sales|fem|pro|hi))tech)s?$/;

/** Whether a position is inside parentheses on its line. */
export function insideParentheses(text: string, at: number): boolean {
  const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
  return line.lastIndexOf('(') > line.lastIndexOf(')');
}

/** After a role noun that ends its phrase: punctuation, the end, or a joining word ("Teacher (cover)", "chef for"), not "server administration". */
const ENDS_NOUN_PHRASE =
  /^(?:\s*$|\s*[^\s\p{L}\p{N}]|\s+(?:for|in|at|with|to|and|or|needed|wanted|required|position|role|job|opening|vacancy|from|on|near|based|who|wanted)\b)/iu;

/**
 * Where a role is named: right after a hiring word, or among the brief's first few words when it
 * ends its phrase and no role was named before it ("Year 4 Class Teacher — Bristol"; not "Senior
 * SRE: Linux server administration, Chef").
 */
export function rolePosition(text: string, tokens: Token[], i: number, n: number, earlierRole: boolean): boolean {
  const levels = levelsBefore(text, tokens, i);
  if (RIGHT_AFTER_HIRING.test(text.slice(Math.max(0, levels.from - 30), levels.from))) return true;
  if (earlierRole || !ENDS_NOUN_PHRASE.test(text.slice(tokens[i + n - 1].end, tokens[i + n - 1].end + 12))) return false;
  return tokens.findIndex((t) => t.start >= levels.from) <= 5 || text.length <= 60;
}

/** Where the last match of a cue ends in `before`, or -1. */
export function lastCueEnd(re: RegExp, before: string): number {
  let end = -1;
  for (const m of before.matchAll(re)) end = m.index + m[0].length;
  return end;
}

/**
 * How much a mention says about the role asked for: more in the opening line and after a hiring
 * word, much less after a colleague word; the nearer cue of the two decides.
 */
export function contextWeight(text: string, start: number, end: number, firstLineEnd: number): number {
  // The clause before the mention: up to 60 characters, not across a sentence or a line.
  const window = text.slice(Math.max(0, start - 60), start);
  const clause = window.slice(Math.max(0, window.search(/[.;!?\n][^.;!?\n]*$/) + 1));
  // A long description opens with the job title and then names many other roles (colleagues,
  // customers, the hiring manager); a one-liner is all role.
  const long = text.length >= 400;
  let w = start < firstLineEnd ? (long ? 3 : 1.6) : long ? 0.5 : start < 200 ? 1.2 : 1;
  const hiring = lastCueEnd(HIRING_CUES, clause);
  // A head count of a plural role is the company's staff ("a home-services company (1,200 field techs)").
  const headCount = /\(\s*\d[\d,.]*\+?\s*$/.test(clause) && /s$/i.test(text.slice(start, end)) ? clause.length : -1;
  const colleague = Math.max(lastCueEnd(COLLEAGUE_CUES, clause), headCount);
  // "we'll also want an ops manager", "we also need an AE", "before we hire the pentester": a second
  // role, after the one asked for.
  if (hiring > colleague) w *= /\b(?:also|(?:before|after|once) we)\b[^,()]*$/i.test(clause.slice(0, hiring)) ? 0.5 : 1.5;
  else if (colleague > hiring) w *= 0.3;
  // "not another accountant", "our CFO wants…", "(we place RNs, we don't need one)".
  if (
    /\b(?:not|no|nor|never)\s+(?:(?:hiring|looking\s+for|seeking|recruiting|need|needing|want|wanting)\s+)?(?:an?\s+|another\s+|the\s+|any\s+|more\s+)?$/i.test(
      clause,
    ) ||
    /\b(?:our|to the|from the|for the)\s+$/i.test(clause)
  )
    w *= 0.3;
  if (/^[^.;\n()]{0,30}?\b(?:don'?t|do not|doesn'?t|does not|not) need\b/i.test(text.slice(end, end + 60))) w *= 0.3;
  // The one who asks: "the CISO wants a cloud sec eng", "plant manager asked me to find…".
  if (/^\s+(?:wants|needs|asked|has asked|is asking|would like|is after)\b/i.test(text.slice(end, end + 20))) w *= 0.3;
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
    // word for almost anything: "trained" → "trainer"); a word of two titles or more is no
    // misspelling, nor a title of one word ("sparky"); one title's word may be (O*NET's reported titles
    // hold misspellings).
    const curatedWords = new Set([...curatedKeys, ...levelWords.keys(), ...areas.keys()].flatMap((k) => k.split(' ')));
    const titlesWith = new Map<string, number>();
    for (const k of byWords.keys()) for (const w of new Set(k.split(' '))) titlesWith.set(w, (titlesWith.get(w) ?? 0) + (k.includes(' ') ? 1 : 2));
    const known = new Set([...curatedWords, ...[...titlesWith].filter(([, n]) => n >= 2).map(([w]) => w)]);
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

/** Whether a word is a word of some role phrase, department or level ("parts", "lines", "sales"). */
export const isRoleWord = (word: string): boolean => roleWordIndex().known.has(word);

/**
 * The role word a misspelt word stands for ("prodcut" → "product", "recuiter" → "recruiter"):
 * the one known word within one edit (two from 8 letters), same first letter; none when the
 * word is known, short, or two known words are as close.
 */
function correction(word: string): string | undefined {
  const { known, byFirst, heads } = roleWordIndex();
  if (word.length < 6 || !/^[a-z]+$/.test(word) || known.has(word) || (word.endsWith('s') && known.has(word.slice(0, -1)))) return undefined;
  // Verb forms and adverbs are words, not misspelt roles ("trained" is no "trainer"), unless the
  // role word has the same ending ("acounting" is "accounting").
  const ending = /(?:ed|ing|ly)$/.exec(word)?.[0];
  const max = word.length >= 8 ? 2 : 1;
  // Nearest first; between equally near words, the one that ends more role phrases ("enginer" is
  // an "engineer", not an "engine"; "designr" a "designer", not a "design").
  const candidates = (byFirst.get(word[0]) ?? [])
    .filter((w) => ending === undefined || w.endsWith(ending))
    .map((w) => ({ w, d: editDistance(word, w, max), heads: heads.get(w) ?? 0 }))
    .filter((c) => c.d <= max)
    .sort((a, b) => a.d - b.d || b.heads - a.heads);
  // A word and its plural equally near are one word ("controll" is "control", not "controls").
  const [best, next] = candidates.filter((c) => !candidates.some((b) => b.d === c.d && b.w !== c.w && b.w === singularWord(c.w)));
  if (!best) return undefined;
  return next && next.d === best.d && next.heads === best.heads ? undefined : best.w;
}

/** Words after "eng" that make it a department ("eng lead", "eng directors"). */
const ENG_DEPARTMENT_AFTER = new Set([
  'lead',
  'leads',
  'leader',
  'leaders',
  'leadership',
  'manager',
  'managers',
  'director',
  'directors',
  'team',
  'teams',
  'org',
  'head',
  'hiring',
  'vp',
  'dept',
  'department',
  'side',
]);
/** Words right before "eng" that make it a department ("director eng", "bugs to eng", "our eng"). */
const ENG_DEPARTMENT_BEFORE = new Set(['director', 'in', 'to', 'with', 'our', 'the', 'for', 'and', 'from']);
/** Heads of a department up to three words before "eng" ("Head of Mech Eng", "VP Eng", "SVP Platform Eng"). */
const ENG_HEADS = new Set(['of', 'vp', 'svp', 'evp', 'head']);

/** Whether "eng" at token i is an engineer: a word of the field right before it, no department head or word around it. */
function engineerNotDepartment(tokens: Token[], i: number): boolean {
  const before = tokens[i - 1]?.lower;
  const after = tokens[i + 1]?.lower;
  return (
    before !== undefined &&
    !ENG_DEPARTMENT_BEFORE.has(before) &&
    !phraseTables().levelWords.has(before) &&
    !tokens.slice(Math.max(0, i - 3), i).some((t) => ENG_HEADS.has(t.lower)) &&
    (after === undefined || !ENG_DEPARTMENT_AFTER.has(after))
  );
}

/** Corrects misspelt role words where roles are named: the opening words and after hiring words. */
export function correctRoleWords(text: string, tokens: Token[]): void {
  tokens.forEach((t, i) => {
    // "an RF eng", "the analytics eng req": an engineer; "eng lead", "VP Eng", "head of eng": engineering.
    if (t.lower === 'eng' && engineerNotDepartment(tokens, i)) {
      t.lower = 'engineer';
      return;
    }
    const expanded = WORD_ABBREVIATIONS[t.lower];
    // A department written short keeps its words: "corp dev" is no developer.
    if (expanded && !(i > 0 && phraseTables().areas.has(`${tokens[i - 1].lower} ${t.lower}`))) {
      t.lower = expanded;
      return;
    }
    // British spellings of role words read as O*NET writes them ("paediatrician", "counsellor", "organiser").
    const american = americanSpelling(t.lower);
    if (american) {
      t.lower = american;
      return;
    }
    if (i >= 30 && lastCueEnd(HIRING_CUES, text.slice(Math.max(0, t.start - 40), t.start)) < 0) return;
    const fixed = correction(t.lower) ?? (i > 0 ? shortCorrection(tokens[i - 1].lower, t.lower) : undefined);
    if (fixed) {
      t.lower = fixed;
      t.corrected = true;
    }
  });
}

/** The American spelling of a British-spelt role word O*NET knows only that way, or undefined. */
function americanSpelling(word: string): string | undefined {
  if (word.length < 6 || !/^[a-z]+$/.test(word)) return undefined;
  const { known } = roleWordIndex();
  if (known.has(word)) return undefined;
  const variants = [
    word.replace(/ae/g, 'e'),
    word.replace(/oe/g, 'e'),
    word.replace(/is(e|er|ers|ation)$/, 'iz$1'),
    word.replace(/our(er|ist)?$/, 'or$1'),
    word.replace(/ll(or|ors|er|ers)$/, 'l$1'),
    word.replace(/tre$/, 'ter'),
    word.replace(/ogue(r|rs)?$/, 'og$1'),
  ];
  return variants.find((v) => v !== word && known.has(v));
}

/**
 * A short misspelt word (4–5 letters) is corrected only where the word before it makes a known
 * phrase with the correction ("product ownr" → "product owner"): alone, too many words are one edit apart.
 */
function shortCorrection(previous: string, word: string): string | undefined {
  if (word.length < 4 || word.length > 5 || !/^[a-z]+$/.test(word)) return undefined;
  const { known, byFirst } = roleWordIndex();
  if (known.has(word)) return undefined;
  const { byWords } = phraseTables();
  const fits = (byFirst.get(word[0]) ?? []).filter((w) => editDistance(word, w, 1) <= 1 && byWords.has(`${previous} ${w}`));
  return fits.length === 1 ? fits[0] : undefined;
}

/** Level words written right before token i (a run such as "senior/staff" gives both). */
export function levelsBefore(text: string, tokens: Token[], i: number): { levels: Seniority[]; from: number } {
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
  if (levels.length === 0) return openingLevel(text, tokens, i) ?? { levels, from };
  return { levels, from };
}

/** Words after an opening level word that make it no level: "Senior living", "Junior school", "Lead generation". */
const NOT_LEVELLED_AFTER = new Set(['living', 'school', 'schools', 'citizen', 'citizens', 'generation', 'gen', 'care', 'housing']);
/** Words that end a title's qualifiers: a level word before them holds for no title after them. */
const NOT_A_QUALIFIER = new Set(['for', 'in', 'at', 'of', 'and', 'or', 'to', 'with', 'our', 'the', 'a', 'an', 'needed', 'wanted', 'required']);

/**
 * A level word opening the brief holds for the title one or two words later: "Senior motor claims
 * handler", "Lead garage door installer", "Senior MSK physio". ("Staff" is left out: a staff grade is
 * no tech level.)
 */
function openingLevel(text: string, tokens: Token[], i: number): { levels: Seniority[]; from: number } | undefined {
  const { levelWords } = phraseTables();
  for (const skip of [1, 2]) {
    const at = i - skip;
    if (at < 1) return undefined;
    const qualifiers = tokens.slice(at, i);
    if (qualifiers.some((t) => !/^\p{L}+$/u.test(t.text) || NOT_A_QUALIFIER.has(t.lower) || levelWords.has(t.lower))) return undefined;
    if (
      !/^\s+$/.test(text.slice(tokens[at - 1].end, tokens[at].start)) ||
      qualifiers.some((t, x) => x > 0 && !/^\s+$/.test(text.slice(qualifiers[x - 1].end, t.start)))
    )
      return undefined;
    if (NOT_LEVELLED_AFTER.has(qualifiers[0].lower)) return undefined;
    for (let n = 1; n <= 2; n++) {
      if (at - n !== 0 || tokens[0].start > 0) continue;
      const key = tokens
        .slice(0, n)
        .map((t) => t.lower)
        .join(' ');
      const level = levelWords.get(key);
      if (level && key !== 'staff') return { levels: [level], from: tokens[0].start };
    }
  }
  return undefined;
}

/** A level word right after the mention: "QA lead", "Data Analyst Intern", "Software Engineer II". */
export function levelAfter(text: string, tokens: Token[], k: number): Seniority | undefined {
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
    // "analista Ssr", "Desarrollador Sr": the short level words written after the title.
    if (['sr', 'ssr', 'snr', 'jr'].includes(next.lower)) return phraseTables().levelWords.get(next.lower);
  }
  // "Graphic Designer, junior", "Data Analyst (Senior)"; not "Manager — Mid-Market".
  if (/^\s*[,(–—-]\s*$/.test(gap) && !/^[-/]\p{L}/u.test(text.slice(next.end, next.end + 2))) return phraseTables().levelWords.get(next.lower);
  return undefined;
}
