import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../db/knex';
import { projectRepository } from '../db/project.repository';
import { searchPeopleRepository } from '../db/search-people.repository';
import { shortlistRepository, type MemberRow, type ShortlistSource } from '../db/shortlist.repository';
import { csvLine } from '../domain/csv';
import { AppError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import { writeEvent } from '../events/outbox';

/**
 * A project's shortlist: reading it (JSON, CSV, share page) and changing it. Every change locks
 * the project row, so concurrent adds and removes serialise and each shortlist.changed event
 * carries the exact list before and after.
 */

const EVENT_ID_LIMIT = 200;

export type { ShortlistSource };
export type ShortlistKind = 'added' | 'removed' | 'rescored' | 'pass';

/** The member columns of DESIGN.md §6, in order (JSON field order and CSV columns). */
export const MEMBER_COLUMNS = ['candidate_id', 'name', 'title', 'company', 'location', 'network_url', 'score', 'search_id', 'added_at', 'source'] as const;

export interface ShortlistMember {
  candidate_id: string;
  name: string;
  title: string;
  company: string;
  location: string;
  network_url: string;
  score: number | null;
  search_id: string | null;
  added_at: string;
  source: string;
}

export interface ListSnapshot {
  count: number;
  candidate_ids: string[];
}

/**
 * Members with what the project's searches know of them: the row of the search that added them
 * when there is one, else their latest scored row in the project.
 */
export async function shortlistMembers(db: Db, projectId: string): Promise<ShortlistMember[]> {
  const rows = await shortlistRepository(db).members(projectId);
  return rows.map((r: MemberRow) => ({
    candidate_id: r.candidate_id,
    name: r.summary ? `${r.summary.first_name} ${r.summary.last_name}` : '',
    title: r.summary?.title ?? '',
    company: r.summary?.company ?? '',
    location: r.summary?.location ?? '',
    network_url: r.summary?.network_url ?? '',
    score: r.score,
    search_id: r.search_id,
    added_at: new Date(r.added_at).toISOString(),
    source: r.source,
  }));
}

/** shortlist.csv (RFC 4180, CRLF), streamed from Postgres. */
export function shortlistCsv(db: Db, projectId: string): Promise<Readable> {
  return shortlistRepository(db).membersCsv(projectId, csvLine(MEMBER_COLUMNS));
}

export function shortlistCount(db: Db, projectId: string): Promise<number> {
  return shortlistRepository(db).count(projectId);
}

/** The list as events show it: a count and at most 200 candidate ids, oldest member first. */
export async function shortlistSnapshot(trx: Db, projectId: string, without: string[] = []): Promise<ListSnapshot> {
  const drop = new Set(without);
  const ids = (await shortlistRepository(trx).candidateIds(projectId)).filter((id) => !drop.has(id));
  return { count: ids.length, candidate_ids: ids.slice(0, EVENT_ID_LIMIT) };
}

export interface ChangeEvent {
  workspaceId: string;
  projectId: string;
  searchId?: string;
  kind: ShortlistKind;
  source: ShortlistSource;
  before: ListSnapshot;
  after: ListSnapshot;
  dedupeKey: string;
  baseUrl: string;
}

/** shortlist.changed: ids and counts only, never profile fields. */
export async function writeShortlistChanged(trx: Db, e: ChangeEvent): Promise<void> {
  await writeEvent(trx, {
    workspaceId: e.workspaceId,
    type: 'shortlist.changed',
    data: {
      project_id: e.projectId,
      ...(e.searchId ? { search_id: e.searchId } : {}),
      kind: e.kind,
      source: e.source,
      list_before: e.before,
      list_after: e.after,
      links: {
        shortlist: `${e.baseUrl}/projects/${e.projectId}/shortlist`,
        shortlist_csv: `${e.baseUrl}/projects/${e.projectId}/shortlist.csv`,
        ...(e.searchId ? { search: `${e.baseUrl}/searches/${e.searchId}` } : {}),
      },
    },
    dedupeKey: e.dedupeKey,
  });
}

/**
 * Adds candidates found by the project's searches (scored people). Unknown ids add nothing
 * (404 candidate_not_found listing them); people already listed are reported in `already`.
 */
export async function addMembers(db: Db, ctx: { workspaceId: string; projectId: string; baseUrl: string }, candidateIds: string[]) {
  return db.transaction(async (trx) => {
    await projectRepository(trx).lock(ctx.projectId);
    const found = await searchPeopleRepository(trx).scoredInProject(ctx.projectId, candidateIds.filter(isUuid));
    const unknown = candidateIds.filter((id) => !found.includes(id));
    if (unknown.length) {
      throw new AppError('candidate_not_found', 404, `Not among the people of this project's searches: ${unknown.join(', ')}`, { unknown_ids: unknown });
    }
    const before = await shortlistSnapshot(trx, ctx.projectId);
    const inserted = await shortlistRepository(trx).addNew(
      candidateIds.map((candidateId) => ({ project_id: ctx.projectId, candidate_id: candidateId, source: 'api' })),
    );
    const after = await shortlistSnapshot(trx, ctx.projectId);
    if (inserted.length) {
      await writeShortlistChanged(trx, { ...ctx, kind: 'added', source: 'api', before, after, dedupeKey: `shortlist.changed:api:${randomUUID()}` });
    }
    const added = candidateIds.filter((id) => inserted.includes(id));
    return { added, already: candidateIds.filter((id) => !inserted.includes(id)), shortlisted: after.count };
  });
}

/** Removes one member; `removed: false` when they were not on the list (repeating is safe). */
export async function removeMember(db: Db, ctx: { workspaceId: string; projectId: string; baseUrl: string }, candidateId: string) {
  return db.transaction(async (trx) => {
    await projectRepository(trx).lock(ctx.projectId);
    const before = await shortlistSnapshot(trx, ctx.projectId);
    const removed = isUuid(candidateId) ? await shortlistRepository(trx).remove(ctx.projectId, [candidateId]) : 0;
    const after = await shortlistSnapshot(trx, ctx.projectId);
    if (removed)
      await writeShortlistChanged(trx, { ...ctx, kind: 'removed', source: 'api', before, after, dedupeKey: `shortlist.changed:api:${randomUUID()}` });
    return { candidate_id: candidateId, removed: removed > 0, shortlisted: after.count };
  });
}
