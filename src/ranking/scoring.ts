/**
 * Scoring: profile × criteria → integer 0–100 with a per-criterion breakdown. Pure and
 * deterministic (no clock, no randomness), so a re-score of the same people gives the same numbers.
 *
 * Rules
 * - A criterion counts only when the search uses it and its weight is > 0; the score is
 *   100 × Σ(weight × match) / Σ(weight) over those criteria, rounded and clamped to 0–100.
 *   No counted criterion at all → 0 (nothing to judge means nobody is auto-shortlisted).
 * - title (titles, family or seniority given): average of the present parts: titles = best match with any wanted title, alias-aware (the same role under a
 *   known other name matches fully, the reason naming the alias; else a Dice overlap of the
 *   title words weighted by their rarity, seniority modifiers ignored: role-match.ts); family = 1 equal,
 *   0.5 adjacent family, else 0; seniority = 1 listed, 0.5 one level away, else 0.
 * - location (metro or locations given): 1 in the metro, in a listed metro or in a listed country;
 *   0.5 in a neighbour of a wanted metro; 0.25 same country as a wanted metro; else 0.
 * - years (min or max given): 1 inside [min, max], falling linearly to 0 at 5 years outside.
 * - industry: 1 current industry listed, 0.5 a past position's industry listed, else 0.
 * - skills (skills ∪ must_have_skills): share of those the person lists (case-insensitive).
 * - A missing must-have skill caps the score at 40 and is listed in `must_have_missing`.
 * - Currently at an excluded company (case-insensitive) → score 0, `excluded: true`.
 * - Missing or malformed profile fields count as no match; they never throw.
 */
import { findFamily, findMetro } from '../reference/taxonomy';
import type { ResolvedCriteria } from '../domain/criteria';
import { SENIORITIES, type PersonProfile, type Seniority } from '../domain/profile';
import { titleMatch } from './title-match';

export interface ScoringWeights {
  title: number;
  location: number;
  years: number;
  industry: number;
  skills: number;
}

/**
 * Who a person is (role, level: the title criterion, whose three parts weigh the same) and where
 * (location) decide the score; skills, years and industry order people within that. So a
 * recruiter's "senior backend engineer in Toronto" ranks every senior backend engineer in Toronto
 * above a mid-level one with more of the listed skills.
 */
export const DEFAULT_WEIGHTS: Readonly<ScoringWeights> = Object.freeze({ title: 60, location: 20, years: 5, industry: 5, skills: 10 });

export type CriterionName = keyof ScoringWeights;

export interface CriterionScore {
  criterion: CriterionName;
  weight: number;
  /** 0..1 */
  match: number;
  /** Rounded contribution to the 0–100 score. */
  points: number;
  reason: string;
}

export interface ScoreResult {
  score: number;
  breakdown: CriterionScore[];
  must_have_missing: string[];
  excluded: boolean;
}

export const MUST_HAVE_CAP = 40;
/** Years outside the wanted range at which the years match reaches 0. */
export const YEARS_DECAY = 5;

const CRITERIA_ORDER: readonly CriterionName[] = ['title', 'location', 'years', 'industry', 'skills'];

// ---- helpers that tolerate malformed profiles ----

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const strList = (v: unknown): string[] => (Array.isArray(v) ? v.map(str).filter((s) => s !== '') : []);
const lower = (s: string) => s.toLowerCase();
const nonEmpty = <T>(v: readonly T[] | undefined): v is readonly T[] => Array.isArray(v) && v.length > 0;
const round2 = (n: number) => Math.round(n * 100) / 100;
/** Rounds after trimming float noise, so e.g. 79.99999999 and 80.00000001 both give 80. */
const roundInt = (n: number) => Math.round(Math.round(n * 1e6) / 1e6);

function experienceOf(profile: PersonProfile): { title: string; company: string; industry: string }[] {
  const raw: unknown = (profile as { experience?: unknown }).experience;
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    .map((e) => ({ title: str(e.title), company: str(e.company), industry: str(e.industry) }));
}

// ---- title ----

function seniorityMatch(person: unknown, wanted: readonly Seniority[]): number {
  const idx = SENIORITIES.indexOf(person as Seniority);
  if (idx < 0) return 0;
  if (wanted.includes(person as Seniority)) return 1;
  return wanted.some((w) => Math.abs(SENIORITIES.indexOf(w) - idx) === 1) ? 0.5 : 0;
}

function scoreTitle(profile: PersonProfile, c: ResolvedCriteria): { match: number; reason: string } | undefined {
  const parts: { weight: number; match: number; reason: string }[] = [];
  const title = str(profile.title);
  if (nonEmpty(c.titles)) {
    let best: { match: number; alias?: string } = { match: 0 };
    let bestTitle = c.titles[0];
    for (const wanted of c.titles) {
      const m = titleMatch(title, wanted);
      if (m.match > best.match) {
        best = m;
        bestTitle = wanted;
      }
    }
    const reason =
      title === ''
        ? 'no current title on profile'
        : best.match === 1
          ? `${title} matches title '${bestTitle}'${best.alias ? ` (${best.alias})` : ''}`
          : best.match > 0
            ? `${title} partly matches title '${bestTitle}'${best.alias ? ` (${best.alias})` : ''}`
            : `${title} matches no wanted title`;
    parts.push({ weight: 1, match: best.match, reason });
  }
  if (c.family) {
    const family = str(profile.family);
    const adjacent = findFamily(c.family)?.adjacent ?? [];
    const match = family === c.family ? 1 : family !== '' && adjacent.includes(family) ? 0.5 : 0;
    const reason =
      match === 1 ? `family ${family}` : match > 0 ? `family ${family} is adjacent to ${c.family}` : `family ${family || 'unknown'}, not ${c.family}`;
    parts.push({ weight: 1, match, reason });
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
    parts.push({ weight: 1, match, reason });
  }
  if (parts.length === 0) return undefined;
  const total = parts.reduce((s, p) => s + p.weight, 0);
  const match = parts.reduce((s, p) => s + p.weight * p.match, 0) / total;
  return { match, reason: parts.map((p) => p.reason).join('; ') };
}

// ---- location ----

function countryOf(metroId: string, location: string): string {
  const metro = metroId ? findMetro(metroId) : undefined;
  if (metro) return metro.country;
  // Profiles print "City, Region, Country"; the last part is the best guess without a metro.
  const parts = location
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return parts.length > 1 ? (parts[parts.length - 1] ?? '') : '';
}

function scoreLocation(profile: PersonProfile, c: ResolvedCriteria): { match: number; reason: string } | undefined {
  const wantedMetros: string[] = [];
  const wantedCountries: string[] = [];
  if (c.metro) wantedMetros.push(c.metro);
  for (const l of c.locations ?? []) {
    const metro = findMetro(l);
    if (metro) wantedMetros.push(metro.id);
    else wantedCountries.push(l);
  }
  if (wantedMetros.length === 0 && wantedCountries.length === 0) return undefined;

  const metroId = str(profile.metro);
  const metro = metroId ? findMetro(metroId) : undefined;
  const place = metro?.label ?? (str(profile.location) || metroId);
  if (!metroId && !str(profile.location)) return { match: 0, reason: 'no location on profile' };
  const personMetro = metro?.id ?? metroId;
  const country = countryOf(metroId, str(profile.location));

  if (wantedMetros.includes(personMetro)) return { match: 1, reason: `in ${place}, a wanted metro` };
  if (country && wantedCountries.some((w) => lower(w) === lower(country))) {
    return { match: 1, reason: `in ${place}, a wanted country (${country})` };
  }
  const wanted = wantedMetros.map((id) => findMetro(id)).filter((m) => m !== undefined);
  const neighborOf = wanted.find((m) => m.neighbors.includes(personMetro));
  if (neighborOf) return { match: 0.5, reason: `in ${place}, next to ${neighborOf.label}` };
  const sameCountry = country ? wanted.find((m) => lower(m.country) === lower(country)) : undefined;
  if (sameCountry) return { match: 0.25, reason: `in ${place}, same country as ${sameCountry.label}` };
  return { match: 0, reason: `in ${place}, outside the wanted places` };
}

// ---- years ----

function scoreYears(profile: PersonProfile, c: ResolvedCriteria): { match: number; reason: string } | undefined {
  const min = c.years_experience?.min;
  const max = c.years_experience?.max;
  if (min === undefined && max === undefined) return undefined;
  const range = min !== undefined && max !== undefined ? `${min}–${max}` : min !== undefined ? `${min}+` : `at most ${max}`;
  const years = profile.years_experience;
  if (typeof years !== 'number' || !Number.isFinite(years)) return { match: 0, reason: 'no years of experience on profile' };
  const below = min !== undefined && years < min ? min - years : 0;
  const above = max !== undefined && years > max ? years - max : 0;
  const off = Math.max(below, above);
  const match = Math.max(0, 1 - off / YEARS_DECAY);
  const reason = off === 0 ? `${years} years, within ${range}` : `${years} years, ${round2(off)} ${below > 0 ? 'below' : 'above'} ${range}`;
  return { match, reason };
}

// ---- industry ----

function scoreIndustry(profile: PersonProfile, c: ResolvedCriteria): { match: number; reason: string } | undefined {
  if (!nonEmpty(c.industries)) return undefined;
  const wanted = new Set(c.industries.map(lower));
  const experience = experienceOf(profile);
  const current = str(profile.industry) || (experience[0]?.industry ?? '');
  if (current && wanted.has(lower(current))) return { match: 1, reason: `current industry ${current} is wanted` };
  const past = experience.find((e) => e.industry !== '' && wanted.has(lower(e.industry)));
  if (past) return { match: 0.5, reason: `past industry ${past.industry} is wanted` };
  return { match: 0, reason: current ? `industry ${current} is not wanted` : 'no industry on profile' };
}

// ---- skills ----

function requestedSkills(c: ResolvedCriteria): string[] {
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

function scoreSkills(personSkills: Set<string>, c: ResolvedCriteria): { match: number; reason: string } | undefined {
  const requested = requestedSkills(c);
  if (requested.length === 0) return undefined;
  const has = requested.filter((s) => personSkills.has(lower(s)));
  const missing = requested.filter((s) => !personSkills.has(lower(s)));
  const match = has.length / requested.length;
  const list = (xs: string[]) => (xs.length > 5 ? `${xs.slice(0, 5).join(', ')}, …` : xs.join(', '));
  const reason =
    has.length === requested.length
      ? `has all ${requested.length} wanted skills`
      : has.length === 0
        ? `has none of ${requested.length} wanted skills`
        : `has ${has.length} of ${requested.length} wanted skills; missing ${list(missing)}`;
  return { match, reason };
}

// ---- total ----

function effectiveWeights(weights: Partial<ScoringWeights> | undefined): ScoringWeights {
  const out = { ...DEFAULT_WEIGHTS };
  for (const k of CRITERIA_ORDER) {
    const w = weights?.[k];
    if (w !== undefined) out[k] = typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : 0;
  }
  return out;
}

export function scoreProfile(profile: PersonProfile, criteria: ResolvedCriteria, weights?: Partial<ScoringWeights>): ScoreResult {
  const w = effectiveWeights(weights);
  const personSkills = new Set(strList(profile.skills).map(lower));

  const mustHaveMissing = (criteria.must_have_skills ?? []).filter((s) => !personSkills.has(lower(s)));
  const company = lower(str(profile.company) || (experienceOf(profile)[0]?.company ?? ''));
  const excluded = company !== '' && (criteria.exclude_companies ?? []).some((x) => lower(x.trim()) === company);

  const raw: Record<CriterionName, { match: number; reason: string } | undefined> = {
    title: scoreTitle(profile, criteria),
    location: scoreLocation(profile, criteria),
    years: scoreYears(profile, criteria),
    industry: scoreIndustry(profile, criteria),
    skills: scoreSkills(personSkills, criteria),
  };
  const counted = CRITERIA_ORDER.filter((k) => raw[k] !== undefined && w[k] > 0);
  const totalWeight = counted.reduce((s, k) => s + w[k], 0);

  const breakdown: CriterionScore[] = counted.map((k) => {
    const r = raw[k]!;
    const match = round2(Math.min(1, Math.max(0, r.match)));
    return { criterion: k, weight: w[k], match, points: roundInt((100 * w[k] * r.match) / totalWeight), reason: r.reason };
  });

  let score = totalWeight > 0 ? roundInt((100 * counted.reduce((s, k) => s + w[k] * raw[k]!.match, 0)) / totalWeight) : 0;
  score = Math.min(100, Math.max(0, score));
  if (mustHaveMissing.length > 0) score = Math.min(score, MUST_HAVE_CAP);
  if (excluded) score = 0;
  return { score, breakdown, must_have_missing: mustHaveMissing, excluded };
}
