import { findMetro } from '../corpus/reference';
import { canonicalJson, type ResolvedCriteria } from '../domain/criteria';
import type { PersonProfile } from '../domain/profile';
import type { Db } from '../db/knex';
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

  async function rankedQuery(criteria: ResolvedCriteria, offset: number, limit: number): Promise<CandidateSummary[]> {
    const families = criteria.family ? [criteria.family] : [];
    const industries = criteria.industries ?? [];
    const query = textQuery(criteria);
    const { metros, countries } = placeFilter(criteria);
    const excluded = (criteria.exclude_companies ?? []).map((c) => c.toLowerCase());

    const q = db('people').select(
      'id as person_id', 'first_name', 'last_name', 'title', 'company', 'location', 'network_url', 'open_profile', 'premium',
      'summary',
    );
    const tsq = db.raw(`websearch_to_tsquery('english', ?)`, [query]);
    q.where((w) => {
      if (families.length) w.orWhere('family', '=', db.raw('any(?::text[])', [families]));
      if (query) w.orWhereRaw('search_vector @@ ?', [tsq]);
      if (industries.length) w.orWhere('industry', '=', db.raw('any(?::text[])', [industries]));
    });
    if (metros.length || countries.length) {
      q.where((w) => {
        if (metros.length) w.orWhere('metro', '=', db.raw('any(?::text[])', [metros]));
        if (countries.length) w.orWhere('country', '=', db.raw('any(?::text[])', [countries]));
      });
    }
    if (excluded.length) q.whereRaw('lower(company) <> all(?::text[])', [excluded]);
    const rank = [
      families.length ? db.raw('(case when family = any(?::text[]) then 2 else 0 end)', [families]).toQuery() : '0',
      query ? db.raw('ts_rank_cd(search_vector, ?)', [tsq]).toQuery() : '0',
      industries.length ? db.raw('(case when industry = any(?::text[]) then 1 else 0 end)', [industries]).toQuery() : '0',
    ].join(' + ');
    return (await q.orderByRaw(`(${rank}) desc, id asc`).limit(limit).offset(offset)) as CandidateSummary[];
  }

  return {
    name: 'database',
    async searchPage(criteria, page, pageSize) {
      const rows = await rankedWindow(criteria, Math.floor(page / WINDOW_PAGES), pageSize);
      const start = (page % WINDOW_PAGES) * pageSize;
      return rows.slice(start, start + pageSize);
    },

    async readProfiles(personIds) {
      if (personIds.length === 0) return new Map();
      const rows: { id: string; profile: PersonProfile }[] = await db('people_profiles').whereIn('id', personIds).select('id', 'profile');
      return new Map(rows.map((r) => [r.id, r.profile]));
    },
  };
}
