import { z } from 'zod';
import { ROLES } from '../db/membership.repository';
import { whenMissing } from '../domain/errors';
import { NOT_BLANK } from '../domain/text';

/** Request and response schemas of sign-in, sign-out and /api/me. */

export const signInBody = z.strictObject({
  // Compared trimmed and in lower case (normalizeEmail); an address that is no user's is a 401.
  email: z
    .string({ error: whenMissing('email is required') })
    .max(320, 'email is too long: at most 320 characters')
    .regex(NOT_BLANK, 'email must not be empty')
    .describe("The user's email"),
  password: z
    .string({ error: whenMissing('password is required') })
    .min(1, 'password must not be empty')
    .max(1024, 'password is too long: at most 1,024 characters')
    .describe("The user's password"),
});

export const switchWorkspaceBody = z.strictObject({ workspace_id: z.string().describe('A workspace the user is a member of') });

// ---- responses ----

export const ok = z.strictObject({ ok: z.literal(true) }).meta({ id: 'Ok' });

export const me = z
  .strictObject({
    user: z.strictObject({ id: z.uuid(), email: z.string() }),
    workspace: z.strictObject({ id: z.uuid(), name: z.string(), plan: z.string().nullable(), frozen: z.boolean() }),
    role: z.enum(ROLES),
    workspaces: z.array(z.strictObject({ id: z.uuid(), name: z.string(), role: z.enum(ROLES) })).describe('Every workspace of the user'),
  })
  .meta({ id: 'Me', description: 'The signed-in user, the active workspace and the role there' });
