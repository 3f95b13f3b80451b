import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/knex';
import type { Role } from '../../src/db/membership.repository';
import type { Workspace, WorkspaceChanges } from '../../src/db/workspace.repository';
import { createUser } from '../../src/users/users.service';
import { workspaceWithKey, type KeyFixture } from './fixtures';
import type { TestResponse, TestStack } from './stack';

export const TEST_PASSWORD = 'correct horse battery staple';

/** The `sid` cookie of a response, as a Cookie request header value. */
export function sidOf(res: TestResponse): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
  if (!set) throw new Error(`no sid cookie (status ${res.status}: ${res.text})`);
  return set.split(';')[0];
}

export async function signIn(stack: TestStack, email: string, password = TEST_PASSWORD): Promise<string> {
  const res = await stack.request('POST', '/api/auth/sign-in', { body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return sidOf(res);
}

export interface Member {
  email: string;
  cookie: string;
  headers: { Cookie: string };
  userId: string;
}

/** A fresh user with `role` in `workspace`, signed in. */
export async function memberOf(stack: TestStack, workspace: Workspace, role: Role): Promise<Member> {
  const email = `${role}-${randomUUID()}@example.test`;
  const user = await createUser(stack.db, { email, password: TEST_PASSWORD, workspaceId: workspace.id, role });
  const cookie = await signIn(stack, email);
  return { email, cookie, headers: { Cookie: cookie }, userId: user.id };
}

/** A workspace (with a key for the key API) and a signed-in member of each role. */
export async function workspaceWithMembers(stack: TestStack, opts: { workspace?: WorkspaceChanges; credits?: number } = {}) {
  const fixture: KeyFixture = await workspaceWithKey(stack.db, { workspace: opts.workspace, credits: opts.credits });
  const [viewer, operator, admin] = await Promise.all((['viewer', 'operator', 'admin'] as const).map((r) => memberOf(stack, fixture.workspace, r)));
  return { ...fixture, viewer, operator, admin };
}

export const sessionsOf = (db: Db, userId: string) => db('sessions').where({ user_id: userId });
