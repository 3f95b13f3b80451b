/**
 * The role a brief asks for: family, base titles and seniority, read from the words recruiters
 * use (src/reference/role-vocabulary.ts) — titles, aliases, abbreviations, O*NET alternate
 * titles, "Head of <department>" forms and seniority words — with a character-trigram similarity
 * fallback for role words that match nothing exactly, and the brief's skills as evidence when it
 * names no role at all. Part of the brief reader (reader.ts); the words are in role-words.ts,
 * the mentions in role-mentions.ts.
 *
 * Every mention of a role is weighed by where it stands: the opening line and words like
 * "hiring", "looking for", "role:" make it the role asked for; "work with", "reporting to",
 * "partner with" make it a colleague ("you'll work closely with product managers").
 */
import { MANAGER_LEVELS, ROLE_FAMILIES, SENIORITY_YEARS, SENIORITY_TITLE_WORDS, canonicalSkill, detectSeniority, findFamily } from '../reference/taxonomy';
import { BRIEF_SENIORITY_WORDS, FAMILY_AREAS, NO_FAMILY, ROLE_PHRASES, SKILL_TITLE_HINTS, TECHNOLOGY_TITLE_HINTS } from '../reference/role-vocabulary';
import { occupationVocabulary } from '../reference/occupation-titles';
import { familyManagerOccupation, familyTitleOccupation, occupations, ownTitles, singularWord } from '../reference/occupations';
import { SENIORITIES, type Seniority } from '../domain/profile';
import { escapeRegex } from '../domain/text';
import { departmentWords, titleSimilarity, words } from '../ranking/title-match';
import { SpanClaims } from './span-claims';
import { ROLE_NOUN, correctRoleWords, phraseTables, tokenize, vocabularyPhrase, type Token } from './role-words';
import { departmentMentions, exactMentions, openingMention, similarMentions, type RoleMention } from './role-mentions';

export const MAX_EXTRACTED_TITLES = 5;
/** Occupations a brief is read as, at most. */
const MAX_OCCUPATIONS = 3;
// ---- skills as evidence ----

/** Skill evidence (summed rarity) enough to name a family when no role is named: two or three telling skills. */
const SKILLS_ALONE = 2.5;
/** How like an O*NET title the opening words must be to name the role beside telling skills. */
const CLOSE_OPENING = 0.8;

/** How telling each skill is of a family: the rarer it is among families, the more. */
const SKILL_FAMILIES: Map<string, string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const f of ROLE_FAMILIES) for (const s of f.skills) out.set(s.toLowerCase(), [...(out.get(s.toLowerCase()) ?? []), f.id]);
  return out;
})();

/**
 * The technologies a brief names that are no skill of ours but name titles ("write Elixir", "our
 * Informatica jobs"): each as written by the titles or in capitals, or in any case before a word
 * for a person ("a rails person", "php dev"), outside the role mentions.
 */
const TECHNOLOGY_WORDS: RegExp[] = (() => {
  const keys = [...TECHNOLOGY_TITLE_HINTS].filter(([key]) => canonicalSkill(key) === undefined);
  if (keys.length === 0) return [];
  const alternatives = (forms: string[]) => `(?<![\\p{L}\\p{N}.+#/&-])(?:${forms.map(escapeRegex).join('|')})(?![\\p{L}\\p{N}+#/&])`;
  const asWritten = keys.flatMap(([, hints]) => [...new Set(hints.flatMap((h) => [h.written, h.written.toUpperCase()]))]);
  return [
    new RegExp(alternatives(asWritten), 'gu'),
    new RegExp(`${alternatives(keys.map(([key]) => key))}(?=\\s+(?:person|people|dev|devs|guy|folks|expert)\\b)`, 'giu'),
  ];
})();

/** The title hints of each technology named (one list per technology). */
function technologiesIn(text: string, spans: readonly { start: number; end: number }[]): { family: string; title: string }[][] {
  const found = new Set<string>();
  for (const re of TECHNOLOGY_WORDS) {
    for (const m of text.matchAll(re)) {
      if (!spans.some((s) => m.index < s.end && m.index + m[0].length > s.start)) found.add(m[0].toLowerCase());
    }
  }
  return [...found].map((key) => TECHNOLOGY_TITLE_HINTS.get(key) ?? []);
}

/** How telling the skills and technologies named are of each family: the fewer families one points to, the more. */
function skillEvidence(skills: readonly string[], technologies: readonly (readonly { family: string }[])[]): Map<string, number> {
  const out = new Map<string, number>();
  const add = (families: readonly string[]) => {
    const idf = Math.log(ROLE_FAMILIES.length / Math.max(1, families.length));
    for (const f of families) out.set(f, (out.get(f) ?? 0) + idf);
  };
  for (const s of skills) add(SKILL_FAMILIES.get(s.toLowerCase()) ?? []);
  for (const hints of technologies) add([...new Set(hints.map((h) => h.family))]);
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

/** The family's one base title an O*NET abbreviation is the initials of ("BA" → Business Analyst). */
function initialsTitle(phrase: string, family: string): string | undefined {
  if (!/^[A-Z]{2,5}$/.test(phrase)) return undefined;
  const initials = (title: string) =>
    title
      .split(/[\s-]+/)
      .map((w) => w[0])
      .join('')
      .toUpperCase();
  const matching = (findFamily(family)?.titles ?? []).filter((t) => initials(t) === phrase);
  return matching.length === 1 ? matching[0] : undefined;
}

/**
 * The title the corpus writes for a manager-and-up role of the family: the level title whose
 * department words best cover the mention's ("support team manager" → Customer Support Manager,
 * "VP Eng" → VP of Engineering). An abbreviation counts as the title it stands for ("SRE
 * manager" → Site Reliability Engineering Manager). When no department word is shared, the
 * family's own level title: the mention already says family and level ("CNO", "Controller",
 * "GRC manager"), and the family's main level title is what most of its people at that level hold.
 */
function nearestLevelTitle(mentionWords: string, family: string, level: Seniority): string | undefined {
  const candidates = ROLE_PHRASES.filter((p) => p.family === family && p.source === 'level-title' && p.seniority === level);
  const wanted = departmentWords(mentionWords);
  if (wanted === '' || candidates.length === 0) return candidates[0]?.phrase;
  const closest = (department: string) => {
    let best: { phrase: string; s: number } | undefined;
    for (const c of candidates) {
      const s = titleSimilarity(departmentWords(c.phrase), department);
      if (!best || s > best.s) best = { phrase: c.phrase, s };
    }
    return best && best.s > 0 ? best.phrase : undefined;
  };
  return closest(wanted) ?? closest(longDepartment(wanted, family)) ?? candidates[0].phrase;
}

/**
 * A department written short, in the words of the family's own long name for it: "corp dev" →
 * "corporate development" (each word begins the area's word), "sre" → "site reliability
 * engineering" (the area's initials), "ee" → "electrical engineer" (an abbreviation's title).
 */
function longDepartment(department: string, family: string): string {
  const short = department.split(' ');
  for (const area of FAMILY_AREAS.get(family) ?? []) {
    const long = words(area);
    if (long.length < 2 || long.join(' ') === department) continue;
    const prefixes = long.length === short.length && short.every((w, i) => w.length >= 3 && long[i].startsWith(w));
    const initials = short.length === 1 && long.map((w) => w[0]).join('') === short[0];
    if (prefixes || initials) return long.join(' ');
  }
  return short.map((w) => ROLE_PHRASES.find((p) => p.family === family && p.title && p.phrase.toLowerCase() === w)?.title?.toLowerCase() ?? w).join(' ');
}

/** The family's base title a department names, when exactly one has its words ("procurement lead" → Procurement Specialist). */
function baseTitleOfDepartment(mentionWords: string, family: string): string | undefined {
  const wanted = departmentWords(mentionWords)
    .split(' ')
    .filter((w) => !phraseTables().levelWords.has(w))
    .join(' ');
  const f = findFamily(family);
  if (!f || wanted === '') return undefined;
  const covering = (department: string) => f.titles.filter((t) => titleSimilarity(t, department) >= 0.8);
  const full = covering(wanted).length ? covering(wanted) : covering(longDepartment(wanted, family));
  return full.length === 1 ? full[0] : undefined;
}

/** The title a mention names in the family, as the corpus writes titles. */
function titleOfMention(m: RoleMention, family: string): string | undefined {
  const p = phraseFor(m, family)!;
  // A manager-and-up role has its own titles ("Design Manager", not the designers' base title).
  const level = m.levels.find((l) => MANAGER_LEVELS.includes(l));
  if (level) return nearestLevelTitle(m.via === 'department' ? p.phrase : m.words, family, level);
  if (p.title) return p.title;
  if (p.source === 'onet') return nearestBaseTitle(p.phrase, family) ?? initialsTitle(p.phrase, family);
  if (m.via === 'department') {
    // "an ops person" names the department's work, not one of its titles: the family's headline title.
    return baseTitleOfDepartment(m.words, family) ?? (/ (?:person|guy)$/.test(m.words) ? findFamily(family)?.titles[0] : undefined);
  }
  return undefined;
}

/** Whether a mention is an abbreviation followed by its words in parentheses whose initials it is. */
function spelledOut(text: string, m: RoleMention): boolean {
  const letters = /^([A-Z]{2,6})s?$/.exec(m.written.trim())?.[1];
  const words = letters && /^\s*\(([^()]{3,80})\)/.exec(text.slice(m.end))?.[1];
  if (!letters || !words) return false;
  const initials = words
    .split(/[^\p{L}]+/u)
    .filter((w) => w !== '' && !/^(?:and|of|the|for|in)$/i.test(w))
    .map((w) => w[0].toUpperCase())
    .join('');
  return initials === letters;
}

/** How much more the first role named outright counts than the others ("COO …, Lean Six Sigma Black Belt"). */
const OPENING_BOOST = 1.5;
/** Mentions this close to the strongest lead the reading (their levels and occupations count): the same role named again. */
const LEADING_SHARE = 0.65;

/** Levels a range of years can imply (the manager-and-up levels are roles, not years). */
const YEARS_LEVELS: readonly Seniority[] = ['junior', 'mid', 'senior'];

/** Level phrases that state a level without a title ("entry-level", "senior-level", "internship"). */
const LEVEL_PHRASES: { re: RegExp; level: Seniority }[] = [
  { re: /\b(?:internship|intern position|co-?op (?:role|position|student))\b/i, level: 'intern' },
  {
    re: /\b(?:entry[\s-]level|early[\s-]career|new[\s-]grad(?:uate)?s?|graduate (?:role|position|programme|program|scheme)|recent grad(?:uate)?s?|newly[\s-]qualified)\b/i,
    level: 'junior',
  },
  { re: /\bmid[\s-](?:level|senior|weight)\b/i, level: 'mid' },
  { re: /\bsenior[\s-]level\b/i, level: 'senior' },
  { re: /\b(?:junior|jr\.?)[\s-]level\b/i, level: 'junior' },
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
  // "ML research intern, summer 2027": an intern named on the title line.
  if (/\binterns?\b/i.test(text.split('\n')[0])) out.add('intern');
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
  // An abbreviation spelt out right after it is read by its words: "CRTs (casual relief teachers)"
  // are no certified respiratory therapists.
  const allExact = exactMentions(text, tokens, firstLineEnd).filter((m) => !spelledOut(text, m));
  // A curated phrase is read before a department's words; a department's words before a title
  // only the O*NET vocabulary knows ("Customer Service Manager" is customer success, not O*NET's
  // office supervisors).
  const allDepartment = departmentMentions(text, tokens, firstLineEnd);
  // …except that a longer department holds the curated words inside it: with a level heading it
  // ("Director of SRE", "manager for our QA team" manage that department; "Head of Product Design"
  // is design's), or around one curated word ("corp dev associate" is no developer).
  const levelled = (m: RoleMention) => m.levels.length > 0;
  const holds = (d: RoleMention, e: RoleMention) =>
    d.start <= e.start &&
    e.end <= d.end &&
    d.end - d.start > e.end - e.start &&
    (levelled(d) ? !levelled(e) || e.start === d.start : !levelled(e) && !e.words.includes(' '));
  const headed = new Set(allExact.filter((e) => !fromVocabularyOnly(e) && allDepartment.some((d) => holds(d, e))));
  const curated = new SpanClaims(text.length);
  for (const m of allExact) if (!fromVocabularyOnly(m) && !headed.has(m)) curated.claim(m.start, m.end);
  const department = allDepartment.filter((m) => !curated.overlaps(m.start, m.end));
  // Only a department's manager-and-up or lead roles outrank O*NET ("security officer" stays a guard).
  const byDepartment = new SpanClaims(text.length);
  for (const m of department) if (m.levels.length) byDepartment.claim(m.start, m.end);
  // A department's words before a title only O*NET knows qualify it: "Mechanical Engineering
  // Consultant" is not O*NET's engineering consultant, nor "HVAC Project Engineer" a civil one.
  const vocabularyOnlyEnds = new Map<number, number>();
  for (const m of allExact) if (fromVocabularyOnly(m)) vocabularyOnlyEnds.set(m.start, m.end);
  const qualifying = new Set<RoleMention>();
  const qualified = new SpanClaims(text.length);
  for (const m of department) {
    if (m.levels.length) continue;
    for (let at = m.start + 1; at < m.end; at++) {
      const end = vocabularyOnlyEnds.get(at);
      if (end !== undefined && end <= m.end) {
        qualifying.add(m);
        qualified.claim(m.start, m.end);
        byDepartment.claim(m.start, m.end);
        break;
      }
    }
  }
  // …and another family's department before a curated title of one family makes it that department's
  // role: "Cybersecurity Risk Manager" is security, not finance's risk manager. A neighbouring
  // family's department only sets the scene: an "IT Test Analyst" is still a tester.
  const curatedEnds = new Map<number, RoleMention>();
  for (const m of allExact) if (!fromVocabularyOnly(m)) curatedEnds.set(m.start, m);
  const overridden = new Set<RoleMention>();
  for (const d of allDepartment) {
    for (let at = d.start + 1; at < d.end; at++) {
      const c = curatedEnds.get(at);
      if (!c || c.end > d.end || d.phrases.some((p) => c.phrases.some((q) => neighbourFamilies(q.family, p.family)))) continue;
      qualifying.add(d);
      qualified.claim(d.start, d.end);
      overridden.add(c);
      break;
    }
  }
  const exact = allExact.filter((m) => !overridden.has(m) && !headed.has(m) && (!fromVocabularyOnly(m) || !byDepartment.overlaps(m.start, m.end)));
  const byExact = new SpanClaims(text.length);
  for (const m of exact) byExact.claim(m.start, m.end);
  const known = [
    ...exact,
    ...[...qualifying].filter((m) => !department.includes(m)),
    ...department.filter((m) => qualifying.has(m) || (!qualified.overlaps(m.start, m.end) && (m.levels.length || !byExact.overlaps(m.start, m.end)))),
  ];
  const byKnown = new SpanClaims(text.length);
  for (const m of known) byKnown.claim(m.start, m.end);
  // Guess at unknown role words only when no role is named outright.
  const similar = known.some((m) => m.weight >= 1) ? [] : similarMentions(text, tokens, firstLineEnd, 0.6, (s, e) => byKnown.overlaps(s, e));
  const mentions = [...known, ...similar].sort((a, b) => a.start - b.start);
  const spans = mentions.map((m) => ({ start: m.start, end: m.end }));
  const skills = readSkills(spans);
  const technologies = technologiesIn(text, spans);
  const bySkills = skillEvidence(skills, technologies);
  const skillsAlone = Math.max(0, ...bySkills.values()) >= SKILLS_ALONE;
  // Last resort before a brief is refused for naming nothing known: a looser likeness (its head
  // word still agreeing), read with the low confidence its cosine gives.
  if (mentions.length === 0 && !skillsAlone) {
    mentions.push(...similarMentions(text, tokens, firstLineEnd, 0.45, () => false));
  }
  // Never refused for want of a known title: the opening words' nearest O*NET title, however loose
  // ("Director of Pharmacy" is near "Manager of Pharmacy"), read with the low confidence its cosine gives.
  // A close one counts even beside telling skills: "HVAC Install Tech" is an installer, whatever HVAC
  // says of mechanical engineers.
  if (mentions.length === 0) {
    const opening = openingMention(text, tokens, firstLineEnd);
    if (opening && ((opening.similarity ?? 0) >= CLOSE_OPENING || !skillsAlone)) mentions.push(opening);
  }
  // Nor for naming the work only ("need someone to tile 3 bathrooms"): the occupation whose titles
  // the opening sentence's words fit best, at the lowest confidence.
  if (mentions.length === 0 && !skillsAlone) {
    const duties = dutiesMention(text, tokens);
    if (duties) mentions.push(duties);
  }
  // The first role named outright is usually the one asked for ("PMM for developer tools").
  const opening = mentions.find((m) => m.weight >= 1);
  if (opening) opening.weight *= OPENING_BOOST;

  // Family: the weight of its mentions (an ambiguous phrase counts for each family at a discount),
  // then the skills' evidence.
  const votes = new Map<string, number>();
  for (const m of mentions) {
    const families = [...new Set(m.phrases.map((p) => p.family))];
    const share = families.length > 1 ? 0.6 : 1;
    for (const f of families) votes.set(f, (votes.get(f) ?? 0) + m.weight * share);
  }
  // Skills weigh less once a family's role is named; an outside occupation named does not lessen them.
  const skillScale = mentions.some((m) => m.phrases.some((p) => p.family !== NO_FAMILY)) ? 0.08 : 0.25;
  for (const [f, e] of bySkills) votes.set(f, (votes.get(f) ?? 0) + e * skillScale);
  const order = new Map(ROLE_FAMILIES.map((f, i) => [f.id, i]));
  const ranked = [...votes].sort((a, b) => b[1] - a[1] || (order.get(a[0]) ?? 0) - (order.get(b[0]) ?? 0));
  const top = ranked[0];
  if (!top) return { spans, mentions, votes: ranked };
  const [family, points] = top;
  if (family === NO_FAMILY) return outsideReading(text, mentions, { spans, mentions, votes: ranked }, years);
  const establishment = family === 'operations' ? establishmentManager(text, mentions) : undefined;
  if (establishment) return outsideReading(text, [establishment], { spans, mentions, votes: ranked }, years);
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
    for (const h of [...skills.flatMap((s) => SKILL_TITLE_HINTS.get(s.toLowerCase()) ?? []), ...technologies.flat()])
      if (h.family === family) hinted.set(h.title, (hinted.get(h.title) ?? 0) + 1);
    const [mostHinted] = [...hinted].sort((a, b) => b[1] - a[1]);
    if (mostHinted) titles.push(mostHinted[0]);
    // The skill's title is a guess; the family's headline title ("Data Engineer", "Security
    // Engineer") is what a recruiter most often means by work of the family, so it is searched too.
    const headline = findFamily(family)?.titles[0];
    if (headline && !titles.includes(headline)) titles.push(headline);
  }
  if (titles.length > 0) {
    const sure = titled.some((t) => t.m.via === 'exact' && !t.m.corrected && phraseFor(t.m, family)!.source !== 'onet');
    result.titles = { titles: titles.slice(0, MAX_EXTRACTED_TITLES), confidence: sure ? 0.9 : titled.length ? 0.75 : 0.6 };
  }
  // Occupations: those of the base titles read (the reviewed table the corpus also uses), else
  // those the mentions' O*NET titles name.
  const codes = new Set(titles.map((t) => familyTitleOccupation(family, t)).filter((c): c is string => !!c));
  if (codes.size === 0) for (const code of codeVotes(ofFamily, family)) codes.add(code);
  // A level or department title the O*NET vocabulary also lists ("Logistics Manager", "Director of
  // Nursing"): its occupation, as O*NET names it, then the family's own (the corpus's managers of a
  // family hold their family's occupation).
  if (codes.size === 0) {
    // (A mention the family's tables give no title of still names its listed title: "Advertising Manager".)
    for (const code of listedCodes(titled.length ? titled.map((t) => t.m) : ofFamily)) codes.add(code);
    const own = codes.size ? familyTitleOccupation(family, findFamily(family)?.titles[0] ?? '') : undefined;
    if (own) codes.add(own);
  }
  const leading = ofFamily.filter((m) => m.weight >= strongest * LEADING_SHARE);
  const seniority = readSeniority(text, leading, years);
  if (seniority) result.seniority = seniority;
  // A manager and up of the family is first its management occupation ("Head of Finance":
  // Financial Managers, "Logistics Manager": Transportation, Storage, and Distribution Managers), as
  // the corpus holds them; the family's own occupation follows.
  const managing =
    seniority?.levels.length && seniority.levels.every((l) => MANAGER_LEVELS.includes(l)) ? familyManagerOccupation(family, titles[0] ?? '') : undefined;
  const occupationCodes = managing ? [managing, ...[...codes].filter((c) => c !== managing)] : [...codes];
  if (occupationCodes.length > 0)
    result.occupations = { codes: occupationCodes.slice(0, MAX_OCCUPATIONS), confidence: Math.min(confidence, result.titles?.confidence ?? 0.7) };
  return result;
}

/** Words that make a general manager's establishment a hotel or a restaurant, and O*NET's managers of it. */
const ESTABLISHMENTS: { words: RegExp; code: string }[] = [
  { words: /\b(?:hotel|resort|motel|hostel|lodge|guest ?house|b&b|\d+[- ]keys?|\d+[- ](?:bed)?rooms?)\b/i, code: '11-9081.00' },
  { words: /\b(?:restaurants?|bistro|caf[eé]|brasserie|pub|diner|qsr|fast[- ]casual|eatery|pizzeria|steakhouse|food ?hall)\b/i, code: '11-9051.00' },
];
/** How far into the brief its establishment is named. */
const ESTABLISHMENT_WINDOW = 200;

/**
 * A general manager of a hotel or a restaurant runs that establishment: O*NET's lodging or food
 * service managers, in no family ("General Manager – 142-key Boutique Resort"), not operations'.
 */
function establishmentManager(text: string, mentions: readonly RoleMention[]): RoleMention | undefined {
  const strongest = [...mentions].sort((a, b) => b.weight - a.weight || a.start - b.start)[0];
  if (!strongest || !/^(?:general manager|gm)$/.test(strongest.words)) return undefined;
  const near = text.slice(0, Math.max(ESTABLISHMENT_WINDOW, strongest.end + ESTABLISHMENT_WINDOW));
  const place = ESTABLISHMENTS.find((e) => e.words.test(near));
  const own = place && occupations().byCode(place.code);
  const phrase = own && occupationVocabulary().byKey.get(words(ownTitles(place.code)[0] ?? own.title).join(' '));
  if (!place || !phrase) return undefined;
  return { ...strongest, phrases: [{ ...vocabularyPhrase(phrase), occupations: [{ code: place.code, weight: 1 }] }] };
}

/** The same family, or families adjacent to each other (role-families.json `adjacent`). */
const neighbourFamilies = (a: string, b: string) => a === b || !!findFamily(a)?.adjacent.includes(b) || !!findFamily(b)?.adjacent.includes(a);

/** The O*NET-SOC codes the mentions' phrases of a family (or NO_FAMILY) name, most weight first: those within half the best. */
function codeVotes(mentions: readonly RoleMention[], family: string): string[] {
  const votes = new Map<string, number>();
  for (const m of mentions) for (const c of phraseFor(m, family)?.occupations ?? []) votes.set(c.code, (votes.get(c.code) ?? 0) + m.weight * c.weight);
  // A stable sort: equal votes keep the phrases' order (likeliest, then most employed, first).
  const ranked = [...votes].sort((a, b) => b[1] - a[1]);
  return ranked.filter(([, v]) => v >= ranked[0][1] * 0.5).map(([code]) => code);
}

/** Words asking for someone to do a piece of work. */
const DUTIES_CUE = /\b(?:someone|somebody|people|persons?|staff|help|hands?|an? \w+ (?:person|worker))\s+(?:\w+\s+){0,2}?(?:to|who (?:can|will))\b/i;
/** How well the words of a duties-only brief must fit an occupation's titles (one telling word, in a few dozen occupations' titles at most). */
const DUTIES_MIN_FIT = 2.5;

/**
 * A brief that names no one, only the work ("someone to tile 3 bathrooms"): the occupation whose
 * titles its opening sentence's words fit best ("tile" → Tile and Marble Setters), as a low likeness.
 */
function dutiesMention(text: string, tokens: Token[]): RoleMention | undefined {
  const sentenceEnd = text.search(/[.!?\n](?:\s|$)/);
  const end = sentenceEnd < 0 ? 400 : Math.min(sentenceEnd, 400);
  // Only a brief that asks for someone to do the work ("someone to tile", "people to work the bins").
  if (!DUTIES_CUE.test(text.slice(0, end))) return undefined;
  const opening = tokens.filter((t) => t.start < end);
  const context = opening.map((t) => t.lower).filter((w) => w.length >= 3 && !CONTEXT_STOP.has(w) && !SENIORITY_WORDS.has(w));
  const vocabulary = occupationVocabulary();
  const best = vocabulary.closestByWords(context);
  if (!best || best.fit < DUTIES_MIN_FIT) return undefined;
  const title = ownTitles(best.code)[0] ?? occupations().byCode(best.code)?.title;
  const phrase = title ? vocabulary.byKey.get(words(title).join(' ')) : undefined;
  if (!title || !phrase) return undefined;
  const at = opening.find((t) => vocabulary.contextFit(best.code, [t.lower]) > 0) ?? opening[0];
  return {
    start: at.start,
    end: at.end,
    written: title,
    words: words(title).join(' '),
    phrases: [{ ...vocabularyPhrase(phrase), occupations: [{ code: best.code, weight: 1 }] }],
    levels: [],
    weight: 0.3,
    via: 'similar',
    similarity: 0.3,
  };
}

/** The O*NET codes of the strongest mention whose words O*NET lists as a title, most likely first. */
function listedCodes(mentions: readonly RoleMention[]): string[] {
  const { byKey } = occupationVocabulary();
  for (const m of mentions) {
    const listed = byKey.get(words(m.written).join(' '));
    if (listed?.codes.length) return listed.codes.map((c) => c.code);
  }
  return [];
}

/** How much one unit of context fit (a word's inverse document frequency) adds to a code's share of its phrase. */
const CONTEXT_WEIGHT = 0.1;
/** Level words say nothing of the occupation either ("senior", "lead", "apprentice"). */
const SENIORITY_WORDS = new Set([...Object.values(BRIEF_SENIORITY_WORDS).flat(), ...Object.values(SENIORITY_TITLE_WORDS).flat()].flatMap((w) => words(w)));
/** Words around a mention that say nothing of the occupation. */
const CONTEXT_STOP = new Set(
  'the and for with our you your are will who this that from have has per hour week year years day days shift shifts full part time new team role job work based near area city must plus pay paid'.split(
    ' ',
  ),
);

/**
 * The occupations of an outside mention, its phrase's shares adjusted by the words of its line: an
 * occupation whose titles hold the brief's other words ("HVAC" for a service technician, "storm" and
 * "distribution" for a lineman) gains.
 */
function codesInContext(text: string, m: RoleMention | undefined): string[] {
  if (!m) return [];
  const phrase = phraseFor(m, NO_FAMILY);
  if (!phrase?.occupations?.length) return codeVotes(m ? [m] : [], NO_FAMILY);
  const vocabulary = occupationVocabulary();
  const lineStart = text.lastIndexOf('\n', m.start - 1) + 1;
  const lineEnd = text.indexOf('\n', m.end) < 0 ? text.length : text.indexOf('\n', m.end);
  const own = new Set(words(m.words));
  const context = words(text.slice(Math.max(lineStart, m.start - 120), Math.min(lineEnd, m.end + 120))).filter(
    (w) => w.length >= 3 && !own.has(w) && !CONTEXT_STOP.has(w) && !SENIORITY_WORDS.has(w),
  );
  const ranked = phrase.occupations
    .map((c) => ({ code: c.code, share: c.weight, score: c.weight + CONTEXT_WEIGHT * vocabulary.contextFit(c.code, context) }))
    .sort((a, b) => b.score - a.score);
  // The context picks the first; the others stay as likely as the phrase alone makes them.
  return ranked.filter((c, i) => i === 0 || (c.share >= ranked[0].share * 0.5 && c.score >= ranked[0].score * 0.5)).map((c) => c.code);
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
function titleAsWritten(text: string, m: RoleMention, code: string | undefined): string {
  const p = phraseFor(m, NO_FAMILY)!;
  if (p.exact && code) return expansionOf(m.written.replace(/s$/, ''), code) ?? m.written.replace(/^([A-Z]{2,})s$/, '$1');
  // A misspelt title is searched as it should be spelt: "Deisel mechanic" finds diesel mechanics.
  const written = m.corrected ? m.words : m.written;
  // An acronym right before the title is part of it: "HVAC Service Technician", "CNC Machinist".
  const acronym = /(?:^|[^\p{L}])(\p{Lu}{3,5})[ \t-]+$/u.exec(text.slice(Math.max(0, m.start - 8), m.start))?.[1];
  // One person's title: "Pipe Welders" → "Pipe Welder", "CNAs" → "CNA"; "X-ray tech" → "X-ray Technician".
  const cleaned = `${acronym ? `${acronym} ` : ''}${written}`
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\S+$/, (last) =>
      /^techs?$/i.test(last) ? 'Technician' : /^[A-Z]{2,}s$/.test(last) ? last.slice(0, -1) : ROLE_NOUN.test(last.toLowerCase()) ? singularWord(last) : last,
    );
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
  const leading = outside.filter((m) => m.weight >= strongest * LEADING_SHARE).sort((a, b) => b.weight - a.weight || a.start - b.start);
  // The occupations of the strongest mention ("lead carpenter", not also "home builder" further on),
  // as the words around it tell them apart ("room attendant" for a hotel, "service technician" for HVAC).
  const codes = codesInContext(text, leading[0]).slice(0, MAX_OCCUPATIONS);
  const sure = leading.some((m) => m.via === 'exact' && !m.corrected);
  const similarity = Math.max(0, ...leading.map((m) => m.similarity ?? 0));
  const confidence = sure ? 0.85 : round2(Math.min(0.8, 0.2 + similarity * 0.7));
  const titles: string[] = [];
  for (const m of leading.filter((x) => phraseFor(x, NO_FAMILY)!.occupations?.some((c) => codes.includes(c.code)))) {
    const title = titleAsWritten(text, m, codes[0]);
    if (!titles.some((t) => t.toLowerCase() === title.toLowerCase())) titles.push(title);
  }
  // The occupation's own title too: an "ECE" is found as a "Preschool Teacher".
  for (const title of codes.length ? ownTitles(codes[0]) : []) if (!titles.some((t) => t.toLowerCase() === title.toLowerCase())) titles.push(title);
  const result: RoleReadingResult = { ...base, occupations: { codes, confidence } };
  if (titles.length) result.titles = { titles: titles.slice(0, MAX_EXTRACTED_TITLES), confidence };
  // The level a title outside the families states itself ("Store Manager", "Director of Pharmacy"),
  // read as the corpus and the scorer read a person's title (detectSeniority).
  const around = leading[0] && text.slice(Math.max(0, leading[0].start - 16), leading[0].end + 32);
  const seniority = readSeniority(text, leading, years, leading[0] && outsideTitleLevel(leading[0].written, around));
  if (seniority) result.seniority = seniority;
  return result;
}

/**
 * The level a title outside the families states: as a person's title is read, except that a trade's
 * "Journeyman" (written in or `around` the title) is a qualified (mid) worker, a foreman a lead, a
 * headteacher a director, a "Chief" that is no officer no C-suite, and a title ending in "Associate"
 * or "Staff" names the job, not a level ("Sales Associate", "Overnight Stock Associate", "waiting staff").
 */
function outsideTitleLevel(written: string, around = written): Seniority | undefined {
  // "Journeyman concrete finishers", "Industrial Mechanic (Millwright) – Journeyperson".
  if (/\bjourney(?:man|men|person|people|worker|[\s-]level)\b/i.test(around)) return 'mid';
  // A trade's foreman runs a crew; a headteacher runs the school.
  if (/\b(?:forem[ae]n|foreperson|forewom[ae]n)\b/i.test(written)) return 'lead';
  if (/\bhead ?teachers?\b/i.test(written)) return 'director';
  const level = detectSeniority(written.replace(/\b(?:associates?|staff)\s*$/i, ''));
  // A ship's "Chief Mate" or "Chief Cook" is a rank of the trade, not the C-suite ("Chief … Officer").
  return level === 'cxo' && !/\b(?:officer|executive)\b/i.test(written) ? undefined : level;
}

/** The levels stated with the leading mentions; else a level phrase; else what a range of years implies; else the level the title states; else what a floor of years implies. */
function readSeniority(
  text: string,
  leading: readonly RoleMention[],
  years: { min: number; max?: number } | undefined,
  titleLevel?: Seniority,
): RoleReadingResult['seniority'] {
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
  if (levels.size === 0 && titleLevel) return { levels: [titleLevel], confidence: 0.7 };
  if (levels.size === 0 && years && years.max === undefined && years.min > 0) {
    // A floor of years ("5+ yrs", "at least 3 years") is the level those years start ("5+" senior,
    // "3+" mid); past the levels years tell apart ("10+ years") it says no level.
    const level = YEARS_LEVELS.find((l) => SENIORITY_YEARS[l][0] <= years.min && years.min < SENIORITY_YEARS[l][1]);
    if (level) levels.add(level);
    implied = true;
  }
  if (levels.size === 0 || levels.size > 3) return undefined;
  const sorted = SENIORITIES.filter((s) => levels.has(s));
  const fromMention = leading.some((m) => m.levels.length > 0);
  return { levels: sorted, confidence: implied ? 0.6 : fromMention ? (sorted.length === 1 ? 0.85 : 0.75) : 0.7 };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
