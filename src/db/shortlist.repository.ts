import type { Readable } from 'node:stream';
import { copyCsv } from './copy-csv';
import type { Db } from './knex';

export type ShortlistSource = 'api' | 'app' | 'search' | 'expansion' | 'scoring' | 'database_pass' | 'monitor' | 'feedback';

export interface NewMember {
  project_id: string;
  candidate_id: string;
  search_id?: string;
  pass?: number;
  source: ShortlistSource;
}

/** A member with the summary and score of the search row that describes them best (null: none). */
export interface MemberRow {
  candidate_id: string;
  search_id: string | null;
  added_at: Date;
  source: string;
  summary: Record<string, string> | null;
  score: number | null;
}

/**
 * A project's members with the summary and score of the search row that describes them best: the
 * row of the search that added them when there is one, else their latest scored row in the project.
 */
const membersSql = (columns: string) => `
  select ${columns}
    from shortlist_members m
    left join lateral (
      select sp.summary, sp.score from search_people sp
       where sp.candidate_id = m.candidate_id
       order by (sp.search_id = m.search_id) desc nulls last, (sp.status = 'scored') desc, sp.read_at desc nulls last
       limit 1
    ) p on true
   where m.project_id = ?
   order by m.added_at, m.candidate_id`;

/**
 * Projects' shortlists (shortlist_members). Changes of one project's list serialise on its project
 * row: callers take `projectRepository(trx).lock(projectId)` first in the same transaction.
 */
export function shortlistRepository(db: Db) {
  return {
    /**
     * Members with what the project's searches know of them: the row of the search that added them
     * when there is one, else their latest scored row in the project.
     */
    async members(projectId: string): Promise<MemberRow[]> {
      const { rows } = await db.raw(membersSql('m.candidate_id, m.search_id, m.added_at, m.source, p.summary, p.score'), [projectId]);
      return rows;
    },
    /**
     * shortlist.csv: the header, then the members as `members` reads them and shortlistMembers
     * shows them, in MEMBER_COLUMNS order, streamed from COPY (see copyCsv): text cells through
     * csv_cell, empty text as null (COPY writes '' as ""), added_at as toISOString writes it.
     */
    membersCsv(projectId: string, header: string): Promise<Readable> {
      const cell = (text: string) => `nullif(csv_cell(${text}), '')`;
      const columns = [
        'm.candidate_id',
        cell(`(p.summary->>'first_name') || ' ' || (p.summary->>'last_name')`),
        ...['title', 'company', 'location', 'network_url'].map((field) => cell(`p.summary->>'${field}'`)),
        'p.score',
        'm.search_id',
        `to_char(m.added_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
        'm.source',
      ];
      return copyCsv(db, header, membersSql(columns.join(', ')), [projectId]);
    },
    async count(projectId: string): Promise<number> {
      const [{ n }] = await db('shortlist_members').where({ project_id: projectId }).count({ n: '*' });
      return Number(n);
    },
    /** Member candidate ids, oldest member first. */
    async candidateIds(projectId: string): Promise<string[]> {
      const rows: { candidate_id: string }[] = await db('shortlist_members')
        .where({ project_id: projectId })
        .orderBy([{ column: 'added_at' }, { column: 'candidate_id' }])
        .select('candidate_id');
      return rows.map((r) => r.candidate_id);
    },
    /** Which of these candidates are on the project's list. */
    async listedAmong(projectId: string, candidateIds: string[]): Promise<Set<string>> {
      const rows: { candidate_id: string }[] = await db('shortlist_members')
        .where({ project_id: projectId })
        .whereIn('candidate_id', candidateIds)
        .select('candidate_id');
      return new Set(rows.map((r) => r.candidate_id));
    },
    /** Which of these people (by person id) are on the project's list. */
    async listedPeople(projectId: string, personIds: string[]): Promise<Set<string>> {
      const rows: { person_id: string }[] = await db('shortlist_members as m')
        .join('candidates as c', 'c.id', 'm.candidate_id')
        .where('m.project_id', projectId)
        .whereIn('c.person_id', personIds)
        .select('c.person_id');
      return new Set(rows.map((r) => r.person_id));
    },
    /** Members a pass of the search put on the list. */
    async addedByPass(searchId: string, pass: number): Promise<string[]> {
      const rows: { candidate_id: string }[] = await db('shortlist_members').where({ search_id: searchId, pass }).select('candidate_id');
      return rows.map((r) => r.candidate_id);
    },
    /** Members the search added automatically (not by hand), with their current score in it. */
    async autoMembersOfSearch(projectId: string, searchId: string): Promise<{ candidate_id: string; score: number | null }[]> {
      return db('shortlist_members as m')
        .leftJoin('search_people as sp', function () {
          this.on('sp.candidate_id', 'm.candidate_id').andOn('sp.search_id', 'm.search_id');
        })
        .where({ 'm.project_id': projectId, 'm.search_id': searchId })
        .whereNot('m.source', 'api')
        .whereNot('m.source', 'app')
        .select('m.candidate_id', 'sp.score');
    },
    async countAddedBySearch(projectId: string, searchId: string): Promise<number> {
      const [{ n }] = await db('shortlist_members').where({ project_id: projectId, search_id: searchId }).count({ n: '*' });
      return Number(n);
    },
    async add(members: NewMember[]): Promise<void> {
      if (members.length) await db('shortlist_members').insert(members);
    },
    /** Adds whoever is not listed yet; returns the candidate ids really added. */
    async addNew(members: NewMember[]): Promise<string[]> {
      if (members.length === 0) return [];
      const rows: { candidate_id: string }[] = await db('shortlist_members')
        .insert(members)
        .onConflict(['project_id', 'candidate_id'])
        .ignore()
        .returning('candidate_id');
      return rows.map((r) => r.candidate_id);
    },
    /** Returns how many were removed. */
    async remove(projectId: string, candidateIds: string[]): Promise<number> {
      if (candidateIds.length === 0) return 0;
      return db('shortlist_members').where({ project_id: projectId }).whereIn('candidate_id', candidateIds).delete();
    },
  };
}
