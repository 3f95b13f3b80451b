import type { Db } from './knex';
import type { CandidateSummary } from '../providers/profile-source';

/** Result pages of live passes as the provider answered them (`live_search_pages`). */
export function liveSearchPagesRepository(db: Db) {
  return {
    async find(searchId: string, pass: number, page: number): Promise<CandidateSummary[] | null> {
      const row: { results: CandidateSummary[] } | undefined = await db('live_search_pages').where({ search_id: searchId, pass, page }).first('results');
      return row ? row.results : null;
    },
    /** Keeps the first answer: a concurrent duplicate attempt changes nothing. */
    async insert(searchId: string, pass: number, page: number, results: CandidateSummary[]): Promise<void> {
      await db('live_search_pages')
        .insert({ search_id: searchId, pass, page, results: JSON.stringify(results) })
        .onConflict(['search_id', 'pass', 'page'])
        .ignore();
    },
  };
}
