import { ROLE_FAMILIES } from '../reference/taxonomy';
import type { Db } from './knex';

export interface RoleFamilyRow {
  family_id: string;
  label: string;
}

export function roleFamilyRepository(db: Db) {
  return {
    /** Seeds a new workspace with the reference families (call in the creating transaction). */
    async seedDefaults(workspaceId: string): Promise<void> {
      await db('role_families')
        .insert(ROLE_FAMILIES.map((f) => ({ workspace_id: workspaceId, family_id: f.id, label: f.label })))
        .onConflict(['workspace_id', 'family_id'])
        .ignore();
    },
    async listForWorkspace(workspaceId: string): Promise<RoleFamilyRow[]> {
      return db('role_families').where({ workspace_id: workspaceId }).orderBy('family_id').select('family_id', 'label');
    },
  };
}
