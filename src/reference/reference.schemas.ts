import { z } from 'zod';

export const industriesQuery = z.object({ q: z.string().optional().describe('part of an industry name (case-insensitive)') });

export const criteriaReference = z
  .strictObject({
    fields: z.record(z.string(), z.record(z.string(), z.unknown())).describe('Every criteria field: type, required, bounds, allowed values, description'),
    jd_text: z.record(z.string(), z.unknown()).describe('The bounds of a job description sent instead of criteria'),
    rules: z.array(z.string()),
    example: z.record(z.string(), z.unknown()).describe('Criteria that pass validation'),
  })
  .meta({ id: 'CriteriaReference' });

export const industries = z.array(z.string()).meta({ id: 'Industries' });

export const healthStatus = z
  .strictObject({
    ok: z.boolean(),
    checks: z.strictObject({ database: z.enum(['ok', 'error']), temporal: z.enum(['ok', 'error']), worker: z.enum(['ok', 'error']).optional() }),
  })
  .meta({ id: 'Health' });

export const healthQuery = z.object({
  worker: z
    .stringbool({ truthy: ['true'], falsy: ['false'] })
    .default(false)
    .meta({ description: 'true probes a worker end to end', override: { type: 'boolean' } }),
});

export const action = z
  .strictObject({
    name: z.string(),
    method: z.enum(['GET', 'POST', 'PATCH', 'DELETE']),
    path: z.string(),
    scope: z.string(),
    cost: z.string(),
    cost_line: z.string(),
    summary: z.string(),
    proposable: z.boolean(),
  })
  .meta({ id: 'Action' });
