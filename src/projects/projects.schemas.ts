import { z } from 'zod';
import { NOT_BLANK } from '../domain/text';

export const PROJECT_NAME_MAX = 120;

export const projectParams = z.object({ projectId: z.uuid().describe('Project id') });

/** 1 to 120 characters counted as characters (not UTF-16 units or bytes), not blank. */
const projectName = z
  .string()
  .superRefine((name, ctx) => {
    const length = [...name].length;
    if (name.trim() === '' || length > PROJECT_NAME_MAX) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a non-empty string of at most ${PROJECT_NAME_MAX} characters`,
        params: { max_length: PROJECT_NAME_MAX, length },
      });
    }
  })
  .meta({ description: `1 to ${PROJECT_NAME_MAX} characters, not blank`, minLength: 1, maxLength: PROJECT_NAME_MAX, pattern: NOT_BLANK.source });

export const createProjectBody = z.strictObject({ name: projectName }).meta({ id: 'CreateProject', description: 'A new project' });

export const project = z.strictObject({ id: z.uuid(), name: z.string(), created_at: z.iso.datetime() }).meta({ id: 'Project' });
