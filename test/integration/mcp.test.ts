import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startChildWorker } from '../support/child-worker';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver, type TestCert } from '../support/https-receiver';
import { startTestStack, type TestStack } from '../support/stack';
import { waitFor } from '../../tools/dev/processes';

/**
 * The MCP server (`npm run mcp`) as a child process over stdio, driven by the MCP SDK's client,
 * against the real stack; the worker is a child too, trusting the local HTTPS webhook receiver.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const ENV = { WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' };

let cert: TestCert;
let receiver: HttpsReceiver;
let stack: TestStack;
let worker: ChildProcess;
let caller: KeyFixture;
let mcp: Client;
beforeAll(async () => {
  cert = makeTestCert();
  receiver = await startHttpsReceiver(cert);
  stack = await startTestStack({ worker: false, env: ENV });
  worker = await startChildWorker(stack, { ...ENV, NODE_EXTRA_CA_CERTS: cert.certFile });
  caller = await workspaceWithKey(stack.db, { credits: 5 });
  mcp = new Client({ name: 'mcp-test', version: '1.0.0' });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(ROOT, 'src/mcp/server.ts')],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', SOURCING_API_KEY: caller.raw, SOURCING_BASE_URL: `${stack.url}/v1` },
      stderr: 'ignore',
    }),
  );
}, 180_000);
afterAll(async () => {
  await mcp?.close();
  worker?.kill('SIGKILL');
  await stack?.stop();
  await receiver?.close();
});

/** A tool call's JSON answer (the API's whole body), failing the test on a tool error. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await mcp.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0].text;
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return JSON.parse(text);
}

describe('the MCP server', () => {
  it('lists exactly the catalog actions, reads marked read-only and proposable writes saying so', async () => {
    const { tools } = await mcp.listTools();
    const actions = (await stack.request('GET', '/v1/actions', { headers: caller.headers })).body.data as {
      name: string;
      method: string;
      proposable: boolean;
    }[];
    expect(tools.map((t) => t.name)).toEqual(actions.map((a) => a.name));
    for (const action of actions) {
      const tool = tools.find((t) => t.name === action.name)!;
      expect([action.name, tool.annotations?.readOnlyHint]).toEqual([action.name, action.method === 'GET']);
      expect([action.name, tool.description?.includes('propose this action to a person')]).toEqual([action.name, action.proposable]);
      expect(tool.inputSchema.type).toBe('object');
    }
    const launch = tools.find((t) => t.name === 'launch_search')!;
    expect(launch.inputSchema.required).toEqual(['projectId', 'body']);
    expect(Object.keys(launch.inputSchema.properties ?? {})).toEqual(['projectId', 'body', 'idempotency_key']);
    const people = tools.find((t) => t.name === 'list_search_people')!;
    expect(Object.keys(people.inputSchema.properties ?? {})).toEqual(['searchId', 'limit', 'offset', 'min_score', 'profile']);
  });

  it('creates a webhook and sends it a test through tool calls', async () => {
    const created = await call('create_webhook', { body: { url: `${receiver.origin}/mcp-hook`, events: ['shortlist.changed'] } });
    expect(created.data).toMatchObject({ url: `${receiver.origin}/mcp-hook`, events: ['shortlist.changed'], enabled: true });
    expect(created.data.secret).toMatch(/^whsec_/);
    const delivery = await call('test_webhook', { webhookId: created.data.id });
    expect(delivery.data.status).toBe('delivered');
    expect(receiver.received.filter((r) => r.path === '/mcp-hook').map((r) => (r.json as { type: string }).type)).toEqual(['webhook.test']);
    const listed = await call('list_webhooks');
    expect(listed.meta.total).toBe(1);
  });

  it('launches a search (an idempotency key made when none is given, a given one replayed) and reads its people', async () => {
    const project = (await call('create_project', { body: { name: 'MCP project' } })).data;
    const criteria = { family: 'software_engineering', read_budget: 30, target: 100, shortlist_threshold: 100 };
    const launched = (await call('launch_search', { projectId: project.id, body: { criteria } })).data;
    expect(launched).toMatchObject({ status: expect.any(String), reused: false });
    const keyed = (await call('launch_search', { projectId: project.id, body: { criteria: { ...criteria, target: 99 } }, idempotency_key: 'mcp-key-0001' }))
      .data;
    const replay = (await call('launch_search', { projectId: project.id, body: { criteria: { ...criteria, target: 99 } }, idempotency_key: 'mcp-key-0001' }))
      .data;
    expect(replay).toMatchObject({ id: keyed.id, reused: true });

    await waitFor('the search to complete', async () => (await call('get_search', { searchId: launched.id })).data.status === 'complete', 60_000, 250);
    const page = await call('list_search_people', { searchId: launched.id, limit: 5, profile: false });
    expect(page.data.people).toHaveLength(5);
    expect(page.data.total).toBeGreaterThan(5);
    expect(page.data.people[0]).not.toHaveProperty('profile');
  }, 90_000);

  it('answers API errors as tool errors carrying the code and request id', async () => {
    const result = await mcp.callTool({ name: 'get_search', arguments: { searchId: '00000000-0000-4000-8000-000000000000' } });
    expect(result.isError).toBe(true);
    const { error } = JSON.parse((result.content as { text: string }[])[0].text);
    expect(error).toMatchObject({ code: 'search_not_found', status: 404, request_id: expect.stringMatching(/\S/) });
    const invalid = await mcp.callTool({ name: 'create_webhook', arguments: { body: { url: 'http://10.0.0.1/hook' } } });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse((invalid.content as { text: string }[])[0].text).error.code).toMatch(/^invalid_/);
    const unknownArg = await mcp.callTool({ name: 'list_projects', arguments: { colour: 'blue' } });
    expect(unknownArg.isError).toBe(true);
  });
});
