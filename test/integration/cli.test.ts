import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildProgram } from '../../src/cli/main';
import { createDb, type Db } from '../../src/db/knex';
import { creditLedgerRepository } from '../../src/db/credit-ledger.repository';
import { hashApiKey } from '../../src/domain/api-keys';
import type { Command as CommanderCommand } from 'commander';
import { webhookRepository } from '../../src/db/webhook.repository';
import { workspaceRepository } from '../../src/db/workspace.repository';
import { decryptSecret } from '../../src/webhooks/secrets';
import { keyFor, workspaceWithKey } from '../support/fixtures';
import { createProject, launch, softwareCriteria } from '../support/searches';
import { cli } from '../support/cli';
import { startTestStack, type TestStack } from '../support/stack';
import { SINK_ENV, startWebhookSink } from '../support/webhook-sink';

const ROOT = path.resolve(__dirname, '..', '..');

const json = async (...argv: string[]) => {
  const res = await cli(...argv, '--json');
  if (res.code !== 0) throw new Error(`cli ${argv.join(' ')} failed: ${res.err}`);
  return JSON.parse(res.out);
};

let db: Db;
let stack: TestStack;
/** With a worker whose search pages take a while, so `searches watch` sees the progress move. */
let watchStack: TestStack;
beforeAll(async () => {
  [stack, watchStack] = await Promise.all([startTestStack({ worker: false }), startTestStack({ env: { SEARCH_PAGE_DELAY_MS: '150' } })]);
  db = createDb(process.env.DATABASE_URL!, 2);
});
afterAll(async () => {
  await db.destroy();
  await Promise.all([stack.stop(), watchStack.stop()]);
});

describe('workspaces, keys and credits', () => {
  it('creates a workspace and a key; the key works once and only its hash is stored', async () => {
    const ws = await json('workspaces', 'create', '--name', 'Acme Talent', '--plan', 'growth', '--credits', '25');
    expect(ws).toEqual({ id: expect.any(String), name: 'Acme Talent', plan: 'growth', credits: 25 });

    const key = await json(
      'keys',
      'create',
      '--workspace',
      ws.id,
      '--name',
      'ci',
      '--scopes',
      'searches:read,searches:write',
      '--funding',
      'contract_pool',
      '--env',
      'live',
      '--rate-limit',
      '300',
    );
    expect(key).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^sk_live_[0-9A-Za-z]{43}$/),
      workspace_id: ws.id,
      name: 'ci',
      scopes: ['searches:read', 'searches:write'],
      environment: 'live',
      funding_mode: 'contract_pool',
      rate_limit: 300,
    });
    const row = await db('api_keys').where({ id: key.id }).first();
    expect(row.key_hash).toBe(hashApiKey(key.key));
    expect(JSON.stringify(row)).not.toContain(key.key);

    const ok = await stack.request('POST', '/v1/projects', { headers: { Authorization: `Bearer ${key.key}` }, body: { name: 'via CLI key' } });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('300');

    const listed = await cli('keys', 'list', '--workspace', ws.id);
    expect(listed.out).toContain(key.id);
    expect(listed.out).toContain('active');
    expect(listed.out).not.toContain(key.key);

    const revoked = await cli('keys', 'revoke', key.id);
    expect(revoked.code).toBe(0);
    const refused = await stack.request('GET', '/v1/projects', { headers: { Authorization: `Bearer ${key.key}` } });
    expect(refused.body.error.code).toBe('invalid_api_key');
    expect((await cli('keys', 'list', '--workspace', ws.id)).out).toContain('revoked');
  });

  it('turns API access off and on, and sets plan and limits', async () => {
    const ws = await json('workspaces', 'create', '--name', 'Toggle');
    expect(ws.plan).toBe('starter');
    const key = await json('keys', 'create', '--workspace', ws.id, '--name', 'k', '--scopes', '*');
    const headers = { Authorization: `Bearer ${key.key}` };
    expect((await json('workspaces', 'update', ws.id, '--api-access', 'off')).api_access).toBe(false);
    expect((await stack.request('GET', '/v1/projects', { headers })).body.error.code).toBe('api_access_disabled');
    await json('workspaces', 'update', ws.id, '--api-access', 'on', '--rate-limit', '50');
    const res = await stack.request('GET', '/v1/projects', { headers });
    expect([res.status, res.headers.get('x-ratelimit-limit')]).toEqual([200, '50']);
    const updated = await json('workspaces', 'update', ws.id, '--plan', 'none', '--frozen', 'on');
    expect([updated.plan, updated.frozen]).toEqual([null, true]);
  });

  it('grants credits into a bucket of the append-only ledger', async () => {
    const ws = await json('workspaces', 'create', '--name', 'Credits', '--credits', '5');
    expect(await json('credits', 'grant', '--workspace', ws.id, '--amount', '7')).toMatchObject({ bucket: 'workspace', granted: 7, balance: 12 });
    expect(await json('credits', 'grant', '--workspace', ws.id, '--amount', '3', '--bucket', 'contract_pool')).toMatchObject({
      bucket: 'contract_pool',
      balance: 3,
    });
    expect(await creditLedgerRepository(db).balances(ws.id)).toEqual({ workspace: 12, contract_pool: 3 });
    expect(await db('credit_ledger').where({ workspace_id: ws.id }).count({ n: '*' }).first()).toEqual({ n: 3 });
  });
});

describe('bad usage: one line on stderr, exit code 2', () => {
  it.each([
    [['workspaces', 'create'], /required option '--name <name>' not specified/],
    [['workspaces', 'create', '--name', 'x', '--plan', 'gold'], /'--plan <plan>' argument 'gold' is invalid. Allowed choices are trial, starter/],
    [['workspaces', 'create', '--name', 'x', '--credits', '-3'], /--credits <n>' argument '-3' is invalid. must be a whole number/],
    [['workspaces', 'create', '--name', 'x', '--colour', 'red'], /unknown option '--colour'/],
    [['workspaces', 'update', 'not-an-id', '--api-access', 'off'], /must be an id/],
    [['workspaces', 'update', '6b1d1a1e-0000-4000-8000-000000000000'], /nothing to update/],
    [['workspaces', 'update', '6b1d1a1e-0000-4000-8000-000000000000', 'extra', '--frozen', 'on'], /too many arguments/],
    [['workspaces', 'update', '6b1d1a1e-0000-4000-8000-000000000000', '--api-access', 'off'], /no workspace/],
    [['keys', 'create', '--workspace', '6b1d1a1e-0000-4000-8000-000000000000', '--name', 'x', '--scopes', '*'], /no workspace/],
    [['keys', 'revoke'], /missing required argument 'key-id'/],
    [['credits', 'grant', '--workspace', '6b1d1a1e-0000-4000-8000-000000000000', '--amount', 'ten'], /no workspace|--amount/],
    [['keys', 'frobnicate'], /unknown command 'frobnicate'/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['webhooks', 'create', '--workspace', '6b1d1a1e-0000-4000-8000-000000000000', '--url', 'https://hooks.example.com/hook'], /no workspace/],
  ])('%j', async (argv, message) => {
    const res = await cli(...argv);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(message);
    expect(res.err.split('\n')).toHaveLength(1);
  });

  it('rejects unknown scopes and bad funding modes', async () => {
    const ws = await json('workspaces', 'create', '--name', 'Scopes');
    const bad = await cli('keys', 'create', '--workspace', ws.id, '--name', 'x', '--scopes', 'searches:read,everything');
    expect([bad.code, bad.err]).toEqual([2, expect.stringMatching(/unknown scope\(s\) everything/)]);
    expect((await cli('keys', 'create', '--workspace', ws.id, '--name', 'x', '--scopes', '*', '--funding', 'card')).code).toBe(2);
  });

  it('exits 2 from the real process (npm run cli) too', async () => {
    const run = promisify(execFile);
    const argv = ['keys', 'create', '--workspace', '6b1d1a1e-0000-4000-8000-000000000000', '--name', 'x', '--scopes', '*', '--bogus'];
    const failure = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...argv], { cwd: ROOT, env: process.env }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr.trim()).toBe("error: unknown option '--bogus'");
    const help = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'keys', 'create', '--help'], { cwd: ROOT, env: process.env });
    expect(help.stdout).toMatch(/^Usage: npm run cli -- keys create \[options\]/);
  });
});

describe('--help', () => {
  /** Every command path of the program, groups included (e.g. ['keys'], ['keys', 'create']). */
  function commandPaths(): string[][] {
    const program = buildProgram(
      { action: () => async () => undefined },
      () => undefined,
      () => undefined,
    );
    const walk = (cmd: CommanderCommand, prefix: string[]): string[][] =>
      cmd.commands.filter((c) => c.name() !== 'help').flatMap((c) => [[...prefix, c.name()], ...walk(c, [...prefix, c.name()])]);
    return walk(program, []);
  }

  it('every command and subcommand answers --help on stdout with exit 0, needing no database', async () => {
    const paths = commandPaths();
    expect(paths).toEqual(
      expect.arrayContaining([['keys'], ['keys', 'create'], ['webhooks', 'create'], ['webhooks', 'redeliver'], ['searches', 'watch'], ['migrate']]),
    );
    for (const path of paths) {
      const res = await cli(...path, '--help');
      expect([path, res.code, res.err]).toEqual([path, 0, '']);
      expect(res.out).toContain(`Usage: npm run cli -- ${path.join(' ')}`);
    }
    const keysCreate = await cli('keys', 'create', '--help');
    for (const option of ['--workspace <id>', '--scopes <list>', '--funding <mode>', '--env <env>', '--rate-limit <n>', '--json'])
      expect(keysCreate.out).toContain(option);
    expect((await cli('help')).out).toMatch(/Commands:[\s\S]*workspaces[\s\S]*keys[\s\S]*webhooks/);
    expect((await cli('--help')).code).toBe(0);
  });

  it('a group alone lists its subcommands (on stderr, exit 2)', async () => {
    const res = await cli('keys');
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/Commands:\s+create[\s\S]*list[\s\S]*revoke/);
    expect((await cli()).code).toBe(2);
  });
});

describe('webhooks create', () => {
  /**
   * Endpoints on a local sink, which the CLI's configuration allows only inside `withSinkAllowed`
   * (as SINK_ENV does for a stack); nothing is sent to them here, which the sink confirms.
   */
  async function withSinkAllowed<T>(run: (origin: string) => Promise<T>): Promise<T> {
    const sink = await startWebhookSink();
    const before = process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS;
    process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = SINK_ENV.WEBHOOK_ALLOWED_PRIVATE_CIDRS;
    try {
      return await run(sink.origin);
    } finally {
      if (before === undefined) delete process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS;
      else process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = before;
      await sink.close();
      expect(sink.received).toEqual([]);
    }
  }

  it('creates an endpoint and prints its signing secret once', async () => {
    const ws = await json('workspaces', 'create', '--name', 'Hooks');
    await withSinkAllowed(async (origin) => {
      const created = await json('webhooks', 'create', '--workspace', ws.id, '--url', `${origin}/hook`, '--events', 'search.completed,search.failed');
      expect(created).toMatchObject({ id: expect.any(String), url: `${origin}/hook`, events: ['search.completed', 'search.failed'], enabled: true });
      const row = await webhookRepository(db).find(created.id);
      expect(row?.workspace_id).toBe(ws.id);
      expect(decryptSecret(stack.config.secretsKey, row!.secret_ciphertext, row!.id)).toBe(created.secret);
      expect(JSON.stringify(row)).not.toContain(created.secret);

      const plain = await cli('webhooks', 'create', '--workspace', ws.id, '--url', `${origin}/other`);
      expect(plain.code).toBe(0);
      expect(plain.out).toMatch(/Created webhook .* \(events \*\)\nSigning secret \(shown once, store it now\): \S+/);
      const listed = await stack.request('GET', '/v1/webhooks', { headers: (await keyFor(db, (await workspaceRepository(db).find(ws.id))!)).headers });
      expect(listed.body.data.map((w: { url: string }) => w.url).sort()).toEqual([`${origin}/hook`, `${origin}/other`]);
    });
  });

  it('refuses what the API refuses, as bad usage', async () => {
    const ws = await json('workspaces', 'create', '--name', 'Bad hooks');
    const local = await cli('webhooks', 'create', '--workspace', ws.id, '--url', 'https://127.0.0.1/hook');
    expect([local.code, local.err]).toEqual([2, expect.stringMatching(/^error: invalid_webhook_url: /)]);
    const unresolvable = await cli('webhooks', 'create', '--workspace', ws.id, '--url', 'https://hooks.example.com/hook');
    expect([unresolvable.code, unresolvable.err]).toEqual([2, expect.stringMatching(/^error: invalid_webhook_url: .*could not be resolved/)]);
    const events = await cli('webhooks', 'create', '--workspace', ws.id, '--url', 'https://hooks.example.com/hook', '--events', 'search.exploded');
    expect([events.code, events.err]).toEqual([2, expect.stringMatching(/search\.exploded/)]);
  });
});

describe('searches watch', () => {
  it('--json prints one JSON object per progress change, the last with the outcome', async () => {
    const { headers } = await workspaceWithKey(db, { credits: 100 });
    const projectId = await createProject(watchStack, headers);
    const launched = await launch(watchStack, headers, projectId, { criteria: softwareCriteria });
    const res = await cli('searches', 'watch', launched.body.data.id, '--json', '--interval', '50');
    expect(res.code).toBe(0);
    const lines = res.out.split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < lines.length; i++) {
      expect(lines[i]).not.toEqual(lines[i - 1]);
      expect(lines[i].profiles_read).toBeGreaterThanOrEqual(lines[i - 1].profiles_read);
    }
    expect(lines[0]).toMatchObject({ id: launched.body.data.id, read_budget: softwareCriteria.read_budget, target: softwareCriteria.target });
    expect(lines.at(-1)).toMatchObject({ status: 'complete', outcome: expect.any(String), stop_reason: expect.any(String) });

    const again = await cli('searches', 'watch', launched.body.data.id);
    expect(again.code).toBe(0);
    // Not a terminal: plain lines, no bar.
    expect(again.out).not.toContain('[#');
    expect(again.out).toMatch(/^search complete .*\ncomplete: /);
  });
});
