/**
 * Role mentions in a brief (roles.ts reads the role from them): known phrases written out,
 * "<department> <level or role noun>" forms ("Head of Engineering", "Marketing Officer"), likenesses
 * of role words that match nothing exactly (character trigrams, curated phrases and O*NET titles),
 * and, as a last resort, the opening words' nearest O*NET title.
 */
import { NO_FAMILY, type RolePhrase } from '../reference/role-vocabulary';
import { occupationVocabulary } from '../reference/occupation-titles';
import { gazetteer } from '../reference/gazetteer';
import { singularWord } from '../reference/occupations';
import { canonicalSkill } from '../reference/taxonomy';
import type { Seniority } from '../domain/profile';
import { similarRolePhrases, words } from '../ranking/title-match';
import { SpanClaims } from './span-claims';
import { isEnglishWord } from './english-words';
import {
  contextWeight,
  GENERIC_WORDS,
  HIRING_CUES,
  insideParentheses,
  isRoleWord,
  lastCueEnd,
  levelAfter,
  levelsBefore,
  MAX_PHRASE_WORDS,
  phraseTables,
  ROLE_NOUN,
  RIGHT_AFTER_CHAT_ASK,
  RIGHT_AFTER_HIRING,
  rolePosition,
  singular,
  vocabularyPhrase,
  type Token,
} from './role-words';

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

/** Verbs that handle documents, before their object: "raise", "chase", "manage" POs. */
const PAPERWORK_VERB =
  /\b(?:raise|raising|issue|issuing|manage|managing|chase|chasing|process|processing|approve|approving|track|tracking|create|creating|match|matching|place|placing|expedite|expediting|receipt|receipting)\s+(?:the\s+|our\s+|all\s+)?$/i;

/** Exact mentions of known role phrases, longest first from each word, never overlapping. */
export function exactMentions(text: string, tokens: Token[], firstLineEnd: number): RoleMention[] {
  const { byWords, byExact } = phraseTables();
  const openingEnd = tokens.length ? Math.max(tokens[0].end, OPENING.exec(text)?.[0].length ?? 0) : 0;
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
        (n === 1 ? byWords.get(compoundKey(lower[0], byWords) ?? '') : undefined) ??
        byExact.get(written.join(' ')) ??
        (lastWritten ? byExact.get([...written.slice(0, -1), lastWritten].join(' ')) : undefined) ??
        (n === 1 ? lowerCaseAbbreviation(text, window[0], byExact) : undefined);
      // A two-letter abbreviation only O*NET knows is a state, a degree or a word as often as a role
      // ("Boston, MA", "MA in economics"): it counts only in the brief's opening words ("EA to the CEO",
      // "Back office MA for a dermatology practice", "Graduate QS").
      const twoLetters = found?.every((p) => p.exact && p.occupations && p.phrase.replace(/[^A-Za-z]/g, '').length <= 2);
      if (found && !(twoLetters && window[n - 1].end > openingEnd)) hit = { n, phrases: found };
    }
    // A word only O*NET knows as a title, capitalised inside a place's name, is the place's ("Rivers State").
    if (hit && hit.n === 1 && hit.phrases.every((p) => p.source === 'onet' && p.family === NO_FAMILY) && partOfPlaceName(text, tokens, i)) hit = undefined;
    // …and one that is also a skill, joined to another skill, is the skill ("Playwright + TypeScript", "Puppet/Chef").
    if (hit && hit.n === 1 && hit.phrases.every((p) => p.family === NO_FAMILY) && joinedToSkill(text, tokens[i])) hit = undefined;
    // …and an abbreviation in the plural that a paperwork verb handles is the paperwork ("raise POs", "chase POs in SAP").
    if (hit && hit.n === 1 && /^[A-Z]{2,4}s$/.test(tokens[i].text) && PAPERWORK_VERB.test(text.slice(Math.max(0, tokens[i].start - 24), tokens[i].start)))
      hit = undefined;
    if (!hit) {
      i += 1;
      continue;
    }
    const first = tokens[i];
    const last = tokens[i + hit.n - 1];
    const before = levelsBefore(text, tokens, i);
    // A "staff pharmacist" or "staff physiotherapist" outside the families is the ordinary grade, not a tech "Staff" lead.
    const staffGrade = hit.phrases.every((p) => p.family === NO_FAMILY) && /^staff\s+$/i.test(text.slice(before.from, tokens[i].start));
    const levelsBeforeIt = staffGrade ? [] : before.levels;
    const after = levelAfter(text, tokens, i + hit.n);
    const levels = [...levelsBeforeIt, ...(after && !levelsBeforeIt.includes(after) ? [after] : [])];
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
    const vocabularyAbbreviation = !hit.phrases.every((p) => p.exact && p.occupations) ? 1 : insideParentheses(text, first.start) ? 0.2 : named ? 1 : 0.5;
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

/**
 * Whether a word names a tool, not a role: a skill written beside another skill by "+", "/", "&" or a
 * comma ("Playwright + TypeScript") or after "in", "with", "using" ("API tests in Postman"), or a
 * capitalised name slashed to a skill ("Postman/Newman").
 */
function joinedToSkill(text: string, token: Token): boolean {
  const isSkill = (w: string | undefined) => w !== undefined && canonicalSkill(w) !== undefined;
  const after = /^\s*[+/&,]\s*([\p{L}][\p{L}\p{N}.#+-]*(?:\s[\p{Lu}][\p{L}\p{N}.#+-]*)?)/u.exec(text.slice(token.end, token.end + 40))?.[1];
  const before = /([\p{L}][\p{L}\p{N}.#+-]*)\s*[+/&,]\s*$/u.exec(text.slice(Math.max(0, token.start - 40), token.start))?.[1];
  if (canonicalSkill(token.text))
    return (
      [after, after?.split(' ')[0], before].some(isSkill) ||
      /\b(?:in|into|with|using|via)\s+$/i.test(text.slice(Math.max(0, token.start - 8), token.start)) ||
      // "Playwright suites", "Cypress tests": the tool's own artefacts.
      /^\s+(?:tests?|suites?|specs?|scripts?)\b/i.test(text.slice(token.end, token.end + 10))
    );
  const slashedAfter = /^\/([\p{L}][\p{L}\p{N}.#+-]*)/u.exec(text.slice(token.end, token.end + 40))?.[1];
  const slashedBefore = /([\p{L}][\p{L}\p{N}.#+-]*)\/$/u.exec(text.slice(Math.max(0, token.start - 40), token.start))?.[1];
  return /^\p{Lu}/u.test(token.text) && [slashedAfter, slashedBefore].some(isSkill);
}

/**
 * A curated abbreviation written in lower case where a chat names a role ("hiring a pmm", "any leads
 * on a csm?"): in lower case elsewhere it is as often a word.
 */
function lowerCaseAbbreviation(text: string, token: Token, byExact: ReadonlyMap<string, RolePhrase[]>): RolePhrase[] | undefined {
  const before = text.slice(Math.max(0, token.start - 24), token.start);
  if (!/^[a-z]{2,5}s?$/.test(token.text) || !(RIGHT_AFTER_HIRING.test(before) || RIGHT_AFTER_CHAT_ASK.test(before))) return undefined;
  const upper = token.text.toUpperCase();
  const found = byExact.get(upper) ?? (upper.endsWith('S') ? byExact.get(upper.slice(0, -1)) : undefined);
  return found?.some((p) => p.source !== 'onet') ? found.filter((p) => p.source !== 'onet') : undefined;
}

/** A title written as one word that the vocabulary holds as two ("shotfirer" → "shot firer", "dogwalker"). */
function compoundKey(word: string, byWords: ReadonlyMap<string, unknown>): string | undefined {
  if (word.length < 7 || !/^[a-z]+$/.test(word) || isRoleWord(word)) return undefined;
  for (let at = 3; at <= word.length - 3; at++) {
    const key = `${word.slice(0, at)} ${word.slice(at)}`;
    if (byWords.has(key)) return key;
    const plural = singular(word.slice(at));
    if (plural && byWords.has(`${word.slice(0, at)} ${plural}`)) return `${word.slice(0, at)} ${plural}`;
  }
  return undefined;
}

/** Whether a capitalised word and the capitalised word after it name a place ("Rivers State", "Cape Coast"). */
function partOfPlaceName(text: string, tokens: Token[], i: number): boolean {
  const [word, next] = [tokens[i], tokens[i + 1]];
  if (!next || !/^\p{Lu}/u.test(word.text) || !/^\p{Lu}/u.test(next.text) || !/^[ \t]+$/.test(text.slice(word.end, next.start))) return false;
  return gazetteer().named(`${word.text} ${next.text}`).length > 0;
}

/** Level heads of "<head> <department>" ("Head of Engineering", "VP Eng", "Director, Sales"). */
const DEPARTMENT_HEADS: { words: string[]; level: Seniority }[] = [
  // "manager for our SRE team", "head of the finance function": the longer heads first.
  ...(['our', 'the'] as const).flatMap((det) => [
    { words: ['head', 'of', det], level: 'director' as const },
    { words: ['director', 'of', det], level: 'director' as const },
    { words: ['manager', 'for', det], level: 'manager' as const },
    { words: ['manager', 'of', det], level: 'manager' as const },
    { words: ['lead', 'for', det], level: 'lead' as const },
  ]),
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
  associate: undefined,
  executive: undefined,
  administrator: undefined,
  engineer: undefined,
  designer: undefined,
  analyst: undefined,
  representative: undefined,
  rep: undefined,
  // How chat names a role by its department: "an ops person", "a marketing person".
  person: undefined,
  guy: undefined,
};
/** Words that may stand between a department and its tail ("Audit Team Leader", "HVAC Systems Engineer"). */
const TAIL_FILLERS = new Set(['team', 'systems', 'system', 'project', 'design', 'test', 'support', 'services', 'service', 'risk']);

export function departmentMentions(text: string, tokens: Token[], firstLineEnd: number): RoleMention[] {
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
  'a an the and or in at for of to with we our you your is are be will who this that as on by from remote hybrid based office onsite role job position team hiring looking seeking need needed want wanted join years year experience plus asap urgently please person persons someone somebody people individual candidate candidates hire talent guy profile required requires urgent'.split(
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

/**
 * Whether a span's head word is another English word spelt right, so no near miss of the phrase's
 * head: "safety barriers" is no barrister, "community controlled" no controller, "SEO audits" no
 * auditor; "Windscreen Technicians" has the head of "windscreen technician". A department's word
 * among the opening words still names its people ("help with recruiting"; "the 401(k) audit" further
 * on is a task).
 */
function spelledRightElsewise(head: Token, key: string, departmentNamed: boolean): boolean {
  if (head.corrected || departmentNamed) return false;
  return singularWord(head.lower) !== singularWord(key.split(' ').at(-1) ?? '') && isEnglishWord(head.lower);
}

/** Opening words a department's word alone may name the role in ("help with recruiting"). */
const DEPARTMENT_OPENING_WORDS = 4;

/** Whether a word agrees with a phrase's head (last) word. */
const headAgrees = (word: string, phrase: string) => wordsAgree(word, phrase.split(' ').at(-1) ?? '');

export function similarMentions(
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
  const { levelWords, areas } = phraseTables();
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
      if (taken(first.start, last.end) || (n === 1 && partOfPlaceName(text, tokens, i))) continue;
      // A word the titles use, spelt right, is no misspelling of another ("weed control" is no controller),
      // unless it names a department ("help with recruiting" wants a recruiter).
      if (n === 1 && !first.corrected && isRoleWord(first.lower) && !ROLE_NOUN.test(first.lower) && !areas.has(first.lower)) continue;
      // After a modal or "to", a word is a verb ("can program PLCs", "to design circuits").
      if (/\b(?:can|could|to|will|would|must|should|you'll|we'll)\s+$/i.test(text.slice(Math.max(0, first.start - 12), first.start))) continue;
      // A field's label names no one ("Job title: …", "Location: …").
      if (/^\s*:/.test(text.slice(last.end, last.end + 3)) && FIELD_LABELS.test(text.slice(first.start, last.end))) continue;
      const written = text.slice(first.start, last.end);
      // A skill is no misspelt role ("Statistics" is not a "Statistician").
      if (written.length < 4 || canonicalSkill(written) || joinedToSkill(text, last)) continue;
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
      const best = nearest.get(key)!.find(
        (c) =>
          c.similarity >= threshold &&
          c.key.split(' ').length <= n &&
          !GENERIC_WORDS.has(c.key) &&
          // An abbreviation is written as it is or not at all: "Ecto" (an Elixir library) is no "CTO".
          !c.phrases.some((p) => /^[A-Z&]{2,5}$/.test(p.phrase)) &&
          headAgrees(last.lower, c.key) &&
          // "forestry adviser" is no "HR adviser": a two-word likeness agrees in its first word too.
          (n === 1 || !c.key.includes(' ') || wordsAgree(first.lower, c.key.split(' ')[0])),
      );
      if (!best || spelledRightElsewise(last, best.key, areas.has(last.lower) && i < DEPARTMENT_OPENING_WORDS)) continue;
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
/** A labelled title line: "Job title: Zeppelin rigger", "Position - Harbour pilot". */
const LABELLED = /^[\s*•-]*(?:job\s+title|title|role|position|vacancy|post|job)\s*[:–—-]\s*([^\n]{2,80})/im;
/** The words after the first hiring cue of the opening lines: "We're hiring a zeppelin rigger to …". */
const AFTER_CUE =
  /\b(?:hiring|looking for|seeking|searching for|need|needs|recruiting|wanted:|join (?:us|our team|the team) as)\s+(?:(?:an?|one|two|three|\d+|experienced|qualified|skilled|certified|licensed|new)\s+)*([^,;:()\n—–|.!?]{2,80})/i;
/** Labels of a brief's fields, which a colon follows. */
const FIELD_LABELS =
  /^(?:job\s+title|title|job|role|position|vacancy|post|location|locations|salary|pay|rate|shift|shifts|hours|contract|type|start|start date|duration|reports to|reporting to|benefits|requirements|skills|company|client|department|team|industry|sector|closing date)$/i;
/**
 * The role a brief names as written, for a brief the vocabularies know nothing in ("Zeppelin
 * rigger, Friedrichshafen"): from its opening words, a labelled title line, or the words after its
 * first hiring cue; hiring words trimmed, at most five words ending in a word some listed title ends
 * in. "Looking for great people" names nobody.
 */
export function openingRoleAsWritten(text: string): string | undefined {
  // A level's short form keeps its title ("Sr. Executive"); a head count is no part of it ("Technicians x2").
  const head = text
    .slice(0, 400)
    .replace(/\b(Sr|Snr|Jr|Jnr|Asst|Assoc|Mgr|Exec)\./gi, '$1')
    .replace(/[ \t]+(?:x[ \t]?\d{1,3}|\d{1,3}[ \t]?x|\(\d{1,3}\))(?=[ \t]*(?:$|[\n,;:–—-]))/gim, '');
  const candidates = [OPENING.exec(head)?.[0], LABELLED.exec(head)?.[1], AFTER_CUE.exec(head)?.[1]];
  for (const candidate of candidates) {
    const role = candidate === undefined ? undefined : roleAsWritten(candidate);
    if (role) return role;
  }
  return undefined;
}
function roleAsWritten(phrase: string): string | undefined {
  // A phrase runs up to the words that start what follows it ("… rigger for our airship hangar").
  const clause = OPENING.exec(phrase.trim())?.[0] ?? phrase;
  const written = clause.split(/\s+/).filter(Boolean);
  const stop = (w: string) => STOP_SPAN_WORDS.has(w.toLowerCase());
  while (written.length && stop(written[0])) written.shift();
  while (written.length && stop(written[written.length - 1])) written.pop();
  const last = (written.at(-1) ?? '').toLowerCase();
  if (written.length === 0 || written.length > 5 || stop(last)) return undefined;
  // An abbreviation alone opening the brief is a title nobody spelt out ("SNA for an ASD class").
  if (written.length === 1 && /^[A-Z]{2,5}s?$/.test(written[0]) && !NOT_TITLES.test(written[0])) return written[0];
  // "Head of English", "Director of Admissions": a head of anything is someone.
  if (/^(?:head|director|chief|vp|vice president|manager)\s+of\s+\S/i.test(written.join(' ')) && written.length >= 3) return written.join(' ');
  // The head is a word some listed title ends in ("rigger", "guide"), not any word ending in "er".
  return (titleHeads().get(singularWord(last)) ?? 0) >= MIN_TITLES_OF_HEAD ? written.join(' ') : undefined;
}
/** Gender marks of a job ad's title in European languages: "(m/w/d)", "(h/f)", "(f/m/x)", "(k/m)". */
const GENDER_MARK = /\(\s*(?:[mwfdhxkv]|div|i)(?:\s*\/\s*(?:[mwfdhxkv]|div|i)){1,3}\s*\)/i;
/** A title's feminine ending written beside it: "Goldschmied/in", "Entrenador/a", "Kaufmann/-frau". */
const PAIRED_ENDING = /^\p{L}+\s*\/\s*-?(?:in|a|e|ice|frau|ka)\b/iu;
/** Words that say "wanted" in other languages, before or after the title ("Cercasi sarta", "Skördarförare sökes"). */
const FOREIGN_WANTED =
  /\b(?:gesucht|sökes|söker|søkes|søger|haetaan|cercasi|cerchiamo|se busca|se necesita|buscamos|precisa-se|procuramos|contratamos|recrutons|recherchons|on recrute|gezocht|zoeken|poszukujemy|zatrudnimy|hledáme)\b/i;

/**
 * The title of a job ad in another language, as written, when nothing else names the role
 * ("Goldschmied/in (m/w/d) für unsere Werkstatt" → "Goldschmied"): its gender marks or a word for
 * "wanted" say a title opens the ad. Live sources search job titles as text, so it is still a search.
 */
export function foreignAdTitle(text: string): string | undefined {
  const firstLine = text.slice(0, 200).split('\n')[0];
  const pair = /^(\p{L}{4})\p{L}*\s*\/\s*(\p{L}{4})/u.exec(firstLine.trim());
  const gendered = !!pair && pair[1].toLowerCase() === pair[2].toLowerCase(); // "Animateur / animatrice"
  const marked = GENDER_MARK.exec(firstLine);
  if (!marked && !PAIRED_ENDING.test(firstLine.trim()) && !gendered && !FOREIGN_WANTED.test(firstLine)) return undefined;
  const opening = (marked ? firstLine.slice(0, marked.index) : firstLine)
    .replace(FOREIGN_WANTED, ' ')
    // The title ends where what it is for begins ("sarta con esperienza", "Trainer für unsere Kinder").
    .split(/\s(?:für|am|im|bei|in|zur|zum|con|per|para|pour|en|au|aux|voor|bij|till|för|på|i|w|na|for|at|with)\s/i)[0]
    .split(/[,;:()|.!?]|\s[-–—]\s|[–—]/)[0]
    .split(/\s+\/\s+/)[0]
    .replace(/\/\s*-?\p{L}+/gu, '')
    .trim();
  const written = opening.split(/\s+/).filter(Boolean);
  if (written.length === 0 || written.length > 4 || !written.some((w) => /\p{L}{4,}/u.test(w))) return undefined;
  return written.join(' ');
}

/** Capitals that open a brief without naming anyone. */
const NOT_TITLES = /^(?:ASAP|URGENT|NEW|HIRING|JOB|ROLE|FT|PT|WFH|NOW|FYI|NB|PS|TBC|TBD|UK|US|USA|EU|UAE|NZ)$/;

/** Listed titles a head word must end, at least ("guide" ends dozens; "new" ends a stray one). */
const MIN_TITLES_OF_HEAD = 5;
let heads: Map<string, number> | undefined;
function titleHeads(): Map<string, number> {
  if (heads) return heads;
  heads = new Map();
  for (const key of occupationVocabulary().byKey.keys()) {
    const head = singularWord(key.split(' ').at(-1)!);
    heads.set(head, (heads.get(head) ?? 0) + 1);
  }
  return heads;
}

/** The loosest likeness the last resort takes. */
const LAST_RESORT_SIMILARITY = 0.5;

export function openingMention(text: string, tokens: Token[], firstLineEnd: number): RoleMention | undefined {
  let written = OPENING.exec(text)?.[0].trim() ?? '';
  // "Job title: Director of Pharmacy": the words after the label.
  if (FIELD_LABELS.test(written)) written = OPENING.exec(LABELLED.exec(text.slice(0, 400))?.[1] ?? '')?.[0].trim() ?? '';
  if (written.length < 3 || written.split(/\s+/).length > 6) return undefined;
  // Words that name someone ("Director of Pharmacy") at the loosest likeness; others ("Looking for
  // great people") only as a close one of several words.
  const namesSomeone = words(written).some((w) => ROLE_NOUN.test(w));
  const least = namesSomeone ? LAST_RESORT_SIMILARITY : written.includes(' ') ? LAST_RESORT_SIMILARITY + 0.1 : 1.1;
  const best = occupationVocabulary()
    .similar(written, 1)
    .find((o) => !o.phrase.exact && o.similarity >= least);
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
