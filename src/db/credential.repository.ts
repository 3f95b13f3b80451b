import type { ProviderId } from '../providers/provider-ids';
import type { Db } from './knex';

export interface CredentialRow {
  id: string;
  workspace_id: string;
  provider: ProviderId;
  label: string;
  key_ciphertext: string;
  key_hint: string;
  is_active: boolean;
  verified_at: Date | null;
  verify_error: string | null;
  created_at: Date;
  retired_at: Date | null;
}

export function credentialRepository(db: Db) {
  return {
    /**
     * Rotation: retires the active credential with the same (provider, label), then stores the new
     * one, in one transaction (the partial unique index keeps one active row per pair).
     */
    async rotate(row: Pick<CredentialRow, 'id' | 'workspace_id' | 'provider' | 'label' | 'key_ciphertext' | 'key_hint'>): Promise<CredentialRow> {
      return db.transaction(async (trx) => {
        await trx('credentials')
          .where({ workspace_id: row.workspace_id, provider: row.provider, label: row.label, is_active: true })
          .update({ is_active: false, retired_at: trx.fn.now() });
        const [created] = await trx('credentials').insert(row).returning('*');
        return created;
      });
    },
    async listActive(workspaceId: string): Promise<CredentialRow[]> {
      return db('credentials')
        .where({ workspace_id: workspaceId, is_active: true })
        .orderBy([{ column: 'provider' }, { column: 'label' }, { column: 'created_at' }]);
    },
    async findInWorkspace(workspaceId: string, id: string): Promise<CredentialRow | undefined> {
      return db('credentials').where({ workspace_id: workspaceId, id }).first();
    },
    /** The workspace's active credential for a provider (the `default` label first, else the newest). */
    async activeFor(workspaceId: string, provider: ProviderId): Promise<CredentialRow | undefined> {
      return db('credentials').where({ workspace_id: workspaceId, provider, is_active: true }).orderByRaw("label = 'default' desc, created_at desc").first();
    },
    /** Returns false when the credential was already inactive. */
    async retire(id: string): Promise<boolean> {
      const n = await db('credentials').where({ id, is_active: true }).update({ is_active: false, retired_at: db.fn.now() });
      return n > 0;
    },
    async recordVerification(id: string, result: { ok: true } | { ok: false; error: string }): Promise<CredentialRow> {
      const patch = result.ok ? { verified_at: db.fn.now(), verify_error: null } : { verify_error: result.error };
      const [row] = await db('credentials').where({ id }).update(patch).returning('*');
      return row;
    },
    /** Every credential (active or not), for `secrets reencrypt`. */
    async allCiphertexts(): Promise<Pick<CredentialRow, 'id' | 'key_ciphertext'>[]> {
      return db('credentials').select('id', 'key_ciphertext').orderBy('id');
    },
    async setCiphertext(id: string, keyCiphertext: string): Promise<void> {
      await db('credentials').where({ id }).update({ key_ciphertext: keyCiphertext });
    },
  };
}
