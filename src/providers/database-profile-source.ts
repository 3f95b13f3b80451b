import { findMetro } from '../reference/taxonomy';
import { canonicalJson, type ResolvedCriteria } from '../domain/criteria';
import type { Db } from '../db/knex';
import { peopleRepository } from '../db/people.repository';
import type { CandidateSummary, ProfileSource } from './profile-source';

/** `"backend engineer" or typescript or …` for websearch_to_tsquery: titles as phrases, skills as terms. */
export function textQuery(criteria: ResolvedCriteria): string {
  const terms = [...(criteria.titles ?? []), ...(criteria.skills ?? []), ...(criteria.must_have_skills ?? [])]
    .map((t) => t.replace(/["\\]/g, ' ').trim())
    .filter(Boolean)
    .map((t) => (/\s/.test(t) ? `"${t}"` : t));
  return [...new Set(terms)].join(' or ');
}

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

/** Pages fetched per ranking query: a pass reads ~8 pages, so one query usually serves all. */
const WINDOW_PAGES = 8;
const CACHE_ENTRIES = 64;
const CACHE_TTL_MS = 10 * 60_000;

/**
 * The people database as a profile source (the embedded default and database-only mode).
 * Candidates must match the family or the full-text query (titles, skills) or an industry, and
 * the places when given; they are ranked by family match, text rank and industry, ties by id.
 */
export function databaseProfileSource(db: Db): ProfileSource {
  const people = peopleRepository(db);
  const rankedQuery = (criteria: ResolvedCriteria, offset: number, limit: number) =>
    people.ranked(
      {
        families: criteria.family ? [criteria.family] : [],
        industries: criteria.industries ?? [],
        text: textQuery(criteria),
        ...placeFilter(criteria),
        excludedCompanies: (criteria.exclude_companies ?? []).map((c) => c.toLowerCase()),
      },
      offset,
      limit,
    );

  // Ranking is the expensive part (it scores every match); windows of ranked results are kept
  // briefly per process, keyed by what decides the ranking. Worst case after a corpus change:
  // a pass in the next minutes pages through the previous ranking.
  const windows = new Map<string, { rows: CandidateSummary[]; at: number }>();
  const rankedWindow = async (criteria: ResolvedCriteria, window: number, pageSize: number) => {
    const { target: _t, read_budget: _r, shortlist_threshold: _s, ...ranking } = criteria;
    const key = `${canonicalJson(ranking)}|${pageSize}|${window}`;
    const hit = windows.get(key);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.rows;
    const rows = await rankedQuery(criteria, window * WINDOW_PAGES * pageSize, WINDOW_PAGES * pageSize);
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
