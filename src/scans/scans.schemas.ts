import { z } from 'zod';

/** POST /api/scans: the project and the criteria; the Idempotency-Key header is required as on the key API. */
export const createScanBody = z.strictObject({
  project_id: z.string().describe('The project to search in'),
  criteria: z.record(z.string(), z.unknown()).describe('Search criteria; see GET /v1/reference/criteria'),
});
export type CreateScanBody = z.infer<typeof createScanBody>;
