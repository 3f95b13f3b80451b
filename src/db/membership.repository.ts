import type { Db } from './knex';

export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface MembershipWorkspace {
  id: string;
  name: string;
  role: Role;
}

export function membershipRepository(db: Db) {
  return {
    /** Adds the user to the workspace, or changes the role of an existing membership. */
    async upsert(userId: string, workspaceId: string, role: Role): Promise<void> {
      await db('memberships').insert({ user_id: userId, workspace_id: workspaceId, role }).onConflict(['user_id', 'workspace_id']).merge({ role });
    },
    async role(userId: string, workspaceId: string): Promise<Role | undefined> {
      const row = await db('memberships').where({ user_id: userId, workspace_id: workspaceId }).first('role');
      return row?.role;
    },
    /** The user's workspaces, oldest membership first (the first is the default after sign-in). */
    async workspacesOf(userId: string): Promise<MembershipWorkspace[]> {
      return db('memberships as m')
        .join('workspaces as w', 'w.id', 'm.workspace_id')
        .where('m.user_id', userId)
        .orderBy([{ column: 'm.created_at' }, { column: 'w.id' }])
        .select('w.id', 'w.name', 'm.role');
    },
  };
}
