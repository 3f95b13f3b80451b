import { z } from 'zod';
import { NO_NUL } from '../domain/text';

export const MAX_IDS_PER_ADD = 200;

export const memberParams = z.object({
  projectId: z.uuid().describe('Project id'),
  candidateId: z.string().describe('Candidate id (an unknown or malformed id is simply not on the list)'),
});

/** 1 to 200 candidate ids; repeats count once. */
export const addMembersBody = z
  .strictObject({
    candidate_ids: z
      .array(z.string())
      .max(MAX_IDS_PER_ADD)
      .nullish()
      .describe(`1 to ${MAX_IDS_PER_ADD} candidate ids from the people of the project's searches`)
      // Absent, null and [] are refused with candidate_ids_required (the superRefine below): the document says so.
      .meta({
        override: ({ jsonSchema }) => {
          delete jsonSchema.anyOf;
          Object.assign(jsonSchema, { type: 'array', items: { type: 'string', pattern: NO_NUL.source }, minItems: 1, maxItems: MAX_IDS_PER_ADD });
        },
      }),
  })
  .superRefine((b, ctx) => {
    if (!b.candidate_ids?.length)
      ctx.addIssue({
        code: 'custom',
        message: `send candidate_ids: an array of 1 to ${MAX_IDS_PER_ADD} candidate ids`,
        path: ['candidate_ids'],
        params: { code: 'candidate_ids_required' },
      });
  })
  .transform((b) => ({ candidate_ids: [...new Set(b.candidate_ids ?? [])] }))
  .meta({ id: 'AddShortlistMembers', description: 'Candidates to add', required: ['candidate_ids'] });

export const shortlistMember = z
  .strictObject({
    candidate_id: z.uuid(),
    name: z.string(),
    title: z.string(),
    company: z.string(),
    location: z.string(),
    network_url: z.string(),
    score: z.int().nullable(),
    search_id: z.uuid().nullable(),
    added_at: z.iso.datetime(),
    source: z.enum(['api', 'app', 'search', 'expansion', 'scoring', 'database_pass', 'monitor', 'feedback']),
  })
  .meta({ id: 'ShortlistMember' });

export const membersAdded = z
  .strictObject({
    added: z.array(z.uuid()).describe('Ids newly put on the list'),
    already: z.int().describe('How many of the ids were already on the list'),
    already_listed: z.array(z.uuid()).describe('The ids that were already on the list'),
    shortlisted: z.int().describe('Members now'),
  })
  .meta({ id: 'ShortlistMembersAdded' });

export const memberRemoved = z.strictObject({ candidate_id: z.string(), removed: z.boolean(), shortlisted: z.int() }).meta({ id: 'ShortlistMemberRemoved' });

export const shareLink = z.strictObject({ project_id: z.uuid(), url: z.url(), shortlisted: z.int() }).meta({ id: 'ShareLink' });

/** `list_before` / `list_after` of shortlist.changed: a count and at most 200 ids. */
const listSnapshot = z.strictObject({ count: z.int(), candidate_ids: z.array(z.uuid()) });

export const shortlistChangedData = z
  .strictObject({
    project_id: z.uuid(),
    search_id: z.uuid().optional(),
    kind: z.enum(['added', 'removed', 'rescored', 'pass']),
    source: z.enum(['api', 'app', 'search', 'expansion', 'scoring', 'database_pass', 'monitor', 'feedback']),
    list_before: listSnapshot,
    list_after: listSnapshot,
    links: z.strictObject({ shortlist: z.url(), shortlist_csv: z.url(), search: z.url().optional() }),
  })
  .meta({ id: 'ShortlistChangedData' });
