import { randomUUID } from 'node:crypto';
import type { Db } from './knex';
import type { Role } from './membership.repository';
import type { Workspace } from './workspace.repository';

export interface SessionRow {
  id: string;
  token_hash: string;
  user_id: string;
  workspace_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

/** A live session with its user, active workspace and the user's role there. */
export interface SessionWithContext {
  session: SessionRow;
  user: { id: string; email: string };
  workspace: Workspace;
  role: Role;
}

export function sessionRepository(db: Db) {
  return {
    async create(fields: { tokenHash: string; userId: string; workspaceId: string; expiresAt: Date }): Promise<SessionRow> {
      const [row] = await db('sessions')
        .insert({ id: randomUUID(), token_hash: fields.tokenHash, user_id: fields.userId, workspace_id: fields.workspaceId, expires_at: fields.expiresAt })
        .returning('*');
      return row;
    },
    /** An unexpired session whose user is still a member of its active workspace; one query. */
    async findLive(tokenHash: string): Promise<SessionWithContext | undefined> {
      const row = await db('sessions as s')
        .join('users as u', 'u.id', 's.user_id')
        .join('memberships as m', function () {
          this.on('m.user_id', 's.user_id').andOn('m.workspace_id', 's.workspace_id');
        })
        .join('workspaces as w', 'w.id', 's.workspace_id')
        .where('s.token_hash', tokenHash)
        .andWhere('s.expires_at', '>', db.fn.now())
        .first(db.raw('row_to_json(s.*) as session'), 'u.id as user_id', 'u.email', 'm.role', db.raw('row_to_json(w.*) as workspace'));
      if (!row) return undefined;
      const session = {
        ...row.session,
        created_at: new Date(row.session.created_at),
        last_seen_at: new Date(row.session.last_seen_at),
        expires_at: new Date(row.session.expires_at),
      };
      const w = row.workspace;
      const workspace = {
        ...w,
        plan_expires_at: w.plan_expires_at ? new Date(w.plan_expires_at) : null,
        created_at: new Date(w.created_at),
        updated_at: new Date(w.updated_at),
      };
      return { session, user: { id: row.user_id, email: row.email }, workspace, role: row.role };
    },
    /** Sliding expiry: each use pushes the end out again. */
    async touch(id: string, expiresAt: Date): Promise<void> {
      await db('sessions').where({ id }).update({ last_seen_at: db.fn.now(), expires_at: expiresAt });
    },
    async switchWorkspace(id: string, workspaceId: string): Promise<void> {
      await db('sessions').where({ id }).update({ workspace_id: workspaceId });
    },
    async delete(id: string): Promise<void> {
      await db('sessions').where({ id }).delete();
    },

    // --- sign-in throttling ------------------------------------------------------------------

    async recentFailures(email: string, windowMs: number): Promise<{ count: number; oldest: Date | null }> {
      const [row] = await db('sign_in_failures')
        .where({ email })
        .andWhere('created_at', '>', db.raw(`now() - make_interval(secs => ?)`, [windowMs / 1000]))
        .select(db.raw('count(*)::int as count'), db.raw('min(created_at) as oldest'));
      return { count: row.count, oldest: row.oldest ? new Date(row.oldest) : null };
    },
    async recordFailure(email: string): Promise<void> {
      await db('sign_in_failures').insert({ email });
    },
    async clearFailures(email: string): Promise<void> {
      await db('sign_in_failures').where({ email }).delete();
    },
  };
}
