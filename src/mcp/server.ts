import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { routeTable } from '../../api/route-table';
import { createClient } from '../../sdk/src';
import { callTool, catalogTools } from './tools';

/**
 * `npm run mcp`: the action catalog as MCP tools over stdio, calling the API through the SDK with
 * SOURCING_API_KEY at SOURCING_BASE_URL (default http://localhost:3000/v1). Stdout carries the
 * protocol, so anything for a person goes to stderr.
 */
async function main(): Promise<void> {
  if (!process.env.SOURCING_API_KEY) process.stderr.write('[mcp] SOURCING_API_KEY is not set: every tool but the keyless ones will answer unauthorized\n');
  const client = createClient();
  const tools = catalogTools(routeTable);
  const byName = new Map(tools.map((t) => [t.name, t]));

  // The low-level Server: the tools come with JSON Schemas made from the routes' zod schemas.
  const server = new Server({ name: 'candidate-sourcing', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema, annotations })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    return callTool(client, tool, request.params.arguments ?? {});
  });
  await server.connect(new StdioServerTransport());
}

main().catch((err: unknown) => {
  process.stderr.write(`[mcp] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
