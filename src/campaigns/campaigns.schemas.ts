import { z } from 'zod';

/** POST /api/campaigns */
export const createCampaignBody = z.strictObject({
  name: z.string().trim().min(1, 'name must not be empty').max(120).describe('Campaign name'),
  channel: z.enum(['email', 'social']).describe('Outreach channel'),
  project_id: z.string().optional().describe('The project whose shortlist the campaign reaches'),
});
export type CreateCampaignBody = z.infer<typeof createCampaignBody>;
