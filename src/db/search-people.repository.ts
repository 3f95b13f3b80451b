import { randomUUID } from 'node:crypto';
import type { Db } from './knex';
import type { PersonProfile } from '../domain/profile';

/** A person a page returned, as search_people stores it (JSON columns as text). */
export interface NewSearchPerson {
  search_id: string;
  candidate_id: string;
  person_id: string;
  seq: number;
  pass: number;
  page: number;
  status: 'scored' | 'not_read';
  score: number | null;
  score_breakdown: string | null;
  summary: string;
  profile: string | null;
  /** Set to now when the profile was read. */
  read: boolean;
}

export interface PageRecord {
  returned: number;
  read: number;
}

/** A scored person with the profile they were scored on. */
export interface ScoredPerson {
  candidate_id: string;
  name: string;
  seq: number;
  score: number;
  profile: PersonProfile;
}

export interface NewScore {
  candidate_id: string;
  score: number;
  breakdown: unknown;
  /** A re-read profile (database pass); absent keeps the stored one. */
  profile?: PersonProfile;
}

/**
 * The people of searches (search_people), the pages already processed (search_pages) and the
 * project-stable candidate ids (candidates).
 */
export function searchPeopleRepository(db: Db) {
  return {
    /** Candidate ids are stable per (project, person): the same person in two searches is one candidate. */
    async candidateIds(projectId: string, personIds: string[]): Promise<Map<string, string>> {
      if (personIds.length === 0) return new Map();
      await db('candidates')
        .insert(personIds.map((personId) => ({ id: randomUUID(), project_id: projectId, person_id: personId })))
        .onConflict(['project_id', 'person_id'])
        .ignore();
      const rows: { id: string; person_id: string }[] = await db('candidates')
        .where({ project_id: projectId })
        .whereIn('person_id', personIds)
        .select('id', 'person_id');
      return new Map(rows.map((r) => [r.person_id, r.id]));
    },
    /** The page's record when it was processed already (a retried activity). */
    async processedPage(searchId: string, pass: number, page: number): Promise<PageRecord | undefined> {
      return db('search_pages').where({ search_id: searchId, pass, page }).first();
    },
    async recordPage(searchId: string, pass: number, page: number, record: PageRecord): Promise<void> {
      await db('search_pages').insert({ search_id: searchId, pass, page, ...record });
    },
    /** Which of these people are not new to the project: found by this search, or delivered by another (monitor and lookalike passes deliver only the others). */
    async knownInProject(projectId: string, searchId: string, personIds: string[]): Promise<Set<string>> {
      if (personIds.length === 0) return new Set();
      // Found by this search at all, or delivered (read and scored) by another of the project: a
      // person another search only listed unread is still new to the recruiter.
      const rows: { person_id: string }[] = await db('search_people as sp')
        .join('searches as s', 's.id', 'sp.search_id')
        .where('s.project_id', projectId)
        .andWhere((w) => w.where('sp.search_id', searchId).orWhere('sp.status', 'scored'))
        .whereIn('sp.person_id', personIds)
        .distinct('sp.person_id');
      return new Set(rows.map((r) => r.person_id));
    },
    /** Which of these people the search has already found. */
    async knownPersonIds(searchId: string, personIds: string[]): Promise<Set<string>> {
      const rows: { person_id: string }[] = await db('search_people').where({ search_id: searchId }).whereIn('person_id', personIds).select('person_id');
      return new Set(rows.map((r) => r.person_id));
    },
    /** The highest seq of the search's people, 0 when it has none (seq is dense: 1..n). */
    async maxSeq(searchId: string): Promise<number> {
      const [{ maxSeq }] = await db('search_people').where({ search_id: searchId }).max({ maxSeq: 'seq' });
      return Number(maxSeq ?? 0);
    },
    async insert(people: NewSearchPerson[]): Promise<void> {
      if (people.length === 0) return;
      await db('search_people').insert(people.map(({ read, ...row }) => ({ ...row, read_at: read ? db.fn.now() : null })));
    },
    /** Scored people in seq order with the profile they were scored on. */
    async scored(searchId: string): Promise<ScoredPerson[]> {
      const { rows } = await db.raw(
        `select candidate_id, summary->>'first_name' || ' ' || (summary->>'last_name') as name, seq, score, profile
           from search_people where search_id = ? and status = 'scored' order by seq`,
        [searchId],
      );
      return rows;
    },
    /** Scored people with their stored profile and the people database's latest one (null when gone). */
    async scoredWithLatestProfiles(
      searchId: string,
    ): Promise<{ candidate_id: string; person_id: string; snapshot: PersonProfile; latest: PersonProfile | null }[]> {
      const { rows } = await db.raw(
        `select sp.candidate_id, sp.person_id, sp.profile as snapshot, pp.profile as latest
           from search_people sp left join people_profiles pp on pp.id = sp.person_id
          where sp.search_id = ? and sp.status = 'scored'`,
        [searchId],
      );
      return rows;
    },
    /** Writes new scores (and, for a database pass, the re-read profiles), 500 people per statement. */
    async storeScores(searchId: string, scores: NewScore[]): Promise<void> {
      for (let i = 0; i < scores.length; i += 500) {
        const chunk = scores.slice(i, i + 500);
        await db.raw(
          `update search_people sp set score = v.score, score_breakdown = v.breakdown::jsonb, profile = coalesce(v.profile::jsonb, sp.profile), read_at = case when v.profile is null then sp.read_at else now() end
             from (select * from unnest(?::uuid[], ?::int[], ?::text[], ?::text[]) as t(candidate_id, score, breakdown, profile)) v
            where sp.search_id = ? and sp.candidate_id = v.candidate_id`,
          [
            chunk.map((s) => s.candidate_id),
            chunk.map((s) => s.score),
            chunk.map((s) => JSON.stringify(s.breakdown)),
            chunk.map((s) => (s.profile ? JSON.stringify(s.profile) : null)) as unknown as string[],
            searchId,
          ],
        );
      }
    },
    /** The best-scoring people at or above the threshold not on the project's shortlist, best first. */
    async bestUnlisted(searchId: string, projectId: string, threshold: number, limit: number): Promise<string[]> {
      const rows: { candidate_id: string }[] = await db('search_people as sp')
        .where({ 'sp.search_id': searchId, 'sp.status': 'scored' })
        .andWhere('sp.score', '>=', threshold)
        .whereNotExists(db('shortlist_members as m').whereRaw('m.project_id = ? and m.candidate_id = sp.candidate_id', [projectId]))
        .orderBy([{ column: 'sp.score', order: 'desc' }, { column: 'sp.seq' }])
        .limit(limit)
        .select('sp.candidate_id');
      return rows.map((r) => r.candidate_id);
    },
    /**
     * The people behind candidate ids of a workspace, with the latest profile any of its searches
     * read (null when none was read): the examples of a lookalike search.
     */
    async examples(workspaceId: string, candidateIds: string[]): Promise<{ candidate_id: string; person_id: string; profile: PersonProfile | null }[]> {
      if (candidateIds.length === 0) return [];
      const rows: { candidate_id: string; person_id: string; profile: PersonProfile | null }[] = await db('candidates as c')
        .join('projects as p', 'p.id', 'c.project_id')
        .where('p.workspace_id', workspaceId)
        .whereIn('c.id', candidateIds)
        .select(
          'c.id as candidate_id',
          'c.person_id',
          db.raw(
            `(select sp.profile from search_people sp where sp.candidate_id = c.id and sp.profile is not null order by sp.read_at desc nulls last limit 1) as profile`,
          ),
        );
      return rows;
    },
    /** Which of these candidate ids the project's searches scored. */
    async scoredInProject(projectId: string, candidateIds: string[]): Promise<string[]> {
      if (candidateIds.length === 0) return [];
      const rows: { candidate_id: string }[] = await db('search_people as sp')
        .join('searches as s', 's.id', 'sp.search_id')
        .where('s.project_id', projectId)
        .andWhere('sp.status', 'scored')
        .whereIn('sp.candidate_id', candidateIds)
        .distinct('sp.candidate_id');
      return rows.map((r) => r.candidate_id);
    },
  };
}
