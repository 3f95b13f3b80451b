import { createHash } from 'node:crypto';
import { canonicalJson, type ResolvedCriteria } from '../domain/criteria';
import type { PersonProfile } from '../domain/profile';
import { rankedQuery } from '../ranking/retrieval';
import { scoreProfile } from '../ranking/scoring';
import type { Db } from '../db/knex';
import { peopleRepository, type RankedCandidate } from '../db/people.repository';
import type { CandidateSummary, PageRanking, ProfileSource } from './profile-source';

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
    location: {
      name: c.location,
      locality: '',
      region: c.region_key.split('|')[1] ?? '',
      country: c.country,
      lat: c.lat,
      lon: c.lon,
    },
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
/**
 * A calibrated search ranks wider windows: the estimate does not know what was learned, so people
 * it puts further down can be the best under the calibration.
 */
const CALIBRATED_WINDOW_PAGES = 64;
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
  const rankedWindow = async (criteria: ResolvedCriteria, window: number, pageSize: number, pages: number, calibrated?: PageRanking) => {
    const { target: _t, read_budget: _r, shortlist_threshold: _s, ...ranking } = criteria;
    const learned = calibrated ? createHash('sha1').update(JSON.stringify(calibrated)).digest('hex') : '';
    const key = `${canonicalJson(ranking)}|${pageSize}|${window}|${learned}`;
    const hit = windows.get(key);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.rows;
    const ranked = await people.ranked(rankedQuery(criteria), window * pages * pageSize, pages * pageSize);
    const rows = ranked
      .map((c, i) => ({ c, i, score: scoreProfile(asProfile(c), criteria, calibrated?.weights, calibrated?.calibration).score }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .map((x) => summaryOf(x.c));
    windows.set(key, { rows, at: Date.now() });
    if (windows.size > CACHE_ENTRIES) windows.delete(windows.keys().next().value!);
    return rows;
  };

  return {
    name: 'database',
    async searchPage(criteria, page, pageSize, ranking) {
      const pages = ranking ? CALIBRATED_WINDOW_PAGES : WINDOW_PAGES;
      const rows = await rankedWindow(criteria, Math.floor(page / pages), pageSize, pages, ranking);
      const start = (page % pages) * pageSize;
      return rows.slice(start, start + pageSize);
    },

    readProfiles(personIds) {
      return people.profiles(personIds);
    },
  };
}
