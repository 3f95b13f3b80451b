import { randomUUID } from 'node:crypto';
import type { Config } from '../config';
import { credentialRepository, type CredentialRow } from '../db/credential.repository';
import type { Db } from '../db/knex';
import { webhookRepository } from '../db/webhook.repository';
import { AppError } from '../domain/errors';
import type { ProviderId } from '../providers/provider-ids';
import { verifyProviderKey } from '../providers/verify';
import { decryptSecret, encryptSecret, reencryptSecret } from '../webhooks/secrets';
import type { CreateCredentialBody } from './credentials.schemas';

/** Provider credentials of a workspace (spec "Credential"), encrypted with the secrets module. */

/**
 * First 4 and last 4 characters around `…` (DESIGN.md §10). Keys shorter than 16 characters
 * show only their last 4, so the hint never reveals most of a short key.
 */
export function keyHint(apiKey: string): string {
  return apiKey.length >= 16 ? `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}` : `…${apiKey.slice(-4)}`;
}

export async function createCredential(db: Db, config: Config, workspaceId: string, body: CreateCredentialBody): Promise<CredentialRow> {
  const id = randomUUID();
  return credentialRepository(db).rotate({
    id,
    workspace_id: workspaceId,
    provider: body.provider,
    label: body.label,
    key_ciphertext: encryptSecret(config.secretsKey, body.apiKey, id),
    key_hint: keyHint(body.apiKey),
  });
}

async function findOr404(db: Db, workspaceId: string, id: string): Promise<CredentialRow> {
  const row = await credentialRepository(db).findInWorkspace(workspaceId, id);
  if (!row) throw new AppError('not_found', 404, 'Credential not found');
  return row;
}

/** DELETE: the credential becomes inactive (kept for audit); 409 when it already was. */
export async function retireCredential(db: Db, workspaceId: string, id: string): Promise<void> {
  await findOr404(db, workspaceId, id);
  if (!(await credentialRepository(db).retire(id))) throw new AppError('credential_inactive', 409, 'The credential is already inactive');
}

const decryptKey = (config: Config, row: CredentialRow) => decryptSecret(config.secretsKey, row.key_ciphertext, row.id, config.secretsKeyPrevious);

/** One cheap provider call; records `verified_at` or `verify_error`. Only active credentials are verified. */
export async function verifyCredential(db: Db, config: Config, workspaceId: string, id: string): Promise<CredentialRow> {
  const row = await findOr404(db, workspaceId, id);
  if (!row.is_active) throw new AppError('credential_inactive', 409, 'An inactive credential cannot be verified');
  const result = await verifyProviderKey(config, row.provider, decryptKey(config, row));
  return credentialRepository(db).recordVerification(row.id, result);
}

export interface ProviderKey {
  apiKey: string;
  source: 'workspace' | 'server';
}

/** DESIGN.md §9 resolution: the workspace's active credential, else the server-wide key, else null. */
export async function resolveProviderKey(
  db: Db,
  config: Config,
  workspaceId: string,
  provider: ProviderId,
  credentialProviders?: readonly string[],
): Promise<ProviderKey | null> {
  // Known from the key check (KeyWithWorkspace.credentialProviders): no credential, no lookup.
  const mayHaveCredential = credentialProviders?.includes(provider) ?? true;
  const row = mayHaveCredential ? await credentialRepository(db).activeFor(workspaceId, provider) : undefined;
  if (row) return { apiKey: decryptKey(config, row), source: 'workspace' };
  const server = config.providers[provider].apiKey;
  return server ? { apiKey: server, source: 'server' } : null;
}

/**
 * `secrets reencrypt`: moves every stored secret (credentials, webhook signing secrets) to
 * SECRETS_KEY. Rows already under it are left alone, so the command can be re-run at any time;
 * rows neither key decrypts are skipped and reported by id.
 */
export async function reencryptAllSecrets(
  db: Db,
  config: Config,
): Promise<{ credentials: number; webhooks: number; unchanged: number; undecryptable: string[] }> {
  const counts = { credentials: 0, webhooks: 0, unchanged: 0, undecryptable: [] as string[] };
  const move = async (kind: 'credentials' | 'webhooks', id: string, stored: string, save: (ciphertext: string) => Promise<void>) => {
    let moved: string | null;
    try {
      moved = reencryptSecret(config.secretsKey, stored, id, config.secretsKeyPrevious);
    } catch {
      counts.undecryptable.push(`${kind === 'credentials' ? 'credential' : 'webhook'} ${id}`);
      return;
    }
    if (moved) {
      await save(moved);
      counts[kind]++;
    } else counts.unchanged++;
  };
  const credentials = credentialRepository(db);
  for (const row of await credentials.allCiphertexts()) await move('credentials', row.id, row.key_ciphertext, (c) => credentials.setCiphertext(row.id, c));
  const webhooks = webhookRepository(db);
  for (const row of await webhooks.allSecretCiphertexts())
    await move('webhooks', row.id, row.secret_ciphertext, (c) => webhooks.setSecretCiphertext(row.id, c));
  return counts;
}
