import type { CredentialRow } from '../db/credential.repository';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The credential object of the spec; the key itself never leaves the service. */
export function credentialJson(row: CredentialRow) {
  return {
    id: row.id,
    provider: row.provider,
    label: row.label,
    key_hint: row.key_hint,
    is_active: row.is_active,
    verified_at: iso(row.verified_at),
    verify_error: row.verify_error,
    created_at: iso(row.created_at),
  };
}
