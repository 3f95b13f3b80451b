import type { Config } from '../config';
import { resolveProviderKey } from '../credentials/credentials.service';
import { campaignRepository, type CampaignRow, type CampaignStatus } from '../db/campaign.repository';
import type { Db } from '../db/knex';
import { projectRepository } from '../db/project.repository';
import { AppError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import type { CreateCampaignBody } from './campaigns.schemas';

/** Campaigns: draft → awaiting_launch (publish) → launched (DESIGN.md §10). */

export const CAMPAIGN_LIST_LIMIT = 200;

export async function createCampaign(db: Db, workspaceId: string, userId: string, body: CreateCampaignBody): Promise<CampaignRow> {
  if (body.project_id !== undefined) {
    const project = isUuid(body.project_id) ? await projectRepository(db).findInWorkspace(workspaceId, body.project_id) : undefined;
    if (!project) throw new AppError('project_not_found', 404, 'Project not found');
  }
  return campaignRepository(db).create({
    workspace_id: workspaceId,
    project_id: body.project_id ?? null,
    name: body.name,
    channel: body.channel,
    created_by: userId,
  });
}

async function findOr404(db: Db, workspaceId: string, id: string): Promise<CampaignRow> {
  const row = isUuid(id) ? await campaignRepository(db).findInWorkspace(workspaceId, id) : undefined;
  if (!row) throw new AppError('not_found', 404, 'Campaign not found');
  return row;
}

async function move(db: Db, campaign: CampaignRow, from: CampaignStatus, to: CampaignStatus, verb: string): Promise<CampaignRow> {
  const conflict = (status: string) => new AppError(null, 409, `Only a campaign in state ${from} can be ${verb}; this one is ${status}`);
  if (campaign.status !== from) throw conflict(campaign.status);
  const moved = await campaignRepository(db).move(campaign.id, from, to);
  if (!moved) throw conflict('no longer ' + from); // a concurrent request moved it first
  return moved;
}

export async function publishCampaign(db: Db, workspaceId: string, id: string): Promise<CampaignRow> {
  return move(db, await findOr404(db, workspaceId, id), 'draft', 'awaiting_launch', 'published');
}

/**
 * 409 unless awaiting_launch; then the channel needs its outreach capability: `email` a hunter
 * source (workspace credential or server key), `social` has no provider at all.
 */
export async function launchCampaign(db: Db, config: Config, workspaceId: string, id: string): Promise<CampaignRow> {
  const campaign = await findOr404(db, workspaceId, id);
  if (campaign.status !== 'awaiting_launch')
    throw new AppError(null, 409, `Only a campaign in state awaiting_launch can be launched; this one is ${campaign.status}`);
  if (campaign.channel === 'social') throw new AppError('socialoutreach_not_configured', 424, 'Social outreach has no provider configured');
  if (!(await resolveProviderKey(db, config, workspaceId, 'hunter'))) {
    throw new AppError('emailoutreach_not_configured', 424, 'Email outreach needs a hunter credential (contact data); an admin can add one');
  }
  return move(db, campaign, 'awaiting_launch', 'launched', 'launched');
}

export async function listCampaigns(db: Db, workspaceId: string): Promise<CampaignRow[]> {
  return campaignRepository(db).listForWorkspace(workspaceId, CAMPAIGN_LIST_LIMIT);
}
