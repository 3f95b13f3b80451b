import { createHash } from 'node:crypto';

/** Escapes text for HTML element content and attribute values. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;

/**
 * Headers for our server-rendered pages: no scripts at all, only our own inline stylesheet (by
 * hash), no framing, no referrer leaks.
 */
export function pageSecurityHeaders(css: string): Record<string, string> {
  return {
    'Content-Security-Policy': `default-src 'none'; style-src ${styleHash(css)}; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}
