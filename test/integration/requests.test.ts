import fs from 'node:fs';
import path from 'node:path';
import { routeTable } from '../../api/route-table';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * The request collection (requests/*.http, REST Client format) against the OpenAPI document the
 * running API serves: every request names an operation that exists, carries the headers its route
 * requires, and sends a body its route accepts; together the files cover the spec's typical flow.
 */

const DIR = path.resolve(__dirname, '..', '..', 'requests');
/** What a `{{…}}` placeholder inside a JSON body stands for when validating it (ids are uuids). */
const SAMPLE_ID = '3f0c2a4e-8d1b-4c6a-9e2f-1a2b3c4d5e6f';

interface HttpRequest {
  file: string;
  title: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Requests are separated by `###` lines; `#`/`//` lines are comments, `@x = y` lines variables. */
function parseHttpFile(file: string): { variables: Record<string, string>; requests: HttpRequest[] } {
  const variables: Record<string, string> = {};
  const requests: HttpRequest[] = [];
  const blocks = fs.readFileSync(path.join(DIR, file), 'utf8').split(/^###(.*)$/m);
  for (let i = 0; i < blocks.length; i += 2) {
    const title = i === 0 ? '' : blocks[i - 1].trim();
    const lines = blocks[i].split('\n');
    let at = 0;
    const skip = () => {
      while (at < lines.length && (/^\s*(#|\/\/)/.test(lines[at]) || lines[at].trim() === '')) at++;
    };
    for (skip(); at < lines.length && lines[at].startsWith('@'); at++, skip()) {
      const m = /^@(\w+)\s*=\s*(.*)$/.exec(lines[at].trim());
      if (!m) throw new Error(`${file}: bad variable line ${lines[at]}`);
      variables[m[1]] = m[2];
    }
    if (at >= lines.length) continue;
    const requestLine = /^(GET|POST|PUT|PATCH|DELETE)\s+(\S+)(\s+HTTP\/\S+)?$/.exec(lines[at].trim());
    if (!requestLine) throw new Error(`${file} "${title}": not a request line: ${lines[at]}`);
    const headers: Record<string, string> = {};
    for (at++; at < lines.length && lines[at].trim() !== ''; at++) {
      const h = /^([\w-]+):\s*(.*)$/.exec(lines[at].trim());
      if (!h) throw new Error(`${file} "${title}": bad header line ${lines[at]}`);
      headers[h[1].toLowerCase()] = h[2];
    }
    const body = lines.slice(at).join('\n').trim();
    requests.push({ file, title, method: requestLine[1], url: requestLine[2], headers, body: body || undefined });
  }
  return { variables, requests };
}

const collection = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.http'))
  .sort()
  .map(parseHttpFile);
const requests = collection.flatMap((c) => c.requests);

let stack: TestStack;
let openapi: { paths: Record<string, Record<string, { operationId: string }>> };
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  openapi = (await stack.request('GET', '/v1/openapi.json')).body;
});
afterAll(() => stack.stop());

/** The operation a request's `{{baseUrl}}/a/{{x}}/b?q` URL names: `{{…}}` segments match `{param}`. */
function operationOf(req: HttpRequest): { operationId: string; template: string } | undefined {
  if (!req.url.startsWith('{{baseUrl}}/')) throw new Error(`${req.file} "${req.title}": URLs start with {{baseUrl}}`);
  const segments = req.url.slice('{{baseUrl}}'.length).split('?')[0].split('/');
  for (const [template, methods] of Object.entries(openapi.paths)) {
    const parts = template.split('/');
    const matches = parts.length === segments.length && parts.every((p, i) => (/^\{\w+\}$/.test(p) ? /^\{\{.+\}\}$/.test(segments[i]) : p === segments[i]));
    const operation = matches ? methods[req.method.toLowerCase()] : undefined;
    if (operation) return { operationId: operation.operationId, template };
  }
  return undefined;
}

describe('requests/*.http', () => {
  it('has requests, and each file names the base URL and a key', () => {
    expect(requests.length).toBeGreaterThan(10);
    for (const c of collection) expect(Object.keys(c.variables).sort()).toEqual(['apiKey', 'baseUrl']);
    for (const c of collection) expect(c.variables.baseUrl).toBe('http://localhost:3000/v1');
  });

  it.each(requests.map((r) => [`${r.file}: ${r.title}`, r] as const))('%s', (_name, req) => {
    const operation = operationOf(req);
    if (!operation) throw new Error(`${req.method} ${req.url} is not an operation of /v1/openapi.json`);
    const route = routeTable.find((r) => r.name === operation.operationId)!;
    expect(route).toBeDefined();
    if (route.auth !== 'none') expect(req.headers.authorization).toBe('Bearer {{apiKey}}');
    for (const header of Object.keys(route.headers?.shape ?? {})) {
      const required = !route.headers!.shape[header].safeParse(undefined).success;
      if (required) expect([header, req.headers[header.toLowerCase()]]).toEqual([header, expect.any(String)]);
    }
    if (route.body) {
      // An absent body is validated as {} (what the router does): routes whose schema accepts {} take none.
      if (req.body) expect(req.headers['content-type']).toBe('application/json');
      const body: unknown = req.body ? JSON.parse(req.body.replace(/\{\{[^}]+\}\}/g, SAMPLE_ID)) : {};
      const parsed = route.body.safeParse(body);
      if (!parsed.success) throw new Error(`${req.file} "${req.title}": body refused by ${route.name}: ${parsed.error.message}`);
    } else {
      expect(req.body).toBeUndefined();
    }
  });

  it("covers the spec's typical flow", () => {
    const covered = new Set(requests.map((r) => operationOf(r)?.operationId));
    for (const name of [
      'create_project',
      'launch_search',
      'get_search',
      'list_search_people',
      'add_shortlist_members',
      'get_shortlist',
      'export_shortlist_csv',
      'export_search_records_csv',
      'get_share_link',
      'create_webhook',
      'test_webhook',
      'list_webhook_deliveries',
      'redeliver_webhook',
    ])
      expect([name, covered.has(name)]).toEqual([name, true]);
  });

  it('a made-up request is caught', () => {
    expect(operationOf({ file: 'x', title: 'x', method: 'POST', url: '{{baseUrl}}/searches/{{id}}', headers: {} })).toBeUndefined();
    expect(operationOf({ file: 'x', title: 'x', method: 'GET', url: '{{baseUrl}}/projects/{{id}}/shortlists', headers: {} })).toBeUndefined();
  });
});
