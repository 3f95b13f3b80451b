import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../src/db/knex';
import { membershipRepository } from '../../src/db/membership.repository';
import { userRepository } from '../../src/db/user.repository';
import { hashPassword } from '../../src/users/users.service';

export const DEMO_EMAIL = 'demo@example.com';

export interface DemoUser {
  email: string;
  password: string;
}

/**
 * The demo user (admin of the demo workspace) for signing in to the session API under
 * `npm run dev`. Its random password is kept in the git-ignored data directory so every dev start
 * prints the same one; a missing file gets a new password.
 */
export async function seedDemoUser(db: Db, dataDir: string, workspaceId: string): Promise<DemoUser> {
  const file = path.join(dataDir, 'demo-user.json');
  const saved = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as DemoUser) : undefined;
  const password = saved?.password ?? randomBytes(12).toString('base64url');
  const users = userRepository(db);
  let user = await users.findByEmail(DEMO_EMAIL);
  if (!user) user = await users.create(DEMO_EMAIL, await hashPassword(password));
  else if (!saved) await users.setPassword(user.id, await hashPassword(password));
  await membershipRepository(db).upsert(user.id, workspaceId, 'admin');
  fs.writeFileSync(file, JSON.stringify({ email: DEMO_EMAIL, password }, null, 2), { mode: 0o600 });
  return { email: DEMO_EMAIL, password };
}
