import { apiKeyRepository, type ApiKey } from '../../src/db/api-key.repository';
import type { Db } from '../../src/db/knex';
import { workspaceRepository, type Workspace, type WorkspaceChanges } from '../../src/db/workspace.repository';
import type { FundingMode } from '../../src/domain/api-keys';

export interface KeyFixture {
  workspace: Workspace;
  key: ApiKey;
  raw: string;
  headers: { Authorization: string };
}

/** A fresh workspace (own rate-limit buckets, own records) and a key for it. */
export async function workspaceWithKey(
  db: Db,
  opts: { scopes?: string[]; keyRateLimit?: number; plan?: string | null; credits?: number; funding?: FundingMode; workspace?: WorkspaceChanges } = {},
): Promise<KeyFixture> {
  const workspace = await workspaceRepository(db).create({
    name: 'Test workspace',
    plan: opts.plan === undefined ? 'starter' : opts.plan,
    credits: opts.credits ?? 10,
    ...opts.workspace,
  });
  const extra = await keyFor(db, workspace, opts);
  return { workspace, ...extra };
}

export async function keyFor(
  db: Db,
  workspace: Workspace,
  opts: { scopes?: string[]; keyRateLimit?: number; funding?: FundingMode; expiresAt?: Date | null } = {},
): Promise<Omit<KeyFixture, 'workspace'>> {
  const { key, raw } = await apiKeyRepository(db).issue({
    workspaceId: workspace.id,
    name: 'test key',
    scopes: opts.scopes ?? ['*'],
    fundingMode: opts.funding ?? 'workspace',
    environment: 'test',
    rateLimitPerMinute: opts.keyRateLimit ?? 10_000,
    expiresAt: opts.expiresAt ?? null,
  });
  return { key, raw, headers: { Authorization: `Bearer ${raw}` } };
}

/** Fixed one-minute windows: wait out the last seconds of a minute so a burst stays in one window. */
export async function awayFromWindowEdge(marginMs = 4000): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 60_000 - marginMs) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
}
