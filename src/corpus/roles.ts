/**
 * What the corpus's people do (DESIGN.md §5). A role is either a role family (the 22 the service
 * was built on: their base titles, skills, industries and texts, src/corpus/data/family-text.json)
 * or an O*NET-SOC occupation outside every family, with its real titles, O*NET skills and
 * technology, and employers of plausible industries (src/corpus/data/occupation-groups.json).
 * The workforce draw weighs both by US employment (BLS OEWS May 2024, src/reference/data/occupations).
 */
import familyTextData from './data/family-text.json';
import occupationGroupData from './data/occupation-groups.json';
import { COMPANIES_BY_INDUSTRY } from './companies';
import { cumulative } from './rng';
import type { Seniority } from '../domain/profile';
import { familyManagerOccupation, familyTitleOccupation, isMilitaryOccupation, occupations, type Occupation } from '../reference/occupations';
import { MANAGER_LEVELS, ROLE_FAMILIES, SENIORITIES, buildTitle, detectSeniority } from '../reference/taxonomy';

/** The sentences and degrees of a role. */
export interface RoleText {
  /** Probability the employer is in one of the role's industries. */
  affinity: number;
  /** Gerund phrase: "… years of experience <phrase>", "passionate about <phrase>". */
  phrase: string;
  /** Lower-case work objects for experience descriptions. */
  objects: string[];
  projects: string[];
  certs: string[];
  fields: string[];
  /** First degrees; empty: nobody in the role studies for it. */
  bachelors: string[];
  /** [degree, field or '' for one of `fields`] pairs */
  masters: string[][];
  /** Share of people with two degrees. */
  twoDegrees: number;
  /** Share of people with no degree at all. */
  noDegree: number;
}

export interface RoleSpec {
  /** The role family, or '' outside the families. */
  family: string;
  text: RoleText;
  /** The skills people of the role list (5–15 of them, from these). */
  skills: readonly string[];
  /** Other roles' skills a few people add (adjacent families). */
  extraSkills: readonly (readonly string[])[];
  baseTitles: readonly string[];
  /** The occupation of a person of the role: of the base title, or of the title at their level. */
  occupationOf(baseTitle: string, title: string, seniority: Seniority): { onet_code: string; title: string };
  /** A title at a level (the base title and the variant of spelling). */
  titleFor(seniority: Seniority, baseTitle: string, variant: number): string;
  /** The level a base title states itself ("Pharmacy Manager"); it wins over the drawn one. */
  statedLevel(baseTitle: string): Seniority | undefined;
  seniorityCum: Float64Array;
  /** Company indices of the role's industries. */
  companies: Int32Array;
  /** Companies of related roles (adjacent families), picked when not in the role's own industries. */
  related: Int32Array[];
}

const FAMILY_TEXT: Record<string, Omit<RoleText, 'noDegree'> & { weight: number }> = familyTextData;
const GROUPS: Record<string, { industries: string[]; fields: string[] }> = occupationGroupData.groups;

const weightsOf = (w: Partial<Record<Seniority, number>>) => cumulative(SENIORITIES.map((s) => w[s] ?? 0));
/** Levels of the families' people, as before the open world. */
const FAMILY_SENIORITY = weightsOf({ intern: 2, junior: 11, mid: 28, senior: 27, lead: 10, manager: 10, director: 7, vp: 3, cxo: 2 });

const companiesOf = (industries: readonly string[]) => Int32Array.from(industries.flatMap((i) => [...(COMPANIES_BY_INDUSTRY.get(i) ?? [])]));

// ---- the families ----

function familyRoles(): RoleSpec[] {
  const index = new Map(ROLE_FAMILIES.map((f, i) => [f.id, i]));
  const companies = ROLE_FAMILIES.map((f) => companiesOf(f.industries));
  return ROLE_FAMILIES.map((f, i) => {
    const text = FAMILY_TEXT[f.id];
    if (!text) throw new Error(`corpus roles: no texts for family ${f.id}`);
    if (companies[i].length === 0) throw new Error(`corpus roles: no companies for family ${f.id}`);
    const adjacent = f.adjacent.map((id) => index.get(id)).filter((x): x is number => x !== undefined);
    return {
      family: f.id,
      // Nurses always hold a degree (nearly: 7 % have none in other families).
      text: { ...text, noDegree: f.id === 'healthcare_nursing' ? 0 : 0.07 },
      skills: f.skills,
      extraSkills: adjacent.map((a) => ROLE_FAMILIES[a].skills),
      baseTitles: f.titles,
      occupationOf(base, title, seniority) {
        // A manager and up of the family holds its management occupation ("Director of Finance": Financial Managers).
        const managing = MANAGER_LEVELS.includes(seniority) ? familyManagerOccupation(f.id, title) : undefined;
        const code = managing ?? familyTitleOccupation(f.id, base);
        const o = code ? occupations().byCode(code) : undefined;
        if (!o) throw new Error(`corpus roles: no occupation for ${f.id} title ${base}`);
        return { onet_code: o.code, title: o.title };
      },
      titleFor: (seniority, base, variant) => buildTitle(seniority, f.id, base, variant),
      statedLevel: () => undefined,
      seniorityCum: FAMILY_SENIORITY,
      companies: companies[i],
      related: adjacent.map((a) => companies[a]),
    };
  });
}

// ---- occupations outside the families ----

/** The group entry of a code: the longest prefix listed ("29-1051" before "29-1" before "29"). */
function groupOf(code: string): { industries: string[]; fields: string[] } {
  for (let n = 7; n >= 2; n--) {
    const g = GROUPS[code.slice(0, n)];
    if (g) return g;
  }
  return { industries: ['Consumer Services'], fields: ['General Studies'] };
}

/**
 * Titles recruiters see: the occupation's reported titles; when it has few, alternates that share a
 * word with the occupation's own title (no abbreviations, parentheses or commas); else its title.
 */
function titlesOf(o: Occupation, byCode: Map<string, { title: string; source: string }[]>): string[] {
  const usable = (t: string) => t.length <= 40 && !/[(),/]/.test(t) && /^[A-Z]/.test(t) && !/\b[A-Z]{2,}\b/.test(t);
  const stems = new Set(
    o.title
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 3)
      .map((w) => w.replace(/(?:ers|ors|ists|s)$/, '')),
  );
  const related = (t: string) =>
    t
      .toLowerCase()
      .split(/[^a-z]+/)
      .some((w) => w.length > 3 && stems.has(w.replace(/(?:ers|ors|ists|s)$/, '')));
  const all = byCode.get(o.code) ?? [];
  const reported = all
    .filter((t) => t.source === 'reported')
    .map((t) => t.title)
    .filter(usable);
  const alternates = all
    .filter((t) => t.source !== 'reported')
    .map((t) => t.title)
    .filter((t) => usable(t) && related(t))
    .sort((a, b) => a.length - b.length || a.localeCompare(b));
  const out = [...new Set([...reported.slice(0, 10), ...(reported.length < 4 ? alternates.slice(0, 6 - reported.length) : [])])];
  if (out.length) return out;
  // "… , All Other" occupations: their shortest usable titles, whatever their words.
  const any = all
    .map((t) => t.title)
    .filter(usable)
    .sort((a, b) => a.length - b.length || a.localeCompare(b));
  return any.length ? any.slice(0, 6) : [o.title.replace(/, All Other$/, '').replace(/s$/, '')];
}

// Management occupations' titles state their level ("Pharmacy Manager", "Chief Executive"); the
// few that do not ("Funeral Home Owner") read as mid, so their people are drawn as others are.
const levelWeights = (jobZone: number | null) =>
  (jobZone ?? 3) <= 2
    ? weightsOf({ junior: 30, mid: 50, senior: 15, lead: 5 })
    : jobZone === 3
      ? weightsOf({ junior: 20, mid: 45, senior: 25, lead: 10 })
      : weightsOf({ intern: 1, junior: 15, mid: 35, senior: 32, lead: 12 });

const DEGREES: Record<number, { noDegree: number; bachelors: string[]; twoDegrees: number; masters: string[][] }> = {
  1: { noDegree: 0.85, bachelors: ['Certificate'], twoDegrees: 0, masters: [] },
  2: { noDegree: 0.6, bachelors: ['Certificate', 'Associate Degree'], twoDegrees: 0, masters: [] },
  3: { noDegree: 0.25, bachelors: ['Associate Degree', 'Certificate', 'Bachelor of Science'], twoDegrees: 0.05, masters: [['Bachelor of Science', '']] },
  4: {
    noDegree: 0.05,
    bachelors: ['Bachelor of Science', 'Bachelor of Arts'],
    twoDegrees: 0.25,
    masters: [
      ['Master of Science', ''],
      ['Master of Arts', ''],
    ],
  },
  5: {
    noDegree: 0.01,
    bachelors: ['Bachelor of Science', 'Bachelor of Arts'],
    twoDegrees: 0.7,
    masters: [
      ['Master of Science', ''],
      ['PhD', ''],
    ],
  },
};

const GENERIC_OBJECTS = [
  'day-to-day operations',
  'quality and safety standards',
  'training new colleagues',
  'scheduling and planning',
  'service to customers',
  'records and reporting',
];

function occupationRole(o: Occupation, byCode: Map<string, { title: string; source: string }[]>): RoleSpec {
  const group = groupOf(o.code);
  const degrees = DEGREES[o.job_zone ?? 3];
  const skills = [...new Set([...o.technology.slice(0, 10), ...o.skills.slice(0, 8)])];
  const companies = companiesOf(group.industries);
  const field = group.fields[0];
  return {
    family: '',
    text: {
      affinity: 0.85,
      phrase: `working in ${field.toLowerCase()}`,
      objects: GENERIC_OBJECTS,
      projects: [],
      certs: [],
      fields: group.fields,
      bachelors: degrees.bachelors,
      masters: degrees.masters,
      twoDegrees: degrees.twoDegrees,
      noDegree: degrees.noDegree,
    },
    skills: skills.length >= 5 ? skills : [...skills, 'Communication', 'Teamwork', 'Time Management', 'Problem Solving', 'Attention to Detail'].slice(0, 8),
    extraSkills: [],
    baseTitles: titlesOf(o, byCode),
    occupationOf: () => ({ onet_code: o.code, title: o.title }),
    titleFor(seniority, base) {
      if (seniority === 'junior') return `Junior ${base}`;
      if (seniority === 'senior') return `Senior ${base}`;
      if (seniority === 'lead') return `Lead ${base}`;
      if (seniority === 'intern') return `${base} Intern`;
      return base;
    },
    statedLevel: (base) => detectSeniority(base),
    seniorityCum: levelWeights(o.job_zone),
    companies: companies.length ? companies : companiesOf(['Consumer Services']),
    related: [],
  };
}

export interface Roles {
  families: RoleSpec[];
  /** Relative share of each family among the families' people. */
  familyCum: Float64Array;
  /**
   * The whole workforce in proportion to employment: every occupation outside the families (at
   * least WORKFORCE_FLOOR_EMPLOYMENT), then each family weighted by the employment of the
   * occupations mapped to it (`workforceRole`).
   */
  workforceCum: Float64Array;
  workforceRole(i: number): RoleSpec;
  /** The longest skill list of any role (scratch space for sampling). */
  maxSkills: number;
}

/**
 * The least an occupation outside the families weighs in the workforce draw, as US employment:
 * about 20 people in a 200,000-person corpus, 100 in 1M. In proportion to employment alone, half
 * the occupations had fewer than 25 people in 200,000 and 127 fewer than 5 (boilermakers 2, fishers
 * none: OEWS counts employees only), so a search for them filled no page. The floor moves about 5 %
 * of the workforce from the largest occupations to the smallest.
 */
export const WORKFORCE_FLOOR_EMPLOYMENT = 30_000;

/** An occupation's weight in the workforce draw: its US employment, at least the floor. */
const workforceWeight = (o: Occupation) => Math.max(o.employment ?? 0, WORKFORCE_FLOOR_EMPLOYMENT);

export function createRoles(): Roles {
  const families = familyRoles();
  const outside = occupations().all.filter((o) => o.family === null && !isMilitaryOccupation(o.code));
  const familyEmployment = new Map<string, number>();
  for (const o of occupations().all) if (o.family) familyEmployment.set(o.family, (familyEmployment.get(o.family) ?? 0) + (o.employment ?? 0));
  const byCode = new Map<string, { title: string; source: string }[]>();
  for (const t of occupations().titles()) {
    const list = byCode.get(t.code);
    if (list) list.push(t);
    else byCode.set(t.code, [t]);
  }
  const built = new Map<number, RoleSpec>();
  const occupationSkillMax = Math.max(...outside.map((o) => Math.min(10, o.technology.length) + Math.min(8, o.skills.length)), 8);
  return {
    families,
    familyCum: cumulative(ROLE_FAMILIES.map((f) => FAMILY_TEXT[f.id].weight)),
    workforceCum: cumulative([...outside.map(workforceWeight), ...families.map((f) => familyEmployment.get(f.family) ?? 0)]),
    workforceRole(i) {
      if (i >= outside.length) return families[i - outside.length];
      let role = built.get(i);
      if (!role) built.set(i, (role = occupationRole(outside[i], byCode)));
      return role;
    },
    maxSkills: Math.max(16, occupationSkillMax, ...families.map((f) => f.skills.length)),
  };
}
