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

/** What a sign-in failure counts against: the email, the client address, every account. */
export type SignInScope = 'email' | 'ip' | 'global';

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
    // Attempts are counted over a sliding window per email, per client address and across all
    // accounts. An attempt is recorded as a failure before its password is checked (and removed
    // when it checks out), under one lock, so concurrent attempts cannot overshoot a ceiling.

    /** Serialises the check-and-record of sign-in attempts until the transaction ends. */
    async lockSignInAttempts(): Promise<void> {
      await db.raw(`select pg_advisory_xact_lock(hashtextextended('sign_in_failures', 0))`);
    },
    /** Failures older than the window are never read again. */
    async pruneFailures(windowMs: number): Promise<void> {
      await db('sign_in_failures')
        .where('created_at', '<=', db.raw(`now() - make_interval(secs => ?)`, [windowMs / 1000]))
        .delete();
    },
    async recentFailures(attempt: { email: string; ip: string }, windowMs: number): Promise<Record<SignInScope, number>> {
      const [row] = await db('sign_in_failures')
        .where('created_at', '>', db.raw(`now() - make_interval(secs => ?)`, [windowMs / 1000]))
        .select(
          db.raw('(count(*) filter (where email = ?))::int as email', [attempt.email]),
          db.raw('(count(*) filter (where ip = ?))::int as ip', [attempt.ip]),
          db.raw('count(*)::int as global'),
        );
      return row;
    },
    /** Seconds until `scope`'s count in the window is below `limit` again (its oldest surplus failures leave it). */
    async secondsUntilBelow(scope: SignInScope, attempt: { email: string; ip: string }, windowMs: number, count: number, limit: number): Promise<number> {
      const q = db('sign_in_failures')
        .where('created_at', '>', db.raw(`now() - make_interval(secs => ?)`, [windowMs / 1000]))
        .orderBy('created_at')
        .offset(Math.max(0, count - limit))
        .first(db.raw(`extract(epoch from created_at + make_interval(secs => ?) - now())::float8 as seconds`, [windowMs / 1000]));
      if (scope === 'email') q.where({ email: attempt.email });
      if (scope === 'ip') q.where({ ip: attempt.ip });
      const row = (await q) as { seconds: number } | undefined;
      return Math.max(1, Math.ceil(row?.seconds ?? 1));
    },
    async recordFailure(attempt: { email: string; ip: string }): Promise<string> {
      const [row] = await db('sign_in_failures').insert({ email: attempt.email, ip: attempt.ip }).returning('id');
      return String(row.id);
    },
    async deleteFailure(id: string): Promise<void> {
      await db('sign_in_failures').where({ id }).delete();
    },
    async clearFailures(email: string): Promise<void> {
      await db('sign_in_failures').where({ email }).delete();
    },
  };
}
