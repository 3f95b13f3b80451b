import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../src/cli/main';
import { createDb, type Db } from '../../src/db/knex';
import { creditLedgerRepository } from '../../src/db/credit-ledger.repository';
import { hashApiKey } from '../../src/domain/api-keys';
import { startTestStack, type TestStack } from '../support/stack';

const ROOT = path.resolve(__dirname, '..', '..');

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const json = async (...argv: string[]) => {
  const res = await cli(...argv, '--json');
  if (res.code !== 0) throw new Error(`cli ${argv.join(' ')} failed: ${res.err}`);
  return JSON.parse(res.out);
};

let db: Db;
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  db = createDb(process.env.DATABASE_URL!, 2);
});
afterAll(async () => {
  await db.destroy();
  await stack.stop();
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
    [['workspaces', 'create'], /--name is required/],
    [['workspaces', 'create', '--name', 'x', '--plan', 'gold'], /--plan must be one of/],
    [['workspaces', 'create', '--name', 'x', '--credits', '-3'], /--credits/],
    [['workspaces', 'create', '--name', 'x', '--colour', 'red'], /unknown option --colour/],
    [['workspaces', 'update', 'not-an-id', '--api-access', 'off'], /must be an id/],
    [['workspaces', 'update', '6b1d1a1e-0000-4000-8000-000000000000', '--api-access', 'off'], /no workspace/],
    [['keys', 'create', '--workspace', '6b1d1a1e-0000-4000-8000-000000000000', '--name', 'x', '--scopes', '*'], /no workspace/],
    [['keys', 'revoke'], /expected 1 argument/],
    [['credits', 'grant', '--workspace', '6b1d1a1e-0000-4000-8000-000000000000', '--amount', 'ten'], /no workspace|--amount/],
    [['keys', 'frobnicate'], /unknown command/],
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
    const failure = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'keys', 'create', '--bogus'], { cwd: ROOT, env: process.env }).catch(
      (e) => e,
    );
    expect(failure.code).toBe(2);
    expect(failure.stderr.trim()).toBe('error: unknown option --bogus');
  });
});
