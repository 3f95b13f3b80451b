import { z } from 'zod';
import { CRITERIA_OR_JD_TEXT, launchBody, launchedSearch, searchListItem } from '../searches/searches.schemas';

/**
 * POST /api/scans: the key API's launch body (`launchBody`: criteria or jd_text, validated and
 * resolved by the same schema) plus the project; the Idempotency-Key header is required as there.
 */
export const createScanBody = launchBody
  .safeExtend({ project_id: z.string().describe('The project to search in') })
  .meta({ id: 'CreateScan', description: 'project_id with criteria or jd_text, not both', oneOf: CRITERIA_OR_JD_TEXT });
export type CreateScanBody = z.output<typeof createScanBody>;

// ---- responses ----

export const scanList = z.strictObject({ scans: z.array(searchListItem).describe('The newest 200 searches of all projects') });
export const scanLaunched = z.strictObject({ scan: launchedSearch });
