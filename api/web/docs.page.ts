import { createRequire } from 'node:module';
import type { RouteDef } from '../route-def';
import { escapeHtml } from './html';

/** Scalar's standalone bundle, served by us from node_modules (no third-party host). */
export const SCALAR_BUNDLE_PATH = createRequire(__filename).resolve('@scalar/api-reference/browser/standalone.js');
export const DOCS_SCRIPT_URL = '/docs/scalar.js';

/**
 * /docs only: the reference viewer is a script bundle that injects its own styles and fetches
 * /v1/openapi.json, so scripts and connections to our own origin and inline styles are allowed
 * here; every other page keeps the no-script policy of pageSecurityHeaders.
 */
export const DOCS_PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

const SCALAR_CONFIGURATION = JSON.stringify({
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
});

/** The API reference at /docs: Scalar renders /v1/openapi.json; without scripts, a plain list of the operations. */
export function renderDocsPage(routes: readonly RouteDef[]): string {
  const rows = routes
    .map((r) => `<li id="${escapeHtml(r.name)}"><code>${r.method} /v1${escapeHtml(r.path)}</code> ${escapeHtml(r.name)}: ${escapeHtml(r.summary)}</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Candidate Sourcing API reference</title></head><body>
<noscript><h1>Candidate Sourcing API</h1><p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a>.</p><ul>
${rows}
</ul></noscript>
<script id="api-reference" data-url="/v1/openapi.json" data-configuration="${escapeHtml(SCALAR_CONFIGURATION)}"></script>
<script src="${DOCS_SCRIPT_URL}"></script>
</body></html>`;
}
