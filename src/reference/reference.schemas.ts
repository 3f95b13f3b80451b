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

export const placesQuery = z
  .object({
    q: z.string().trim().min(1).max(100).optional().describe('the start of a place name, any case, accents optional ("leed", "São Pa", "Bavaria", "UK")'),
    ids: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .optional()
      .describe('place ids, comma-separated, at most 20 (geonames:2644688,geonames:2643123): the places criteria or a reader name by id'),
  })
  .refine((v) => (v.q === undefined) !== (v.ids === undefined), { message: 'send q (a name to look up) or ids (places to name), one of them' });

export const referencePlace = z
  .strictObject({
    id: z.string().describe('geonames:<id>, usable in criteria places as {id, radius_km}'),
    name: z.string().describe('Name, region and country: "Leeds, England, United Kingdom"'),
    kind: z.enum(['city', 'region', 'country']),
    country: z.string().describe('ISO 3166-1 alpha-2'),
    lat: z.number(),
    lon: z.number(),
    population: z.number().int(),
  })
  .meta({ id: 'ReferencePlace' });

export const occupationsQuery = z.object({
  q: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe('words of an occupation or job title ("pharmac", "truck driver"), or the start of an O*NET-SOC code ("29-10")'),
});

export const referenceOccupation = z
  .strictObject({
    code: z.string().describe('O*NET-SOC 2019 code, e.g. 29-1051.00; usable in criteria occupations'),
    title: z.string().describe("The occupation's O*NET title"),
    family: z.string().nullable().describe('The role family it sits in, or null (most occupations sit in none)'),
  })
  .meta({ id: 'ReferenceOccupation' });

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
