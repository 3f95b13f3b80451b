import type { CampaignRow } from '../db/campaign.repository';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function campaignJson(row: CampaignRow) {
  return {
    id: row.id,
    name: row.name,
    channel: row.channel,
    status: row.status,
    project_id: row.project_id,
    created_at: iso(row.created_at),
    published_at: iso(row.published_at),
    launched_at: iso(row.launched_at),
  };
}
