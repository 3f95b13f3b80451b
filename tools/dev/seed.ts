import fs from 'node:fs';
import path from 'node:path';
import { apiKeyRepository } from '../../src/db/api-key.repository';
import { hashApiKey } from '../../src/domain/api-keys';
import type { Db } from '../../src/db/knex';
import { workspaceRepository } from '../../src/db/workspace.repository';

export interface DemoAccess {
  workspaceId: string;
  key: string;
  created: boolean;
}

/**
 * A demo workspace with credits and an all-scopes key for `npm run dev`. The raw key is kept in
 * the git-ignored data directory (dev only) so every dev start can print it again.
 */
export async function seedDemo(db: Db, dataDir: string): Promise<DemoAccess> {
  const file = path.join(dataDir, 'demo.json');
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { workspaceId: string; key: string };
    const found = await apiKeyRepository(db).findByHash(hashApiKey(saved.key));
    if (found && !found.key.revoked_at && found.workspace.id === saved.workspaceId) return { ...saved, created: false };
  }
  const workspace = await workspaceRepository(db).create({ name: 'Demo workspace', plan: 'starter', credits: 100 });
  const { raw } = await apiKeyRepository(db).issue({
    workspaceId: workspace.id,
    name: 'demo',
    scopes: ['*'],
    fundingMode: 'workspace',
    environment: 'test',
    rateLimitPerMinute: 120,
    expiresAt: null,
  });
  const access = { workspaceId: workspace.id, key: raw };
  fs.writeFileSync(file, JSON.stringify(access, null, 2), { mode: 0o600 });
  return { ...access, created: true };
}
