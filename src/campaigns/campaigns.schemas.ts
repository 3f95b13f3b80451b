import { z } from 'zod';
import { trimmedText } from '../domain/text';

/** POST /api/campaigns */
export const createCampaignBody = z.strictObject({
  name: trimmedText(120, { blank: 'name must not be empty' }).describe('Campaign name'),
  channel: z.enum(['email', 'social']).describe('Outreach channel'),
  project_id: z.string().optional().describe('The project whose shortlist the campaign reaches'),
});
export type CreateCampaignBody = z.infer<typeof createCampaignBody>;

export const campaignParams = z.object({ id: z.uuid().describe('Campaign id') });

// ---- responses ----

export const campaign = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    channel: z.enum(['email', 'social']),
    status: z.enum(['draft', 'awaiting_launch', 'launched']),
    project_id: z.uuid().nullable(),
    created_at: z.iso.datetime(),
    published_at: z.iso.datetime().nullable(),
    launched_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Campaign' });

export const campaignReply = z.strictObject({ campaign });
export const campaignList = z.strictObject({ campaigns: z.array(campaign).describe('The newest 200') });
