/**
 * The words recruiters use for roles, as reference data (sources: docs/reference-sources.md):
 * every phrase that names a role of a family — the base titles, the manager-and-up titles the
 * corpus uses, curated aliases and abbreviations (data/role-vocabulary.json) and O*NET's
 * alternate titles (data/onet-titles.json) — plus the department words of each family and the
 * seniority words of briefs. The brief reader and title scoring both read it from here.
 */
import onetData from './data/onet-titles.json';
import vocabularyData from './data/role-vocabulary.json';
import { MANAGER_LEVELS, ROLE_FAMILIES, SENIORITIES, buildTitle, type Seniority } from './taxonomy';

/** Where a role phrase comes from, most trusted first. */
export type RolePhraseSource = 'title' | 'level-title' | 'alias' | 'onet';

/** The `family` of a phrase that names an occupation outside every role family ("head chef", "pharmacist"). */
export const NO_FAMILY = '';

export interface RolePhrase {
  phrase: string;
  /** A role family id, or NO_FAMILY. */
  family: string;
  /** The family's base title the phrase names, when it names one ("iOS developer" → "Mobile Engineer"). */
  title?: string;
  /** The level the phrase itself carries ("engineering manager" → manager, "CFO" → cxo). */
  seniority?: Seniority;
  source: RolePhraseSource;
  /** Matched case-sensitively (short abbreviations such as "PM", "AE", "RN"). */
  exact: boolean;
  /** The O*NET-SOC occupations the phrase names, most likely first (phrases of the O*NET vocabulary). */
  occupations?: readonly { code: string; weight: number }[];
}

interface VocabularyFile {
  families: Record<
    string,
    {
      /** Base titles that also name the whole family ("Software Engineer" for any software role). */
      umbrella?: string[];
      areas: string[];
      aliases: { phrase: string; title?: string; seniority?: string; exact?: boolean }[];
      skill_titles?: Record<string, string>;
    }
  >;
  seniority: Record<string, string[]>;
}

interface OnetFile {
  families: Record<string, string[]>;
}

const VOCABULARY = vocabularyData as VocabularyFile;
const ONET = onetData as unknown as OnetFile;

const isSeniority = (s: string | undefined): s is Seniority => s !== undefined && (SENIORITIES as readonly string[]).includes(s);

/** Titles the corpus writes for the manager-and-up levels of a family ("Director of Engineering", "CTO"). */
function levelTitles(familyId: string, baseTitle: string): { phrase: string; seniority: Seniority }[] {
  const out: { phrase: string; seniority: Seniority }[] = [];
  for (const seniority of MANAGER_LEVELS) {
    for (let variant = 0; variant < 6; variant++) {
      const phrase = buildTitle(seniority, familyId, baseTitle, variant);
      if (!out.some((o) => o.phrase === phrase)) out.push({ phrase, seniority });
    }
  }
  return out;
}

function buildPhrases(): RolePhrase[] {
  const out: RolePhrase[] = [];
  const seen = new Set<string>();
  const add = (p: RolePhrase) => {
    const key = `${p.exact ? p.phrase : p.phrase.toLowerCase()}|${p.family}`;
    if (p.phrase.trim() === '' || seen.has(key)) return;
    seen.add(key);
    out.push(p);
  };
  for (const f of ROLE_FAMILIES) {
    for (const title of f.titles) add({ phrase: title, family: f.id, title, source: 'title', exact: false });
    for (const t of levelTitles(f.id, f.titles[0])) add({ phrase: t.phrase, family: f.id, seniority: t.seniority, source: 'level-title', exact: false });
  }
  for (const [family, v] of Object.entries(VOCABULARY.families)) {
    for (const a of v.aliases) {
      add({
        phrase: a.phrase,
        family,
        ...(a.title ? { title: a.title } : {}),
        ...(isSeniority(a.seniority) ? { seniority: a.seniority } : {}),
        source: 'alias',
        exact: a.exact === true,
      });
    }
  }
  for (const [family, titles] of Object.entries(ONET.families)) {
    for (const phrase of titles) add({ phrase, family, source: 'onet', exact: false });
  }
  return out;
}

/** Every known role phrase (a phrase may name roles of two families: both entries are kept). */
export const ROLE_PHRASES: readonly RolePhrase[] = buildPhrases();

/** Department words per family ("Engineering", "Eng", "People", "Talent"), for "Head of <area>" and the like. */
export const FAMILY_AREAS: ReadonlyMap<string, readonly string[]> = new Map(
  ROLE_FAMILIES.map((f) => [f.id, [...new Set([...(VOCABULARY.families[f.id]?.areas ?? []), f.label])]]),
);

/** Brief words per seniority level, lower case ("staff", "head of", "early-career"). */
export const BRIEF_SENIORITY_WORDS: Readonly<Record<Seniority, readonly string[]>> = Object.fromEntries(
  SENIORITIES.map((s) => [s, (VOCABULARY.seniority[s] ?? []).map((w) => w.toLowerCase())]),
) as Record<Seniority, string[]>;

/** Skill (lower case) → the family's base title it points to ("swift" → Mobile Engineer of software_engineering). */
export const SKILL_TITLE_HINTS: ReadonlyMap<string, { family: string; title: string }[]> = (() => {
  const out = new Map<string, { family: string; title: string }[]>();
  for (const [family, v] of Object.entries(VOCABULARY.families)) {
    for (const [skill, title] of Object.entries(v.skill_titles ?? {})) {
      const key = skill.toLowerCase();
      out.set(key, [...(out.get(key) ?? []), { family, title }]);
    }
  }
  return out;
})();

/**
 * Technologies the curated titles are named after ("Elixir developer", "Informatica developer",
 * "FPGA engineer") → the family and base title of those titles: evidence of the family when a
 * brief names only the technology ("anyone here write Elixir?"). Only names written with a capital
 * or a symbol (a product or a language, not "backend" or "game"), and not the generic acronyms of
 * several kinds of work (API, UI, AI).
 */
export const TECHNOLOGY_TITLE_HINTS: ReadonlyMap<string, { written: string; family: string; title: string }[]> = (() => {
  // SOC 2 is an audit, NPI also a US provider number, CAD every drafting trade's tool, Shopify a shop.
  const generic = new Set([
    'api',
    'ui',
    'ux',
    'ai',
    'ml',
    'qa',
    'sqa',
    'it',
    'bi',
    'ai/ml',
    'ml/ai',
    'genai',
    'llm',
    'nlp',
    'js',
    'soc',
    'npi',
    'cad',
    'shopify',
  ]);
  const out = new Map<string, { written: string; family: string; title: string }[]>();
  for (const [family, v] of Object.entries(VOCABULARY.families)) {
    for (const a of v.aliases) {
      const m = /^(\S+) (?:developer|engineer|programmer)$/.exec(a.phrase);
      if (!m || !a.title || !/[A-Z.+#]/.test(m[1]) || generic.has(m[1].toLowerCase())) continue;
      const key = m[1].toLowerCase();
      if (!(out.get(key) ?? []).some((h) => h.family === family)) out.set(key, [...(out.get(key) ?? []), { written: m[1], family, title: a.title }]);
    }
  }
  return out;
})();

/** Family → its umbrella titles: base titles a recruiter uses for any role of the family. */
export const FAMILY_UMBRELLA_TITLES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(VOCABULARY.families).map(([family, v]) => [family, new Set(v.umbrella ?? [])]),
);
