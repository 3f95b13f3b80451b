import { randomUUID } from 'node:crypto';
import { generateApiKey, type FundingMode, type KeyEnvironment } from '../domain/api-keys';
import type { Db } from './knex';
import type { Workspace } from './workspace.repository';

export interface ApiKey {
  id: string;
  workspace_id: string;
  name: string;
  key_hash: string;
  key_hint: string;
  scopes: string[];
  funding_mode: FundingMode;
  environment: KeyEnvironment;
  rate_limit_per_minute: number;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** A key with its workspace, as authentication needs both. */
export interface KeyWithWorkspace {
  key: ApiKey;
  workspace: Workspace;
  /**
   * The providers the workspace had an active credential for when the key was checked (read with
   * it, `authenticate_key`); absent where the key was read without them.
   */
  credentialProviders?: readonly string[];
  /**
   * The version of the search the request's path names, read with the key (`authenticate_key`):
   * null when the workspace has no such search; absent where it was not read.
   */
  searchVersion?: SearchVersion | null;
}

/** What changes with every change of a search or its people (searches.updated_at, see searches_touch). */
export interface SearchVersion {
  status: 'queued' | 'running' | 'complete' | 'failed';
  updated_at: Date;
}

export interface NewKey {
  workspaceId: string;
  name: string;
  scopes: string[];
  fundingMode: FundingMode;
  environment: KeyEnvironment;
  rateLimitPerMinute: number;
  expiresAt: Date | null;
}

/** A key and its workspace from their JSON forms (timestamps arrive as ISO strings). */
export function reviveKeyWithWorkspace(key: Record<string, unknown>, workspace: Record<string, unknown>): KeyWithWorkspace {
  const revive = <T extends Record<string, unknown>>(r: T, dates: string[]): T => {
    for (const d of dates) if (r[d]) (r as Record<string, unknown>)[d] = new Date(r[d] as string);
    return r;
  };
  return {
    key: revive(key, ['created_at', 'expires_at', 'revoked_at', 'last_used_at']) as unknown as ApiKey,
    workspace: revive(workspace, ['created_at', 'updated_at', 'plan_expires_at']) as unknown as Workspace,
  };
}

export function apiKeyRepository(db: Db) {
  return {
    /** Generates a key and stores only its hash; `raw` exists only in the return value. */
    async issue(fields: NewKey): Promise<{ key: ApiKey; raw: string }> {
      const generated = generateApiKey(fields.environment);
      const [key] = await db('api_keys')
        .insert({
          id: randomUUID(),
          workspace_id: fields.workspaceId,
          name: fields.name,
          key_hash: generated.hash,
          key_hint: generated.hint,
          scopes: fields.scopes,
          funding_mode: fields.fundingMode,
          environment: fields.environment,
          rate_limit_per_minute: fields.rateLimitPerMinute,
          expires_at: fields.expiresAt,
        })
        .returning('*');
      return { key, raw: generated.raw };
    },
    async listForWorkspace(workspaceId: string): Promise<ApiKey[]> {
      return db('api_keys').where({ workspace_id: workspaceId }).orderBy('created_at', 'asc');
    },
    async find(id: string): Promise<ApiKey | undefined> {
      return db('api_keys').where({ id }).first();
    },
    async revoke(id: string): Promise<ApiKey | undefined> {
      const [row] = await db('api_keys')
        .where({ id })
        .update({ revoked_at: db.raw('coalesce(revoked_at, now())') })
        .returning('*');
      return row;
    },
    /** One query per request: the key and its workspace, by hash. */
    async findByHash(hash: string): Promise<KeyWithWorkspace | undefined> {
      const row = await db('api_keys as k')
        .join('workspaces as w', 'w.id', 'k.workspace_id')
        .where('k.key_hash', hash)
        .first(db.raw('row_to_json(k.*) as key'), db.raw('row_to_json(w.*) as workspace'));
      return row ? reviveKeyWithWorkspace(row.key, row.workspace) : undefined;
    },
    /** At most one write a minute per key: last-used is for humans, not an audit log. */
    async touchLastUsed(id: string): Promise<void> {
      await db('api_keys')
        .where({ id })
        .andWhere((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', db.raw("now() - interval '1 minute'")))
        .update({ last_used_at: db.fn.now() });
    },
  };
}
