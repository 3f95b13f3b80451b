/** Outcome of one cheap call that checks a provider key (credential verify). */
export type VerifyResult = { ok: true } | { ok: false; error: string };

export const VERIFY_TIMEOUT_MS = 10_000;

/**
 * One GET; 2xx verifies the key. The error names the HTTP status, never the key (some vendors
 * take it in the query string, so the URL is not echoed either).
 */
export async function verifyByGet(provider: string, url: string, headers: Record<string, string>): Promise<VerifyResult> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS), redirect: 'error' });
    await res.body?.cancel();
    if (res.ok) return { ok: true };
    if (res.status === 401 || res.status === 403) return { ok: false, error: `${provider} rejected the key (HTTP ${res.status})` };
    return { ok: false, error: `${provider} answered HTTP ${res.status}` };
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${VERIFY_TIMEOUT_MS / 1000} s` : 'could not be reached';
    return { ok: false, error: `${provider} ${reason}` };
  }
}
