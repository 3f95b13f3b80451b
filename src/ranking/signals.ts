/**
 * The ranking signals, declared once (DESIGN.md §4): each has a name, a default weight, when it
 * applies, how the scorer computes it (0–1 with a reason for the breakdown) and its term in the
 * SQL retrieval estimate (the same rule over the people table's columns), or says why it can
 * only be scored after a profile is read. The weights type and schema, the scoring-change body,
 * the scorer and the retrieval order all derive from this table; test/unit/signals.test.ts fails
 * when a signal has neither a retrieval term nor a reason.
 *
 * Adding a signal: one entry here (scorer rule, SQL twin), the criteria field it reads, and the
 * people-table column its SQL reads (a migration); nothing else has to know it exists.
 */
import type { ResolvedCriteria } from '../domain/criteria';
import { SENIORITIES, type PersonProfile, type Seniority } from '../domain/profile';
import { findFamily } from '../reference/taxonomy';
import { locationSql, placesOf, scoreLocation, type PlaceQuery } from './location';
import { departmentTitlesOnly, titleMatch, titleTokens } from './title-match';
import { broadOccupationOf, occupations, socOf } from '../reference/occupations';

export interface SignalScore {
  /** 0–1. */
  match: number;
  /** For the breakdown: why this match, e.g. "12 km from Leeds". */
  reason: string;
}

/** What the retrieval estimate's SQL terms read: the criteria, prepared once per query. */
export interface RankedQuery {
  /** Per signal; 0 when the search does not use it. */
  weights: Record<SignalName, number>;
  family: string | null;
  adjacentFamilies: string[];
  /** Wanted titles as the corpus writes them: a person's title matches one when it has all of its words. */
  titles: string[];
  /** The titles are manager-and-up titles of the wanted levels: a person at another level matches them half. */
  titlesNameLevel: boolean;
  /** Wanted O*NET-SOC codes, most wanted first. */
  occupations: string[];
  /** Every code of the wanted codes' SOC broad occupations ("29-105…"), for the index. */
  occupationNeighbours: string[];
  seniorities: string[];
  /** Levels one step from a wanted one (half a match, as the scorer counts them). */
  nearSeniorities: string[];
  places: PlaceQuery;
  /** Skills as written in criteria; compared case-insensitively. */
  skills: string[];
  years: { min: number | null; max: number | null };
  industries: string[];
  /** Lower-case company names left out. */
  excludedCompanies: string[];
}

export interface RetrievalTerm {
  /** 0–1 over the people table's columns (and the statement's `q` CTE of title queries), with its named bindings. */
  sql(q: RankedQuery): { sql: string; bindings: Record<string, unknown> };
}

export interface Signal {
  name: string;
  defaultWeight: number;
  /** What it measures, for GET /reference/criteria and the docs. */
  describes: string;
  applies(c: ResolvedCriteria): boolean;
  score(person: PersonProfile, c: ResolvedCriteria): SignalScore;
  /** Its SQL twin, or why it is only scored once a profile is read. */
  retrieval: RetrievalTerm | { scoredAfterReading: string };
}

// ---- helpers that tolerate malformed profiles ----

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.map(str).filter((s) => s !== '') : []);
const lower = (s: string) => s.toLowerCase();

/**
 * Each wanted skill as a named SQL binding of the ways people's skills write it (as written or in
 * lower case: the corpus and the live sources), for the skills term and the retrieval's skills tier.
 */
export const wantedSkillBindings = (q: Pick<RankedQuery, 'skills'>, prefix: string) =>
  q.skills.map((skill, i) => [`${prefix}${i}`, [...new Set([skill, lower(skill)])]] as const);
const nonEmpty = <T>(v: readonly T[] | undefined): v is readonly T[] => Array.isArray(v) && v.length > 0;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** How much a manager-and-up title of the wanted department matches at another level than the wanted ones. */
export const OTHER_LEVEL_TITLE = 0.5;
/** How much a wanted title after the first matches: the first is the one asked for. */
const LATER_TITLE = 0.9;

/** Years outside the wanted range at which the years match reaches 0. */
export const YEARS_DECAY = 5;

export function experienceOf(profile: PersonProfile): { title: string; company: string; industry: string }[] {
  const raw: unknown = (profile as { experience?: unknown }).experience;
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    .map((e) => ({ title: str(e.title), company: str(e.company), industry: str(e.industry) }));
}

function seniorityMatch(person: unknown, wanted: readonly Seniority[]): number {
  const idx = SENIORITIES.indexOf(person as Seniority);
  if (idx < 0) return 0;
  if (wanted.includes(person as Seniority)) return 1;
  return wanted.some((w) => Math.abs(SENIORITIES.indexOf(w) - idx) === 1) ? 0.5 : 0;
}

/** How near a person's occupation is to the wanted ones (the scorer's rule; the SQL twin is in SIGNALS). */
export function occupationMatch(code: string, wanted: readonly string[]): number {
  if (wanted.length === 0 || code === '') return 0;
  if (code === wanted[0]) return 1;
  if (wanted.includes(code)) return 0.8;
  if (wanted.some((w) => socOf(w) === socOf(code))) return 0.75;
  return wanted.some((w) => broadOccupationOf(w) === broadOccupationOf(code)) ? 0.5 : 0;
}

/** The skills a search asks for: skills and must-haves, de-duplicated case-insensitively. */
export function requestedSkills(c: Pick<ResolvedCriteria, 'skills' | 'must_have_skills'>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of [...(c.skills ?? []), ...(c.must_have_skills ?? [])]) {
    if (!seen.has(lower(s))) {
      seen.add(lower(s));
      out.push(s);
    }
  }
  return out;
}

/** How many of the title signal's three parts (title words, family, level) a query uses. */
const titleParts = (q: Pick<RankedQuery, 'titles' | 'family' | 'seniorities'>) =>
  (q.titles.length ? 1 : 0) + (q.family ? 1 : 0) + (q.seniorities.length ? 1 : 0);

/**
 * Who a person is (title words, family, level: three parts that weigh the same) and where decide
 * the score; skills, years and industry order people within that. So a recruiter's "senior
 * backend engineer in Toronto" ranks every senior backend engineer in Toronto above a mid-level
 * one with more of the listed skills.
 */
export const SIGNALS = [
  {
    name: 'title',
    defaultWeight: 60,
    describes:
      'The role: the average of the parts the search uses: the best match of the current title with a wanted title (alias-aware; a title after the first counts 0.9; a manager-and-up title of the wanted department at another level than the wanted ones counts half), the family (1 equal, 0.5 adjacent) and the seniority (1 listed, 0.5 one level away).',
    applies: (c) => nonEmpty(c.titles) || !!c.family || nonEmpty(c.seniority),
    score(profile, c) {
      const parts: { match: number; reason: string }[] = [];
      const title = str(profile.title);
      if (nonEmpty(c.titles)) {
        let best: { match: number; alias?: string; whole?: boolean } = { match: 0 };
        let bestTitle = c.titles[0];
        for (const [k, wanted] of c.titles.entries()) {
          const found = titleMatch(title, wanted);
          // The first title is the one the brief names; the others are its near titles.
          const m = { ...found, match: k === 0 ? found.match : found.match * LATER_TITLE, whole: found.match === 1 };
          if (m.match > best.match) {
            best = m;
            bestTitle = wanted;
          }
        }
        // "Operations Manager" names a level too: a Director of Operations is the department at another level.
        const otherLevel = best.match > 0 && nonEmpty(c.seniority) && !c.seniority.includes(str(profile.seniority) as Seniority) && departmentTitlesOnly(c);
        if (otherLevel) best = { ...best, match: best.match * OTHER_LEVEL_TITLE };
        const alias = best.alias ? ` (${best.alias})` : '';
        const reason =
          title === ''
            ? 'no current title on profile'
            : best.whole && !otherLevel
              ? `${title} matches title '${bestTitle}'${alias}`
              : best.match > 0
                ? `${title} partly matches title '${bestTitle}'${alias}${otherLevel ? ', at another level' : ''}`
                : `${title} matches no wanted title`;
        parts.push({ match: best.match, reason });
      }
      if (c.family) {
        const family = str(profile.family);
        const adjacent = findFamily(c.family)?.adjacent ?? [];
        const match = family === c.family ? 1 : family !== '' && adjacent.includes(family) ? 0.5 : 0;
        const reason =
          match === 1 ? `family ${family}` : match > 0 ? `family ${family} is adjacent to ${c.family}` : `family ${family || 'none'}, not ${c.family}`;
        parts.push({ match, reason });
      }
      if (nonEmpty(c.seniority)) {
        const level = str(profile.seniority);
        const match = seniorityMatch(level, c.seniority);
        const reason =
          match === 1
            ? `seniority ${level}`
            : match > 0
              ? `seniority ${level}, one level from ${c.seniority.join('/')}`
              : `seniority ${level || 'unknown'}, not ${c.seniority.join('/')}`;
        parts.push({ match, reason });
      }
      return { match: parts.reduce((s, p) => s + p.match, 0) / parts.length, reason: parts.map((p) => p.reason).join('; ') };
    },
    retrieval: {
      sql: (q) => ({
        sql: `((search_vector @@ any(q.titles))::int * :titleHasTitles
               * (case when :titleNamesLevel = 1 and not (seniority = any(:titleSeniorities::text[])) then ${OTHER_LEVEL_TITLE} else 1 end)
               + (case when family = :titleFamily then 1 when family = any(:titleAdjacent::text[]) then 0.5 else 0 end)
               + (case when seniority = any(:titleSeniorities::text[]) then 1 when seniority = any(:titleNearSeniorities::text[]) then 0.5 else 0 end)) / ${Math.max(1, titleParts(q))}.0`,
        bindings: {
          titleHasTitles: q.titles.length ? 1 : 0,
          titleNamesLevel: q.titlesNameLevel ? 1 : 0,
          titleFamily: q.family ?? '',
          titleAdjacent: q.adjacentFamilies,
          titleSeniorities: q.seniorities,
          titleNearSeniorities: q.nearSeniorities,
        },
      }),
    },
  },
  {
    name: 'occupation',
    defaultWeight: 20,
    describes:
      'The occupation (O*NET-SOC 2019): 1 for the first wanted code, 0.8 for another wanted code, 0.75 for the same SOC occupation (another O*NET speciality of it), 0.5 for the same SOC broad occupation.',
    applies: (c) => nonEmpty(c.occupations),
    score(profile, c) {
      const occupation = (profile as { occupation?: unknown }).occupation as { onet_code?: unknown; title?: unknown } | null | undefined;
      const code = str(occupation?.onet_code);
      const wanted = c.occupations ?? [];
      const named = (x: string) => `${occupations().byCode(x)?.title ?? x} ${x.replace(/\.00$/, '')}`;
      if (code === '') return { match: 0, reason: 'no occupation on profile' };
      const match = occupationMatch(code, wanted);
      const title = str(profile.title);
      const own = `${title ? `${title}: ` : ''}occupation ${named(code)}`;
      if (match >= 0.8) return { match, reason: own };
      if (match > 0) return { match, reason: `${own}, near ${named(wanted[0])}` };
      return { match, reason: `${own}, not ${named(wanted[0])}` };
    },
    retrieval: {
      sql: (q) => ({
        sql: `(case when onet_code = :occFirst then 1 when onet_code = any(:occWanted::text[]) then 0.8
               when left(onet_code, 7) = any(:occSoc::text[]) then 0.75 when onet_code = any(:occNeighbours::text[]) then 0.5 else 0 end)`,
        bindings: {
          occFirst: q.occupations[0] ?? '',
          occWanted: q.occupations,
          occSoc: q.occupations.map(socOf),
          occNeighbours: q.occupationNeighbours,
        },
      }),
    },
  },
  {
    name: 'location',
    defaultWeight: 20,
    describes:
      'Where the person is: 1 within a city place’s radius, falling linearly to 0 at twice the radius; 1 inside a wanted region or country; the best of the wanted places.',
    applies: (c) => placesOf(c).length > 0,
    score: (profile, c) => scoreLocation(profile.location, placesOf(c)),
    retrieval: { sql: (q) => locationSql(q.places) },
  },
  {
    name: 'years',
    defaultWeight: 5,
    describes: 'Years of experience: 1 inside [min, max], falling linearly to 0 at 5 years outside.',
    applies: (c) => c.years_experience?.min !== undefined || c.years_experience?.max !== undefined,
    score(profile, c) {
      const { min, max } = c.years_experience ?? {};
      const range = min !== undefined && max !== undefined ? `${min}–${max}` : min !== undefined ? `${min}+` : `at most ${max}`;
      const years = profile.years_experience;
      if (typeof years !== 'number' || !Number.isFinite(years)) return { match: 0, reason: 'no years of experience on profile' };
      const below = min !== undefined && years < min ? min - years : 0;
      const above = max !== undefined && years > max ? years - max : 0;
      const off = Math.max(below, above);
      const match = Math.max(0, 1 - off / YEARS_DECAY);
      return { match, reason: off === 0 ? `${years} years, within ${range}` : `${years} years, ${round2(off)} ${below > 0 ? 'below' : 'above'} ${range}` };
    },
    retrieval: {
      sql: (q) => ({
        sql: `greatest(0, 1 - greatest(coalesce(:yearsMin::float8 - years_experience, 0), coalesce(years_experience - :yearsMax::float8, 0), 0) / ${YEARS_DECAY}.0)`,
        bindings: { yearsMin: q.years.min, yearsMax: q.years.max },
      }),
    },
  },
  {
    name: 'industry',
    defaultWeight: 5,
    describes: 'Industry: 1 when the current industry is wanted, 0.5 when a past position’s is.',
    applies: (c) => nonEmpty(c.industries),
    score(profile, c) {
      const wanted = new Set((c.industries ?? []).map(lower));
      const experience = experienceOf(profile);
      const current = str(profile.industry) || (experience[0]?.industry ?? '');
      if (current && wanted.has(lower(current))) return { match: 1, reason: `current industry ${current} is wanted` };
      const past = experience.find((e) => e.industry !== '' && wanted.has(lower(e.industry)));
      if (past) return { match: 0.5, reason: `past industry ${past.industry} is wanted` };
      return { match: 0, reason: current ? `industry ${current} is not wanted` : 'no industry on profile' };
    },
    // The people table has the current industry only: the estimate counts it, the scorer also a past one.
    retrieval: {
      sql: (q) => ({ sql: `(lower(industry) = any(:industryWanted::text[]))::int`, bindings: { industryWanted: q.industries.map(lower) } }),
    },
  },
  {
    name: 'skills',
    defaultWeight: 10,
    describes: 'Skills: the share of the wanted skills (skills and must-haves) the person lists.',
    applies: (c) => requestedSkills(c).length > 0,
    score(profile, c) {
      const requested = requestedSkills(c);
      const personSkills = new Set(strList(profile.skills).map(lower));
      const has = requested.filter((s) => personSkills.has(lower(s)));
      const missing = requested.filter((s) => !personSkills.has(lower(s)));
      const listed = (xs: string[]) => (xs.length > 5 ? `${xs.slice(0, 5).join(', ')}, …` : xs.join(', '));
      const reason =
        has.length === requested.length
          ? `has all ${requested.length} wanted skills`
          : has.length === 0
            ? `has none of ${requested.length} wanted skills`
            : `has ${has.length} of ${requested.length} wanted skills; missing ${listed(missing)}`;
      return { match: has.length / requested.length, reason };
    },
    retrieval: {
      sql: (q) => {
        // Each wanted skill as written or in lower case (as the corpus and the live sources write
        // them): one array overlap per skill, counted as the scorer counts, with no subquery per
        // row (a family of 100,000 people paid 2 µs each for one). The overlap with them all
        // settles most rows first.
        const wanted = wantedSkillBindings(q, 'skillsWanted');
        const count = wanted.map(([name]) => `(skills && :${name}::text[])::int`).join(' + ') || '0';
        return {
          sql: `(case when skills && :skillsOverlap::text[] then least(1, (${count})::float / greatest(1, :skillsCount::int)) else 0 end)`,
          bindings: { ...Object.fromEntries(wanted), skillsCount: q.skills.length, skillsOverlap: [...new Set(wanted.flatMap(([, variants]) => variants))] },
        };
      },
    },
  },
  {
    name: 'similarity',
    defaultWeight: 30,
    describes:
      'How alike the person is to the search’s `like` examples: the average of their occupation (as the occupation signal counts it), the share of their skills the examples list, their title words, their industry and their level.',
    applies: (c) => !!c.likeness && c.likeness.examples > 0,
    score(profile, c) {
      const like = c.likeness!;
      const occupation = (profile as { occupation?: { onet_code?: unknown } | null }).occupation;
      const code = str(occupation?.onet_code);
      const skills = strList(profile.skills).map(lower);
      const titleWords = titleTokens(str(profile.title));
      const industry = lower(str(profile.industry));
      const level = str(profile.seniority);
      const shared = skills.filter((s) => like.skills.includes(s));
      const parts = [
        occupationMatch(code, like.occupations),
        skills.length ? Math.min(1, shared.length / Math.min(skills.length, 5)) : 0,
        titleWords.length ? titleWords.filter((w) => like.title_words.includes(w)).length / titleWords.length : 0,
        industry !== '' && like.industries.includes(industry) ? 1 : 0,
        like.seniority.length ? seniorityMatch(level, like.seniority) : 1,
      ];
      const match = parts.reduce((a, b) => a + b, 0) / parts.length;
      const said = [
        parts[0] > 0 ? `occupation ${code}` : '',
        shared.length ? `${shared.length} shared skill${shared.length > 1 ? 's' : ''}` : '',
        parts[3] ? `industry ${str(profile.industry)}` : '',
      ].filter(Boolean);
      return { match, reason: `like ${like.examples} example${like.examples > 1 ? 's' : ''}${said.length ? `: ${said.join(', ')}` : ': little in common'}` };
    },
    // The examples' shared values are in the criteria the retrieval reads; the likeness itself needs the whole profile.
    retrieval: { scoredAfterReading: 'compares whole profiles (skills, title words, industry, level) with the examples' },
  },
] as const satisfies readonly Signal[];

export type SignalName = (typeof SIGNALS)[number]['name'];
export type ScoringWeights = Record<SignalName, number>;
export const SIGNAL_NAMES: readonly SignalName[] = SIGNALS.map((s) => s.name);
export const DEFAULT_WEIGHTS: Readonly<ScoringWeights> = Object.freeze(Object.fromEntries(SIGNALS.map((s) => [s.name, s.defaultWeight])) as ScoringWeights);
export const signalNamed = (name: SignalName): Signal => SIGNALS.find((s) => s.name === name)!;

/**
 * A role outside every family is written many ways ("ECE", "Early childhood educator", "Preschool
 * Teacher"): its occupation says more than the words of a title, and where people are weighs as
 * much. Its defaults move weight from the title to the occupation and the place.
 */
export const OUTSIDE_FAMILY_WEIGHTS: Readonly<ScoringWeights> = Object.freeze({ ...DEFAULT_WEIGHTS, title: 40, occupation: 30, location: 30 });

/**
 * A lookalike search starts from people, not words: the examples' titles span levels ("Junior",
 * "Lead"), so title words weigh less, and where the examples are and what they do weigh more.
 */
export const LOOKALIKE_WEIGHTS: Readonly<ScoringWeights> = Object.freeze({ ...DEFAULT_WEIGHTS, title: 20, occupation: 30, location: 40 });

/** The default weights for a search's criteria: lookalike when it has examples, outside the families when it has occupations and no family. */
export const defaultWeightsFor = (c: Pick<ResolvedCriteria, 'occupations' | 'family' | 'likeness'> | undefined): Readonly<ScoringWeights> => {
  if (c?.likeness && c.likeness.examples > 0) return LOOKALIKE_WEIGHTS;
  return c && !c.family && (c.occupations?.length ?? 0) > 0 ? OUTSIDE_FAMILY_WEIGHTS : DEFAULT_WEIGHTS;
};
