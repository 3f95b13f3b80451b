/**
 * Reference data: the one place for role families, metros, industries, seniorities and skills.
 * It feeds the corpus generator, criteria validation, the job-description extractor and
 * GET /reference/*. It imports nothing from the rest of src/: the domain builds on it. The big
 * tables are data files under ./data.
 */
import { escapeRegex } from '../domain/text';
import familyData from './data/role-families.json';
import industryData from './data/industries.json';
import metroData from './data/metros.json';
import skillAliasData from './data/skill-aliases.json';

/** Seniority levels, lowest first. */
export const SENIORITIES = ['intern', 'junior', 'mid', 'senior', 'lead', 'manager', 'director', 'vp', 'cxo'] as const;
export type Seniority = (typeof SENIORITIES)[number];
/** The levels that manage a department, whose titles name it ("Director of Finance", "CTO"). */
export const MANAGER_LEVELS: readonly Seniority[] = ['manager', 'director', 'vp', 'cxo'];

export interface RoleFamily {
  /** snake_case id used in criteria, e.g. `software_engineering`. */
  id: string;
  label: string;
  /** Base titles without seniority words, e.g. "Backend Engineer". */
  titles: string[];
  /** Skills people of this family list (reference skill names). */
  skills: string[];
  /** Industries where this family is most common (reference industry names). */
  industries: string[];
  /** Related families (ids), used when broadening a search. */
  adjacent: string[];
}

export interface Metro {
  /** kebab-case id used in criteria, e.g. `san-francisco-bay-area`. */
  id: string;
  label: string;
  city: string;
  region: string;
  country: string;
  /** Other names a job description might use, e.g. "SF", "Bay Area". */
  aliases: string[];
  /** Nearby metro ids, used when broadening a search. */
  neighbors: string[];
}

// ---------------------------------------------------------------------------------------------
// Industries (LinkedIn-style names; commas and slashes avoided so lists can be comma-separated)
// ---------------------------------------------------------------------------------------------

const INDUSTRY_NAMES: string[] = industryData.names;

/** Alphabetical (case-insensitive). */
export const INDUSTRIES: string[] = [...INDUSTRY_NAMES].sort(compareText);

/** Common spellings a job description or an older profile might use. */
const INDUSTRY_ALIASES: Record<string, string> = industryData.aliases;

// ---------------------------------------------------------------------------------------------
// Role families (data/role-families.json). `area`, `chiefs` etc. only drive title building and
// are stripped from the exported objects.
// ---------------------------------------------------------------------------------------------

interface FamilyDef extends RoleFamily {
  /** Department name used in management titles ("Director of <area>"). */
  area: string;
  chiefs: string[];
  juniorWords?: string[];
  leadWords?: string[];
  /** Uses "II"-style levels for mid. */
  levels?: boolean;
  internTitles?: string[];
  managerTitles?: string[];
  directorTitles?: string[];
  vpTitles?: string[];
}

const FAMILY_DEFS: FamilyDef[] = familyData;

export const ROLE_FAMILIES: RoleFamily[] = FAMILY_DEFS.map((f) => ({
  id: f.id,
  label: f.label,
  titles: f.titles,
  skills: f.skills,
  industries: f.industries,
  adjacent: f.adjacent,
}));

/** Every skill any family lists, unique, sorted case-insensitively. */
export const SKILLS: string[] = [...new Set(ROLE_FAMILIES.flatMap((f) => f.skills))].sort(compareText);

/** Common short forms; targets are reference skill names (checked by the unit test). */
const SKILL_ALIASES: Record<string, string> = skillAliasData;

// ---------------------------------------------------------------------------------------------
// Metros
// ---------------------------------------------------------------------------------------------

export const METROS: Metro[] = metroData;

/** Distinct countries of METROS, alphabetical. */
export const COUNTRIES: string[] = [...new Set(METROS.map((m) => m.country))].sort(compareText);

// ---------------------------------------------------------------------------------------------
// Seniority
// ---------------------------------------------------------------------------------------------

/** Typical years of experience (inclusive range) for each seniority. */
export const SENIORITY_YEARS: Record<Seniority, [number, number]> = {
  intern: [0, 1],
  junior: [0, 2],
  mid: [2, 5],
  senior: [5, 10],
  lead: [7, 14],
  manager: [6, 15],
  director: [10, 20],
  vp: [14, 25],
  cxo: [15, 30],
};

/**
 * Words that mark a seniority in a title, matched as whole words, case-insensitively.
 * Build titles with `buildTitle` (it knows which words go before or after the base title);
 * detect with `detectSeniority` (it checks the highest seniority first, so "Senior Director"
 * is a director and "Senior Manager" a manager). A title with none of these words is mid.
 */
export const SENIORITY_TITLE_WORDS: Record<Seniority, string[]> = {
  intern: ['Intern', 'Internship', 'Trainee', 'Student'],
  junior: ['Junior', 'Jr.', 'Associate', 'Graduate', 'Entry Level', 'Entry-Level'],
  mid: ['II', 'Intermediate', 'Mid-Level'],
  senior: ['Senior', 'Sr.', 'Sr', 'III'],
  lead: ['Lead', 'Staff', 'Principal', 'Team Lead', 'Tech Lead'],
  manager: ['Manager', 'Manager of', 'Senior Manager', 'Supervisor'],
  director: ['Director', 'Director of', 'Head of', 'Senior Director'],
  vp: ['VP', 'VP of', 'Vice President', 'Vice President of', 'SVP', 'EVP'],
  cxo: ['Chief', 'CEO', 'CTO', 'CFO', 'COO', 'CMO', 'CIO', 'CISO', 'CPO', 'CRO', 'CHRO', 'CDO', 'Founder', 'Co-Founder'],
};

// ---------------------------------------------------------------------------------------------
// Lookups (maps built once at module load)
// ---------------------------------------------------------------------------------------------

/** Case-, accent- and whitespace-insensitive key. */
function normKey(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
}

function industryKey(s: string): string {
  return normKey(s)
    .replace(/\s*\/\s*/g, ' & ')
    .replace(/ and /g, ' & ');
}

function compareText(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la < lb) return -1;
  if (la > lb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const FAMILY_BY_ID = new Map<string, RoleFamily>(ROLE_FAMILIES.map((f) => [normKey(f.id), f]));
const FAMILY_DEF_BY_ID = new Map<string, FamilyDef>(FAMILY_DEFS.map((f) => [f.id, f]));

const METRO_BY_KEY = new Map<string, Metro>();
for (const m of METROS) {
  for (const key of [m.id, m.label, m.city, ...m.aliases]) {
    const k = normKey(key);
    if (!METRO_BY_KEY.has(k)) METRO_BY_KEY.set(k, m);
  }
}

const INDUSTRY_BY_KEY = new Map<string, string>();
for (const name of INDUSTRIES) INDUSTRY_BY_KEY.set(industryKey(name), name);
for (const [alias, name] of Object.entries(INDUSTRY_ALIASES)) {
  const k = industryKey(alias);
  if (!INDUSTRY_BY_KEY.has(k)) INDUSTRY_BY_KEY.set(k, name);
}

const SKILL_BY_KEY = new Map<string, string>();
for (const name of SKILLS) SKILL_BY_KEY.set(normKey(name), name);
for (const [alias, name] of Object.entries(SKILL_ALIASES)) {
  const k = normKey(alias);
  if (!SKILL_BY_KEY.has(k)) SKILL_BY_KEY.set(k, name);
}

const INDUSTRIES_LOWER = INDUSTRIES.map((s) => s.toLowerCase());

/** Role family by id (case-insensitive). */
export function findFamily(id: string): RoleFamily | undefined {
  return FAMILY_BY_ID.get(normKey(id));
}

/** Metro by id, label, city or alias (case- and accent-insensitive). */
export function findMetro(idOrAlias: string): Metro | undefined {
  return METRO_BY_KEY.get(normKey(idOrAlias));
}

/** Canonical industry name for a spelling (case-insensitive; "and" = "&"; a few common aliases). */
export function canonicalIndustry(name: string): string | undefined {
  return INDUSTRY_BY_KEY.get(industryKey(name));
}

/** Canonical skill name for a spelling (case-insensitive; a few common aliases such as "k8s"). */
export function canonicalSkill(name: string): string | undefined {
  return SKILL_BY_KEY.get(normKey(name));
}

/** Industries containing `q` (case-insensitive): prefix matches first, then the rest, each alphabetical. */
export function searchIndustries(q: string | undefined, limit = 200): string[] {
  const n = Math.max(0, Math.floor(limit));
  const needle = (q ?? '').trim().toLowerCase();
  if (needle === '') return INDUSTRIES.slice(0, n);
  const prefix: string[] = [];
  const inner: string[] = [];
  for (let i = 0; i < INDUSTRIES.length; i++) {
    const at = INDUSTRIES_LOWER[i].indexOf(needle);
    if (at === 0) prefix.push(INDUSTRIES[i]);
    else if (at > 0) inner.push(INDUSTRIES[i]);
  }
  return prefix.concat(inner).slice(0, n);
}

// ---------------------------------------------------------------------------------------------
// Titles
// ---------------------------------------------------------------------------------------------

interface TitleTemplates {
  intern: string[];
  junior: string[];
  mid: string[];
  senior: string[];
  lead: string[];
}

const TITLE_PATTERNS = new Map<string, { prefix: TitleTemplates; fixed: Record<'manager' | 'director' | 'vp' | 'cxo', string[]>; area: string }>();
for (const f of FAMILY_DEFS) {
  TITLE_PATTERNS.set(f.id, {
    area: f.area,
    // '#' stands for the base title.
    prefix: {
      intern: f.internTitles ?? ['# Intern', `${f.area} Intern`],
      junior: (f.juniorWords ?? ['Junior']).map((w) => `${w} #`),
      mid: f.levels ? ['#', '#', '#', '# II'] : ['#'],
      senior: ['Senior #', 'Senior #', 'Sr. #'],
      lead: (f.leadWords ?? ['Lead']).map((w) => `${w} #`),
    },
    fixed: {
      manager: f.managerTitles ?? [`${f.area} Manager`, `Manager of ${f.area}`],
      director: f.directorTitles ?? [`Director of ${f.area}`, `Head of ${f.area}`, `Senior Director of ${f.area}`],
      vp: f.vpTitles ?? [`VP of ${f.area}`, `Vice President of ${f.area}`, `SVP of ${f.area}`],
      cxo: f.chiefs,
    },
  });
}

/**
 * A title for a seniority in a family, e.g. ('senior', 'software_engineering', 'Backend Engineer')
 * → "Senior Backend Engineer", ('director', 'software_engineering', …) → "Director of Engineering".
 * `variant` picks among the usual spellings (any integer; the same variant gives the same title).
 */
export function buildTitle(seniority: Seniority, familyId: string, baseTitle: string, variant = 0): string {
  const p = TITLE_PATTERNS.get(familyId) ?? TITLE_PATTERNS.get(FAMILY_DEF_BY_ID.get(normKey(familyId))?.id ?? '');
  const v = Math.abs(Math.floor(variant));
  if (!p) {
    if (seniority === 'mid') return baseTitle;
    if (seniority === 'intern') return `${baseTitle} Intern`;
    return `${SENIORITY_TITLE_WORDS[seniority][0]} ${baseTitle}`;
  }
  if (seniority === 'manager' || seniority === 'director' || seniority === 'vp' || seniority === 'cxo') {
    const list = p.fixed[seniority];
    return list[v % list.length];
  }
  const list = p.prefix[seniority];
  const t = list[v % list.length];
  const at = t.indexOf('#');
  return at < 0 ? t : t.slice(0, at) + baseTitle + t.slice(at + 1);
}

function wordsRegex(words: string[]): RegExp {
  const alt = [...words]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegex)
    .join('|');
  return new RegExp(`(?<![a-z0-9])(?:${alt})(?![a-z0-9])`, 'i');
}

/** Highest seniority first, so "Senior Director" is a director. */
const DETECT_ORDER: Seniority[] = ['cxo', 'vp', 'director', 'manager', 'lead', 'senior', 'junior', 'intern', 'mid'];
const SENIORITY_RES = DETECT_ORDER.map((s) => [s, wordsRegex(SENIORITY_TITLE_WORDS[s])] as const);

// Base titles that themselves contain a seniority word ("Product Manager") are removed before
// detection, so "Senior Product Manager" is senior and "Product Manager" is plain mid.
const BASE_TITLES_WITH_WORDS = FAMILY_DEFS.flatMap((f) => f.titles).filter((t) => SENIORITY_RES.some(([, re]) => re.test(t)));
const BASE_TITLES_RE = BASE_TITLES_WITH_WORDS.length > 0 ? new RegExp(wordsRegex(BASE_TITLES_WITH_WORDS).source, 'gi') : undefined;

/** Seniority a title states, or undefined when it names none (treat as mid). */
export function detectSeniority(title: string): Seniority | undefined {
  const t = BASE_TITLES_RE ? title.replace(BASE_TITLES_RE, ' ') : title;
  for (const [s, re] of SENIORITY_RES) if (re.test(t)) return s;
  return undefined;
}
