import { randomUUID } from 'node:crypto';
import type { Db } from './knex';

export type CampaignStatus = 'draft' | 'awaiting_launch' | 'launched';
export type CampaignChannel = 'email' | 'social';

export interface CampaignRow {
  id: string;
  workspace_id: string;
  project_id: string | null;
  name: string;
  channel: CampaignChannel;
  status: CampaignStatus;
  created_by: string | null;
  created_at: Date;
  published_at: Date | null;
  launched_at: Date | null;
}

const STAMP: Record<CampaignStatus, 'published_at' | 'launched_at' | null> = { draft: null, awaiting_launch: 'published_at', launched: 'launched_at' };

export function campaignRepository(db: Db) {
  return {
    async create(fields: Pick<CampaignRow, 'workspace_id' | 'project_id' | 'name' | 'channel' | 'created_by'>): Promise<CampaignRow> {
      const [row] = await db('campaigns')
        .insert({ id: randomUUID(), ...fields })
        .returning('*');
      return row;
    },
    async listForWorkspace(workspaceId: string, limit: number): Promise<CampaignRow[]> {
      return db('campaigns')
        .where({ workspace_id: workspaceId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit);
    },
    async findInWorkspace(workspaceId: string, id: string): Promise<CampaignRow | undefined> {
      return db('campaigns').where({ workspace_id: workspaceId, id }).first();
    },
    /** Compare-and-set on the status, so two concurrent moves cannot both win; undefined when `from` no longer holds. */
    async move(id: string, from: CampaignStatus, to: CampaignStatus): Promise<CampaignRow | undefined> {
      const stamp = STAMP[to];
      const [row] = await db('campaigns')
        .where({ id, status: from })
        .update({ status: to, ...(stamp ? { [stamp]: db.fn.now() } : {}) })
        .returning('*');
      return row;
    },
  };
}
