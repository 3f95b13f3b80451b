import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from './knex';

export interface Project {
  id: string;
  workspace_id: string;
  name: string;
  share_token: string;
  share_expires_at: Date | null;
  created_at: Date;
}

export const PROJECT_LIST_LIMIT = 200;

/** A share token: 32 random bytes, base64url (DESIGN.md §6). */
export const newShareToken = () => randomBytes(32).toString('base64url');
export const shareTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function projectRepository(db: Db) {
  return {
    /** Every project gets its one share token at creation. */
    async create(workspaceId: string, name: string): Promise<Project> {
      const token = newShareToken();
      const [row] = await db('projects')
        .insert({ id: randomUUID(), workspace_id: workspaceId, name, share_token: token, share_token_hash: shareTokenHash(token) })
        .returning('*');
      return row;
    },
    /** The project a share token opens: found by the token's hash, confirmed in constant time. */
    async findByShareToken(token: string): Promise<Project | undefined> {
      const row: Project | undefined = await db('projects')
        .where({ share_token_hash: shareTokenHash(token) })
        .first();
      if (!row) return undefined;
      const a = Buffer.from(row.share_token);
      const b = Buffer.from(token);
      return a.length === b.length && timingSafeEqual(a, b) ? row : undefined;
    },
    async setShareExpiry(id: string, at: Date | null): Promise<Project | undefined> {
      const [row] = await db('projects').where({ id }).update({ share_expires_at: at }).returning('*');
      return row;
    },
    async find(id: string): Promise<Project | undefined> {
      return db('projects').where({ id }).first();
    },
    /**
     * Locks the project row until the transaction ends: shortlist changes and expansions serialise
     * on it. FOR NO KEY UPDATE so that rows referencing the project (a launch's search) can still
     * be inserted meanwhile: see workspaceRepository.lock.
     */
    async lock(id: string): Promise<void> {
      await db('projects').where({ id }).forNoKeyUpdate().first();
    },
    async findInWorkspace(workspaceId: string, id: string): Promise<Project | undefined> {
      return db('projects').where({ workspace_id: workspaceId, id }).first();
    },
    /** The most recent projects, newest first, and how many the workspace has in all. */
    async listRecent(workspaceId: string, limit = PROJECT_LIST_LIMIT): Promise<{ projects: Project[]; total: number }> {
      const [projects, [{ count }]] = await Promise.all([
        db('projects')
          .where({ workspace_id: workspaceId })
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(limit),
        db('projects').where({ workspace_id: workspaceId }).count({ count: '*' }),
      ]);
      return { projects, total: Number(count) };
    },
  };
}
