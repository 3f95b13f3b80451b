import type { Config } from '../../src/config';
import { openApiDocument } from '../catalog';
import type { RouteDef } from '../route-def';
import { escapeHtml, pageSecurityHeaders } from './html';

const DOCS_STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2430}
h1{margin-bottom:.2rem} h2{font-size:1.05rem;margin:1.6rem 0 .3rem} small{color:#687385;font-weight:normal}
.m{display:inline-block;min-width:4.2rem;font:600 .8rem monospace;color:#fff;background:#3b5bdb;border-radius:4px;padding:.1rem .4rem;text-align:center}
.meta{color:#4a5568;font-size:.9rem;margin:.2rem 0} pre{background:#f4f6f8;padding:.8rem;overflow:auto;font-size:.8rem}
section{border-bottom:1px solid #e3e8ee;padding-bottom:.6rem}
`;
export const DOCS_PAGE_HEADERS = pageSecurityHeaders(DOCS_STYLE);

/** The API reference at /docs, rendered from the same OpenAPI document as /v1/openapi.json. */
export function renderDocsPage(routes: readonly RouteDef[], config: Config): string {
  const doc = openApiDocument(routes, config);
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op: op as Record<string, unknown> })),
  );
  const rows = operations
    .map(({ path, method, op }) => {
      const body = (op.requestBody as { content: Record<string, { schema: unknown }> } | undefined)?.content['application/json'].schema;
      const params = (op.parameters as { name: string; in: string }[]).map((p) => `<code>${escapeHtml(p.name)}</code> (${p.in})`).join(', ');
      return `<section id="${escapeHtml(String(op.operationId))}">
  <h2><span class="m">${method}</span> <code>${escapeHtml(path)}</code> <small>${escapeHtml(String(op.operationId))}</small></h2>
  <p>${escapeHtml(String(op.summary))}</p>
  <p class="meta">${escapeHtml(String(op.description))} Cost class: <code>${escapeHtml(String(op['x-cost']))}</code>.</p>
  ${params ? `<p class="meta">Parameters: ${params}</p>` : ''}
  ${body ? `<details><summary>Request body schema</summary><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre></details>` : ''}
</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Candidate Sourcing API reference</title>
<style>${DOCS_STYLE}</style></head><body>
<h1>Candidate Sourcing API</h1>
<p>Base URL <code>${escapeHtml(config.publicBaseUrl)}</code>. Send <code>Authorization: Bearer &lt;API_KEY&gt;</code>.
Successful responses are <code>{data, meta:{request_id}}</code>; errors are <code>{error:{code, message, details, request_id}, meta}</code>.
Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
${rows}
</body></html>`;
}
