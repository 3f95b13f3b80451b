import { FAMILY_UMBRELLA_TITLES } from '../reference/role-vocabulary';
import { findFamily, findMetro } from '../reference/taxonomy';
import { canonicalJson, type ResolvedCriteria } from '../domain/criteria';
import { SENIORITIES, type PersonProfile } from '../domain/profile';
import { canonicalRoles, departmentWords } from '../ranking/title-match';
import { DEFAULT_WEIGHTS, scoreProfile } from '../ranking/scoring';
import type { Db } from '../db/knex';
import { peopleRepository, type RankedCandidate, type RankedQuery } from '../db/people.repository';
import type { CandidateSummary, ProfileSource } from './profile-source';

/** Metro ids and countries a search is limited to; empty when it names no place. */
export function placeFilter(criteria: ResolvedCriteria): { metros: string[]; countries: string[] } {
  const metros = new Set<string>();
  const countries = new Set<string>();
  if (criteria.metro) metros.add(criteria.metro);
  for (const location of criteria.locations ?? []) {
    if (findMetro(location)?.id === location) metros.add(location);
    else countries.add(location);
  }
  return { metros: [...metros], countries: [...countries] };
}

/**
 * The wanted titles as the corpus writes them: each title, and the base title an alias stands for
 * ("iOS Developer" → also "Mobile Engineer"), so the index finds the same role under either name.
 */
function titlesToFind(criteria: ResolvedCriteria): string[] {
  const out = new Set<string>();
  for (const t of criteria.titles ?? []) {
    const phrases = canonicalRoles(t)?.phrases.filter((p) => !criteria.family || p.family === criteria.family) ?? [];
    const base = phrases.find((p) => p.title)?.title;
    // A manager-and-up title is found by its department words ("Head of Engineering" is any
    // "… Engineering" title; the seniority ranks the levels), as the scorer compares them.
    const department = phrases.length && !base && phrases[0].source === 'level-title' ? departmentWords(t) : undefined;
    if (department !== undefined) {
      if (department !== '') out.add(department);
      continue;
    }
    out.add(t);
    if (base) out.add(base);
    // A title that names the whole family finds every title of it (the scorer ranks them).
    const family = phrases.find((p) => p.title)?.family;
    if (base && family && FAMILY_UMBRELLA_TITLES.get(family)?.has(base)) for (const other of findFamily(family)?.titles ?? []) out.add(other);
  }
  return [...out];
}

/** The criteria as the ranking query's estimate of the scorer reads them. */
export function rankedQuery(criteria: ResolvedCriteria): RankedQuery {
  const family = criteria.family ? findFamily(criteria.family) : undefined;
  const { metros, countries } = placeFilter(criteria);
  const wanted = metros.map((m) => findMetro(m)).filter((m) => m !== undefined);
  const seniorities = criteria.seniority ?? [];
  const near = SENIORITIES.filter((s, i) => !seniorities.includes(s) && seniorities.some((w) => Math.abs(SENIORITIES.indexOf(w) - i) === 1));
  const skills = [...new Set([...(criteria.skills ?? []), ...(criteria.must_have_skills ?? [])])];
  const years = criteria.years_experience ?? {};
  const hasYears = years.min !== undefined || years.max !== undefined;
  return {
    // The search's weights are the defaults until a scoring change; a criterion the search does
    // not use weighs nothing, as in the scorer.
    weights: {
      title: DEFAULT_WEIGHTS.title,
      location: metros.length || countries.length ? DEFAULT_WEIGHTS.location : 0,
      years: hasYears ? DEFAULT_WEIGHTS.years : 0,
      industry: criteria.industries?.length ? DEFAULT_WEIGHTS.industry : 0,
      skills: skills.length ? DEFAULT_WEIGHTS.skills : 0,
    },
    family: family?.id ?? null,
    adjacentFamilies: family?.adjacent ?? [],
    titles: titlesToFind(criteria),
    seniorities,
    nearSeniorities: near,
    metros,
    neighborMetros: [...new Set(wanted.flatMap((m) => m.neighbors))].filter((n) => !metros.includes(n)),
    countries,
    nearCountries: [...new Set(wanted.map((m) => m.country))].filter((c) => !countries.includes(c)),
    skills,
    years: { min: years.min ?? null, max: years.max ?? null },
    industries: criteria.industries ?? [],
    excludedCompanies: (criteria.exclude_companies ?? []).map((c) => c.toLowerCase()),
  };
}

/** What the scorer reads of a candidate, from the people-table columns (no experience history). */
const asProfile = (c: RankedCandidate): PersonProfile =>
  ({
    id: c.person_id,
    title: c.title,
    seniority: c.seniority,
    family: c.family,
    company: c.company,
    industry: c.industry,
    metro: c.metro,
    location: c.location,
    years_experience: c.years_experience,
    skills: c.skills,
  }) as PersonProfile;

const summaryOf = (c: RankedCandidate): CandidateSummary => ({
  person_id: c.person_id,
  first_name: c.first_name,
  last_name: c.last_name,
  title: c.title,
  company: c.company,
  location: c.location,
  network_url: c.network_url,
  open_profile: c.open_profile,
  premium: c.premium,
  summary: c.summary,
});

/** Pages fetched per ranking query: a pass usually reads from the first window only. */
const WINDOW_PAGES = 16;
const CACHE_ENTRIES = 64;
const CACHE_TTL_MS = 10 * 60_000;

/**
 * The people database as a profile source (the embedded default and database-only mode).
 * Candidates come best first, so a pass's read budget and its early stop at the target go to the
 * best people: Postgres ranks them by an estimate of the score (peopleRepository.ranked) through
 * indexes, and each window of ranked people is put in the scorer's own order (the scorer run on
 * their people-table columns: alias-aware titles, skills), ties kept in the estimate's order.
 */
export function databaseProfileSource(db: Db): ProfileSource {
  const people = peopleRepository(db);

  // Ranking visits every candidate the indexes give; windows of ranked results are kept briefly
  // per process, keyed by what decides the ranking. Worst case after a corpus change: a pass in
  // the next minutes pages through the previous ranking.
  const windows = new Map<string, { rows: CandidateSummary[]; at: number }>();
  const rankedWindow = async (criteria: ResolvedCriteria, window: number, pageSize: number) => {
    const { target: _t, read_budget: _r, shortlist_threshold: _s, ...ranking } = criteria;
    const key = `${canonicalJson(ranking)}|${pageSize}|${window}`;
    const hit = windows.get(key);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.rows;
    const ranked = await people.ranked(rankedQuery(criteria), window * WINDOW_PAGES * pageSize, WINDOW_PAGES * pageSize);
    const rows = ranked
      .map((c, i) => ({ c, i, score: scoreProfile(asProfile(c), criteria).score }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .map((x) => summaryOf(x.c));
    windows.set(key, { rows, at: Date.now() });
    if (windows.size > CACHE_ENTRIES) windows.delete(windows.keys().next().value!);
    return rows;
  };

  return {
    name: 'database',
    async searchPage(criteria, page, pageSize) {
      const rows = await rankedWindow(criteria, Math.floor(page / WINDOW_PAGES), pageSize);
      const start = (page % WINDOW_PAGES) * pageSize;
      return rows.slice(start, start + pageSize);
    },

    readProfiles(personIds) {
      return people.profiles(personIds);
    },
  };
}
