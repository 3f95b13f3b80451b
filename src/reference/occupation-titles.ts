/**
 * The whole public job-title vocabulary (DESIGN.md §4a): every O*NET occupation's own title and
 * its Alternate Titles and Sample of Reported Titles (about 60,000), as phrases a brief or a title
 * can be read against, each with the occupations it names weighted by how the title is listed
 * (own title 3, reported 2, alternate 1), recruiters' shorthand O*NET lacks
 * (data/occupations/recruiter-terms.json), and a character-trigram similarity fallback for titles
 * no list holds. National statistics offices' coding indexes are left out on purpose (one of the
 * held-out title sets comes from one).
 */
import recruiterTermData from './data/occupations/recruiter-terms.json';
import { words } from '../ranking/title-match';
import { isMilitaryOccupation, isResidualTitle, occupations, singularWord, titlesOfOccupationTitle } from './occupations';
import { trigramIndex, type Nearest, type TrigramIndex } from './trigram-index';

export interface OccupationPhrase {
  /** As O*NET writes it, parentheses and inversions resolved ("Certified Nursing Assistant"). */
  phrase: string;
  /** Lower-case words joined by spaces; for an abbreviation, the letters as written ("LPN"). */
  key: string;
  /** Matched only as written: an abbreviation ("LPN", "CNA", "HGV Driver" is not one). */
  exact: boolean;
  /** The occupations the phrase names, most likely first; weights sum to 1. */
  codes: { code: string; weight: number }[];
  /** The role family of the most likely occupation, or null. */
  family: string | null;
  /** One of the project's recruiter terms ("Sparky", "Physio"): a title as written, whatever its word looks like. */
  recruiterTerm?: true;
}

export interface OccupationVocabulary {
  byKey: ReadonlyMap<string, OccupationPhrase>;
  byExact: ReadonlyMap<string, OccupationPhrase>;
  /**
   * How much a brief's other words say for an occupation: the summed inverse document frequency
   * (over occupations) of those words that occur in the occupation's titles ("hotel" for Maids and
   * Housekeeping Cleaners, "HVAC" for its mechanics). 0 when none does.
   */
  contextFit(code: string, contextWords: readonly string[]): number;
  /** The occupation whose titles the words fit best (contextFit), when some do: a brief that names only duties. */
  closestByWords(contextWords: readonly string[]): { code: string; fit: number } | undefined;
  /** Phrases nearest to a text by trigram cosine, most similar first. */
  similar(text: string, limit: number): (Nearest & { phrase: OccupationPhrase })[];
}

const SOURCE_WEIGHT = { own: 3, reported: 2, alternate: 1, short: 1 } as const;
/** A term with several codes is as ambiguous as O*NET's own titles: the brief's words around it choose ("Team Member" at a burger place or a store). */
const RECRUITER_TERMS: Record<string, string | string[]> = recruiterTermData.terms;
/** Occupations whose titles a context word must occur in, at least, to tell occupations apart. */
const MIN_CONTEXT_WORD_OCCUPATIONS = 3;
/** How much less likely O*NET's residual occupations ("Production Workers, All Other") are for a title listed elsewhere too. */
const RESIDUAL_DISCOUNT = 0.5;
/** How much likelier an occupation is when its own title holds the listed title's head noun. */
const HEAD_NOUN_BOOST = 2;

/**
 * The readable forms of one listed title: "CNA (Certified Nursing Assistant)" → "CNA" and
 * "Certified Nursing Assistant"; "Assistant, Dental" → also "Dental Assistant"; an occupation's own
 * plural title "Chefs and Head Cooks" → "Chef", "Head Cook".
 */
function formsOf(title: string, own: boolean): string[] {
  const out = new Set<string>();
  const inner = /\(([^)]+)\)/.exec(title)?.[1]?.trim();
  const outer = title.replace(/\s*\([^)]*\)\s*/g, ' ').trim();
  for (const t of [outer, inner].filter((x): x is string => !!x && x.length >= 2)) {
    out.add(t);
    const comma = /^([^,]+),\s*([^,]+)$/.exec(t);
    if (comma && comma[1].split(/\s+/).length <= 2) out.add(`${comma[2]} ${comma[1]}`);
  }
  // "Pharmacy Director" is also written "Director of Pharmacy".
  const headed = /^(.+?)\s+(Director|Manager|Supervisor|Coordinator|Head|Chief)$/.exec(outer);
  if (headed && !headed[1].includes(',')) out.add(`${headed[2]} of ${headed[1]}`);
  // Own titles are plural and qualified: "Pharmacists", "Chefs and Head Cooks", "Preschool Teachers, Except Special Education".
  if (own) for (const t of titlesOfOccupationTitle(title)) out.add(t);
  return [...out];
}

const isAbbreviation = (form: string) => /^[A-Z0-9&-]{2,6}$/.test(form) && /[A-Z]/.test(form);

let built: OccupationVocabulary | undefined;
export function occupationVocabulary(): OccupationVocabulary {
  if (built) return built;
  const index = occupations();
  const weighted = new Map<string, { phrase: string; exact: boolean; codes: Map<string, number>; recruiterTerm?: true }>();
  const add = (form: string, code: string, weight: number, recruiterTerm = false) => {
    const exact = isAbbreviation(form);
    // An abbreviation is keyed by its letters as the reader reads written words ("CDL-A" → "CDL A").
    const key = exact
      ? form
          .split(/[^\p{L}\p{N}+#]+/u)
          .filter(Boolean)
          .join(' ')
      : words(form).join(' ');
    if (key === '') return;
    const mapKey = `${exact ? 'x' : 'w'}:${key}`;
    let entry = weighted.get(mapKey);
    if (!entry) weighted.set(mapKey, (entry = { phrase: form, exact, codes: new Map() }));
    entry.codes.set(code, (entry.codes.get(code) ?? 0) + weight);
    if (recruiterTerm) entry.recruiterTerm = true;
  };
  for (const o of index.all) for (const form of formsOf(o.title, true)) add(form, o.code, SOURCE_WEIGHT.own);
  for (const t of index.titles()) for (const form of formsOf(t.title, false)) add(form, t.code, SOURCE_WEIGHT[t.source] ?? 1);
  // Recruiters' shorthand O*NET lacks ("HGV Driver", "EA", "Healthcare Assistant"): the project's own list.
  for (const [term, codes] of Object.entries(RECRUITER_TERMS))
    for (const code of typeof codes === 'string' ? [codes] : codes) if (index.byCode(code)) add(term, code, SOURCE_WEIGHT.own, true);

  const byKey = new Map<string, OccupationPhrase>();
  const byExact = new Map<string, OccupationPhrase>();
  const employment = (code: string) => index.byCode(code)?.employment ?? 0;
  // Of several occupations listing a title, the one whose own title holds the title's head noun is
  // likelier ("pipe welder": Welders, Cutters, Solderers before Plumbers, Pipefitters).
  const ownTitleWords = new Map(index.all.map((o) => [o.code, new Set(words(o.title).map(singularWord))]));
  for (const [mapKey, e] of weighted) {
    if (e.codes.size > 1) {
      const head = singularWord(words(e.phrase).at(-1) ?? '');
      for (const [code, w] of e.codes) if (ownTitleWords.get(code)?.has(head)) e.codes.set(code, w * HEAD_NOUN_BOOST);
      // A residual "…, All Other" occupation lists titles that have a home elsewhere ("Boner": Meat Cutters, not Production Workers).
      for (const [code, w] of e.codes) if (isResidualTitle(index.byCode(code)?.title ?? '')) e.codes.set(code, w * RESIDUAL_DISCOUNT);
    }
    // The armed forces' occupations name no one to search (their titles still tell words apart below).
    const civilian = [...e.codes].filter(([code]) => !isMilitaryOccupation(code));
    if (civilian.length === 0) continue;
    const total = civilian.reduce((a, [, w]) => a + w, 0);
    const codes = civilian
      .sort((a, b) => b[1] - a[1] || employment(b[0]) - employment(a[0]) || a[0].localeCompare(b[0]))
      .map(([code, w]) => ({ code, weight: w / total }));
    const key = mapKey.slice(2);
    const phrase: OccupationPhrase = {
      phrase: e.phrase,
      key,
      exact: e.exact,
      codes,
      family: index.byCode(codes[0].code)?.family ?? null,
      ...(e.recruiterTerm ? { recruiterTerm: true as const } : {}),
    };
    (e.exact ? byExact : byKey).set(key, phrase);
  }
  const keys = [...byKey.keys()];
  let trigrams: TrigramIndex | undefined;
  // Each occupation's title words with how many of its titles hold each ("tile" is in a good share
  // of Tile and Marble Setters' titles, in few of their supervisors'), its number of titles, and in
  // how many occupations' titles each word occurs.
  const titleWords = new Map<string, Map<string, number>>();
  const titleCount = new Map<string, number>();
  for (const [, e] of weighted) {
    if (e.exact) continue;
    for (const code of e.codes.keys()) {
      titleCount.set(code, (titleCount.get(code) ?? 0) + 1);
      let counts = titleWords.get(code);
      if (!counts) titleWords.set(code, (counts = new Map()));
      for (const w of new Set(words(e.phrase).map(singularWord))) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const documentFrequency = new Map<string, number>();
  for (const counts of titleWords.values()) for (const w of counts.keys()) documentFrequency.set(w, (documentFrequency.get(w) ?? 0) + 1);
  const occupationCount = titleWords.size;
  built = {
    byKey,
    byExact,
    contextFit(code, contextWords) {
      const counts = titleWords.get(code);
      if (!counts) return 0;
      let fit = 0;
      // A word in only one or two occupations' titles is as often a stray word of another language
      // ("caixa", "piani") or an odd listed title as a clue: only words some occupations share count.
      for (const w of new Set(contextWords.map(singularWord))) {
        const df = documentFrequency.get(w) ?? 0;
        if (counts.has(w) && df >= MIN_CONTEXT_WORD_OCCUPATIONS) fit += Math.log(occupationCount / df);
      }
      return fit;
    },
    closestByWords(contextWords) {
      let best: { code: string; fit: number; score: number } | undefined;
      const unique = [...new Set(contextWords.map(singularWord))];
      for (const [code, counts] of titleWords) {
        if (isMilitaryOccupation(code)) continue;
        let fit = 0;
        let score = 0;
        const titles = titleCount.get(code) ?? 1;
        for (const w of unique) {
          const df = documentFrequency.get(w) ?? 0;
          const n = counts.get(w) ?? 0;
          if (n === 0 || df < MIN_CONTEXT_WORD_OCCUPATIONS) continue;
          fit += Math.log(occupationCount / df);
          // By the share of its titles holding the word: an occupation of many titles holds many words once.
          score += Math.log(occupationCount / df) * (n / titles);
        }
        if (score > 0 && (!best || score > best.score || (score === best.score && employment(code) > employment(best.code)))) best = { code, fit, score };
      }
      return best && { code: best.code, fit: best.fit };
    },
    similar(text, limit) {
      trigrams ??= trigramIndex(keys);
      return trigrams.nearest(words(text).join(' '), limit).map((n) => ({ ...n, phrase: byKey.get(n.key)! }));
    },
  };
  return built;
}
