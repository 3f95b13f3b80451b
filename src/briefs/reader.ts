/**
 * The built-in brief reader behind `jd_text` and the app's reader without a language model:
 * deterministic matching over the reference data (no language model). The role (family,
 * occupations, titles, seniority) is read by roles.ts, the place by places.ts, skills, industries
 * and years here. It only proposes criteria; `parseCriteria` still validates them.
 */
import industrySynonymData from '../reference/data/industry-synonyms.json';
import skillSynonymData from '../reference/data/skill-synonyms.json';
import { INDUSTRIES, SKILLS, canonicalIndustry, canonicalSkill } from '../reference/taxonomy';
import { readPlace } from './places';
import { occupationVocabulary } from '../reference/occupation-titles';
import { similarRolePhrases } from '../ranking/title-match';
import { foreignAdTitle, openingRoleAsWritten } from './role-mentions';
import { readRole } from './roles';
import { SpanClaims } from './span-claims';
import { isEnglishWord } from './english-words';
import { SEARCHABLE_FIELDS, type Criteria } from '../domain/criteria';
import { escapeRegex } from '../domain/text';

export interface Extraction {
  criteria: Criteria;
  /** Per found field (criteria field names), 0–1. Fields not found are absent here too. */
  confidence: Record<string, number>;
}

export { MAX_EXTRACTED_TITLES } from './roles';
const MAX_EXTRACTED_SKILLS = 30;
const MAX_EXTRACTED_INDUSTRIES = 10;
/** How sure a title copied as written is (a role no vocabulary knows, a job ad in another language): only that it names the role. */
const AS_WRITTEN_CONFIDENCE = 0.3;

// ---- matching helpers ----

/**
 * Word-boundary pattern that also works for names like "C++", "C#", "Node.js" (`\b` fails next to
 * symbols). Inner spaces and hyphens match any run of spaces or hyphens.
 */
function phrasePattern(phrase: string): string {
  const body = phrase
    .trim()
    .split(/[\s-]+/)
    .map(escapeRegex)
    .join('[\\s-]+');
  return `(?<![A-Za-z0-9])${body}(?![A-Za-z0-9+#]|\\.[A-Za-z0-9])`;
}

interface Hit {
  index: number;
  end: number;
  text: string;
}

// Reference data is fixed per process, so each phrase's pattern is compiled once.
const patternCache = new Map<string, RegExp>();

function findAll(text: string, phrase: string, caseSensitive: boolean): Hit[] {
  const key = `${caseSensitive ? 'c' : 'i'}:${phrase}`;
  let re = patternCache.get(key);
  if (!re) patternCache.set(key, (re = new RegExp(phrasePattern(phrase), caseSensitive ? 'g' : 'gi')));
  re.lastIndex = 0;
  const hits: Hit[] = [];
  for (const m of text.matchAll(re)) hits.push({ index: m.index, end: m.index + m[0].length, text: m[0] });
  return hits;
}

/** Spans already claimed by a longer phrase, so "Financial Services" does not also count as "Services". */
class Claims {
  readonly spans: SpanClaims;
  constructor(text: string) {
    this.spans = new SpanClaims(text.length);
  }
  overlaps(h: Hit): boolean {
    return this.spans.overlaps(h.index, h.end);
  }
  claim(h: Hit): void {
    this.spans.claim(h.index, h.end);
  }
}

const byLengthDesc = (a: string, b: string) => b.length - a.length || a.localeCompare(b);

// ---- industries ----

/**
 * Words a job description uses for an industry. Targets are resolved through `canonicalIndustry`
 * (a unit test checks each one), so a renamed reference industry shows up in tests, not at run time.
 */
export const INDUSTRY_SYNONYMS: Record<string, string> = industrySynonymData;

/**
 * Reference names that are also everyday words or activities ("Research", "Design",
 * "Software Development", "Human Resources"): they count only next to an industry word
 * ("the Retail industry", "Banking clients", "industry: Insurance").
 */
const INDUSTRY_CONTEXT_AFTER =
  /^\s+(?:industry|industries|sector|company|companies|firm|firms|startup|startups|space|market|clients|customers|organi[sz]ations?|business|brands?|vertical)\b/i;
const INDUSTRY_CONTEXT_BEFORE = /(?:industry|sector|vertical)\s*[:-]?\s*$/i;
const ACTIVITY_INDUSTRIES = new Set(
  [
    'Software Development',
    'Human Resources',
    'Civil Engineering',
    'Graphic Design',
    'Program Development',
    'Public Policy',
    'Market Research',
    'Executive Office',
    'Government Relations',
    'Writing & Editing',
    'Translation & Localization',
    'Professional Training & Coaching',
    'Mechanical & Industrial Engineering',
    'Public Relations & Communications',
    'Information Services',
    'Industrial Automation',
    'Fund-Raising',
    'Media Production',
    'Legal Services',
    'Events Services',
    'Facilities Services',
    'Environmental Services',
    'Consumer Services',
    'Law Enforcement',
    'Public Safety',
    'Computer Networking',
    'Investment Management',
  ].map((n) => n.toLowerCase()),
);

function findIndustries(text: string, taken: Claims): { industries: string[]; confidence: number } | undefined {
  const found: { index: number; name: string; exact: boolean }[] = [];
  const candidates: { phrase: string; target: string; exact: boolean }[] = [];
  for (const name of INDUSTRIES) candidates.push({ phrase: name, target: name, exact: true });
  for (const [phrase, target] of Object.entries(INDUSTRY_SYNONYMS)) {
    const canonical = canonicalIndustry(target);
    if (canonical) candidates.push({ phrase, target: canonical, exact: false });
  }
  candidates.sort((a, b) => byLengthDesc(a.phrase, b.phrase));
  const claims = new Claims(text);
  for (const c of candidates) {
    for (const h of findAll(text, c.phrase, false)) {
      // Inside a title or a skill ("Research Scientist", "Market Research" as a skill) it is not an industry.
      if (claims.overlaps(h) || taken.overlaps(h)) continue;
      if (c.exact) {
        // Reference names count only capitalised, as names.
        if (!/^[A-Z0-9]/.test(h.text)) continue;
        const needsContext = !/\s/.test(c.phrase) || ACTIVITY_INDUSTRIES.has(c.phrase.toLowerCase());
        const context =
          INDUSTRY_CONTEXT_AFTER.test(text.slice(h.end, h.end + 30)) || INDUSTRY_CONTEXT_BEFORE.test(text.slice(Math.max(0, h.index - 20), h.index));
        if (needsContext && !context) continue;
      }
      claims.claim(h);
      found.push({ index: h.index, name: c.target, exact: c.exact });
    }
  }
  if (found.length === 0) return undefined;
  found.sort((a, b) => a.index - b.index);
  const industries: string[] = [];
  for (const f of found) if (!industries.includes(f.name)) industries.push(f.name);
  const confidence = found.every((f) => f.exact) ? 0.85 : 0.75;
  return { industries: industries.slice(0, MAX_EXTRACTED_INDUSTRIES), confidence };
}

// ---- skills ----

/**
 * Skills whose names are also ordinary words or single letters ("Go", "R", "Closing", "Lever"):
 * they count only written exactly and read as a listed item (comma, slash, "and", "or",
 * parentheses, "in Go"), never as the first word of a sentence.
 */
const CONTEXT_SKILLS = new Set(['go', 'r', 'c', 'closing', 'cadence', 'outreach', 'lever', 'gong', 'distribution', 'licensing']);
/** Names that are product names but also lowercase words ("react", "sketch", "safe"): exact case only. */
const EXACT_CASE_SKILLS = new Set([
  'react',
  'angular',
  'amplitude',
  'sketch',
  'snowflake',
  'selenium',
  'cucumber',
  'puppet',
  'postman',
  'cypress',
  'playwright',
  'helm',
  'hive',
  'greenhouse',
  'waterfall',
  'workday',
  'asana',
  'looker',
  'intercom',
  'excel',
  'creo',
  'xero',
  'prometheus',
  'bash',
  'swift',
  'rust',
  'java',
  'scala',
  'safe',
  'kanban',
  'scrum',
  'agile',
  'git',
  'linux',
  'cerner',
  'hyperion',
  'splunk',
  'jenkins',
  'terraform',
  'docker',
]);
/** Other spellings → reference skill (checked by a unit test). `exact` ones are matched case-sensitively. */
export const SKILL_SYNONYMS: { phrase: string; skill: string; exact?: boolean }[] = skillSynonymData;

/** A separator or a preposition right before the name ("Python, Go", "written in Go"). */
const LIST_BEFORE = /(?:[,/(&;•·]|\band|\bor|\bin|\bwith|\busing)\s*$/i;
/** A separator right after ("Go, Rust", "Go/Python", "(Go)"). */
const STRONG_AFTER = /^\s*[,/)&;|]/;
/** Weaker evidence after: "Go and Rust", end of sentence or line. */
const WEAK_AFTER = /^(?:\s*(?:and|or)\b|\.(?:\s|$)|\s*$|[ \t]*\r?\n)/i;
const SENTENCE_START = /(?:^|[.!?:]\s+|\n\s*(?:[-*•]\s*)?)$/;

/** Whether an ambiguous name (e.g. "Go") at `h` reads as the skill rather than an ordinary word. */
function ambiguousInContext(text: string, h: Hit): boolean {
  const after = text.slice(h.end, h.end + 12);
  // "C-suite", "R&D", "Go-to-market", "C's": not the language.
  if (/^[-&'’]\S/.test(after)) return false;
  const before = text.slice(Math.max(0, h.index - 12), h.index);
  // "ARRT(R)", "Word(C)": a registered mark, not the language.
  if (/\p{L}\($/u.test(before)) return false;
  if (STRONG_AFTER.test(after)) return true;
  // A capitalised word opening a sentence or a line is no evidence of the name.
  if (SENTENCE_START.test(before)) return false;
  return LIST_BEFORE.test(before) || WEAK_AFTER.test(after);
}

type SkillMode = 'any-case' | 'exact' | 'context';

function skillPhrases(): { phrase: string; skill: string; mode: SkillMode }[] {
  const out: { phrase: string; skill: string; mode: SkillMode }[] = [];
  for (const skill of SKILLS) {
    const key = skill.toLowerCase();
    const acronym = skill.length <= 5 && skill === skill.toUpperCase() && /[A-Z]/.test(skill);
    const mode: SkillMode = CONTEXT_SKILLS.has(key) ? 'context' : EXACT_CASE_SKILLS.has(key) || acronym ? 'exact' : 'any-case';
    out.push({ phrase: skill, skill, mode });
  }
  for (const s of SKILL_SYNONYMS) {
    const skill = canonicalSkill(s.skill);
    if (skill) out.push({ phrase: s.phrase, skill, mode: s.exact ? 'exact' : 'any-case' });
  }
  // Longest first, so "Go (Golang)" and "Apache Spark" claim their words before "Go" and "Spark".
  return out.sort((a, b) => byLengthDesc(a.phrase, b.phrase));
}

function findSkills(text: string, taken: Claims): { skills: string[]; confidence: number; spans: Hit[] } | undefined {
  const claims = new Claims(text);
  const found: { index: number; skill: string; mode: SkillMode }[] = [];
  const spans: Hit[] = [];
  for (const p of skillPhrases()) {
    for (const h of findAll(text, p.phrase, p.mode !== 'any-case')) {
      if (claims.overlaps(h) || taken.overlaps(h)) continue;
      if (p.mode === 'context' && !ambiguousInContext(text, h)) continue;
      claims.claim(h);
      spans.push(h);
      found.push({ index: h.index, skill: p.skill, mode: p.mode });
    }
  }
  if (found.length === 0) return undefined;
  found.sort((a, b) => a.index - b.index);
  const skills: string[] = [];
  for (const f of found) if (!skills.includes(f.skill)) skills.push(f.skill);
  const confidence = found.some((f) => f.mode !== 'context') ? 0.9 : 0.7;
  return { skills: skills.slice(0, MAX_EXTRACTED_SKILLS), confidence, spans };
}

// ---- years ----

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
// "5", "five", "five (5)"
const NUM = `(?<![A-Za-z0-9.])(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})(?![A-Za-z0-9])(?:\\s*\\(\\d{1,2}\\))?`;
const YEARS_WORD = `(?:years?|yrs?)`;

const toNumber = (s: string): number => NUMBER_WORDS[s.toLowerCase()] ?? Number.parseInt(s, 10);

/** "3rd-year litigation associate", "associate, 3rd year": a law firm's class year. */
const CLASS_YEAR =
  /(?<![A-Za-z0-9])(\d{1,2})(?:st|nd|rd|th)[- ]year\s+(?:[\w-]+\s+){0,2}?(?:associate|attorney|lawyer|solicitor)s?\b|\b(?:associate|attorney|lawyer|solicitor)s?,?\s+(\d{1,2})(?:st|nd|rd|th)[- ]year\b/gi;

function findYears(text: string): { min: number; max?: number; confidence: number } | undefined {
  const patterns: { re: RegExp; range: boolean; confidence: number; needsExperience: boolean }[] = [
    { re: new RegExp(`${NUM}\\s*(?:-|–|—|to)\\s*${NUM}\\+?\\s*${YEARS_WORD}`, 'gi'), range: true, confidence: 0.9, needsExperience: false },
    {
      re: new RegExp(`(?:at least|minimum(?: of)?|min\\.?|no less than)\\s+${NUM}\\+?\\s*${YEARS_WORD}`, 'gi'),
      range: false,
      confidence: 0.9,
      needsExperience: false,
    },
    { re: new RegExp(`${NUM}\\s*(?:\\+|plus|or more)\\s*${YEARS_WORD}`, 'gi'), range: false, confidence: 0.9, needsExperience: false },
    { re: new RegExp(`${NUM}\\s*\\+?\\s*${YEARS_WORD}`, 'gi'), range: false, confidence: 0.75, needsExperience: true },
  ];
  let best: { index: number; min: number; max?: number; confidence: number } | undefined;
  // A law firm's class year, between N − 1 and N years in.
  for (const m of text.matchAll(CLASS_YEAR)) {
    const year = Number.parseInt(m[1] ?? m[2], 10);
    if (year >= 1 && year <= 15 && (!best || m.index < best.index)) best = { index: m.index, min: year - 1, max: year, confidence: 0.8 };
  }
  for (const p of patterns) {
    for (const m of text.matchAll(p.re)) {
      if (p.needsExperience) {
        // "founded 10 years ago" is not a requirement; "4 years of experience" is.
        const around = text.slice(m.index + m[0].length, m.index + m[0].length + 60);
        if (!/^\s*(?:of\s+)?(?:[\w\s/,+#.-]{0,40}?)\bexperience\b/i.test(around)) continue;
      }
      // "up to 3 years" caps experience; it is no minimum.
      if (/(?:up to|at most|no more than|maximum(?: of)?|max\.?|under|less than)\s*$/i.test(text.slice(Math.max(0, m.index - 16), m.index))) continue;
      const min = toNumber(m[1]);
      const max = p.range ? toNumber(m[2]) : undefined;
      if (!Number.isFinite(min) || min > 60 || (max !== undefined && (max > 60 || max < min))) continue;
      const spelled = !/^\d/.test(m[1]);
      const confidence = spelled ? Math.min(p.confidence, 0.85) : p.confidence;
      // The first requirement stated is usually the main one.
      if (!best || m.index < best.index) best = { index: m.index, min, max, confidence };
    }
  }
  return best ? { min: best.min, max: best.max, confidence: best.confidence } : undefined;
}

// ---- entry point ----

/**
 * Builds every table the reader uses (gazetteer, phrase tables, the O*NET vocabulary and its
 * trigram index) now rather than in the first brief that needs them: a worker thread calls it as
 * it starts, so no brief's time budget pays for loading reference data.
 */
export function warmReader(): void {
  extractCriteria('Warm-up: a senior pharmacist in Leeds, 5 years of Excel, 30 miles of Lyon; sofware enginer; patisier; Pensecola FL');
  occupationVocabulary().similar('warm up', 1);
  similarRolePhrases('warm up', 1);
  isEnglishWord('warm');
}

export function extractCriteria(text: string): Extraction {
  const source = typeof text === 'string' ? text : '';
  const criteria: Criteria = {};
  const confidence: Record<string, number> = {};

  // Role words are not skills or industries ("Data Analyst" is no "Data Analysis" evidence), and
  // skill words are not industries ("Market Research" the skill).
  const taken = new Claims(source);
  let skills: ReturnType<typeof findSkills>;
  const years = findYears(source);
  const role = readRole(
    source,
    (spans) => {
      for (const s of spans) taken.claim({ index: s.start, end: s.end, text: '' });
      skills = findSkills(source, taken);
      return skills?.skills ?? [];
    },
    years,
  );
  for (const h of skills?.spans ?? []) taken.claim(h);
  // Each reading fills its criteria field and says how sure it is.
  const found = <K extends keyof Criteria>(field: K, value: Criteria[K] | undefined, sure: number | undefined) => {
    if (value === undefined || sure === undefined) return;
    criteria[field] = value;
    confidence[field] = sure;
  };
  found('family', role.family?.id, role.family?.confidence);
  found('occupations', role.occupations?.codes, role.occupations?.confidence);
  found('titles', role.titles?.titles, role.titles?.confidence);
  const place = readPlace(source, taken.spans);
  found('metro', place.metro?.id, place.metro?.confidence);
  found('locations', place.locations?.values, place.locations?.confidence);
  found('places', place.places?.values, place.places?.confidence);
  const industries = findIndustries(source, taken);
  found('industries', industries?.industries, industries?.confidence);
  found('years_experience', years && (years.max !== undefined ? { min: years.min, max: years.max } : { min: years.min }), years?.confidence);
  found('skills', skills?.skills, skills?.confidence);
  found('seniority', role.seniority?.levels, role.seniority?.confidence);
  // Never refused while the opening words name someone no vocabulary knows, or a job ad in another
  // language shows its title: the words as written, a title for the ranking (and live sources) to
  // match, read with little confidence.
  const asWritten = SEARCHABLE_FIELDS.some((field) => field in criteria) ? undefined : (openingRoleAsWritten(source) ?? foreignAdTitle(source));
  if (asWritten) found('titles', [asWritten], AS_WRITTEN_CONFIDENCE);
  return { criteria, confidence };
}
