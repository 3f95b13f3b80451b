import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { workspaceWithKey } from '../support/fixtures';
import { redoclyErrors } from '../support/openapi-lint';
import { startTestStack, type TestStack } from '../support/stack';
import { launchPageAndReadShortlist } from '../openapi-client/program';
import { sdkGeneratedFiles } from '../../tools/dev/sdk-generate';

const ROOT = path.resolve(__dirname, '..', '..');
/**
 * The generator and tsc run as child processes without blocking this process: a blocked event loop
 * keeps fetch's pooled keep-alive socket past the server's keep-alive timeout, and the next request
 * on it fails with "other side closed" (a fresh-clone CI run did).
 */
const execFileAsync = promisify(execFile);
const run = (file: string, args: string[], opts: { cwd: string }) =>
  execFileAsync(file, args, opts).catch((err: Error & { stdout?: string }) => {
    throw new Error(`${err.message}\n${err.stdout ?? ''}`); // tsc reports on stdout
  });
const CLIENT_DIR = path.join(ROOT, 'test', 'openapi-client');

let stack: TestStack;
let document: string;
beforeAll(async () => {
  stack = await startTestStack();
  document = (await stack.request('GET', '/v1/openapi.json')).text;
});
afterAll(() => stack.stop());

describe('the OpenAPI document', () => {
  it('passes the Redocly linter (recommended rules) without errors', () => {
    const errors = redoclyErrors(document);
    expect(errors).toEqual([]);
  });

  it('generates the committed SDK types and operation table (run `npm run sdk:generate` when this fails)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-client-'));
    try {
      // The served document gives the same types as the one the generator builds in process.
      fs.writeFileSync(path.join(dir, 'openapi.json'), document);
      await run(path.join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), [path.join(dir, 'openapi.json'), '-o', path.join(dir, 'api.d.ts')], {
        cwd: ROOT,
      });
      expect(fs.readFileSync(path.join(dir, 'api.d.ts'), 'utf8')).toBe(fs.readFileSync(path.join(ROOT, 'sdk', 'src', 'schema.d.ts'), 'utf8'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    for (const [file, contents] of Object.entries(sdkGeneratedFiles()))
      expect([file, fs.readFileSync(path.join(ROOT, file), 'utf8')]).toEqual([file, contents]);
  });

  it('types a client program that uses no any and no cast, which tsc accepts', async () => {
    const source = fs.readFileSync(path.join(CLIENT_DIR, 'program.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(source).not.toMatch(/\bany\b|\bas\s+[A-Za-z{[(]|<[A-Za-z]+>\s*\w+\s*\)/);
    // Its own strict tsc run, so the check does not depend on the suite's type check.
    await run(
      path.join(ROOT, 'node_modules', '.bin', 'tsc'),
      [
        '--noEmit',
        '--strict',
        '--noImplicitAny',
        '--target',
        'ES2022',
        '--module',
        'commonjs',
        '--moduleResolution',
        'node',
        '--esModuleInterop',
        '--skipLibCheck',
        '--types',
        'node',
        path.join(CLIENT_DIR, 'program.ts'),
      ],
      { cwd: ROOT },
    );
  });

  it('the program runs against the API: launches a search, pages people, reads the shortlist', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 2 });
    const result = await launchPageAndReadShortlist(stack.url + '/v1', f.raw, `typed-${randomUUID()}`);
    expect(result.status).toBe('complete');
    expect(result.people.length).toBeGreaterThan(0);
    expect(new Set(result.people.map((p) => p.id)).size).toBe(result.people.length);
    expect(result.total).toBe(result.shortlisted.length);
  }, 120_000);
});
