import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { workspaceWithKey } from '../support/fixtures';
import { redoclyErrors } from '../support/openapi-lint';
import { startTestStack, type TestStack } from '../support/stack';
import { launchPageAndReadShortlist } from '../openapi-client/program';
import { sdkGeneratedFiles } from '../../tools/dev/sdk-generate';

const ROOT = path.resolve(__dirname, '..', '..');
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

  it('generates the committed SDK types and operation table (run `npm run sdk:generate` when this fails)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-client-'));
    try {
      // The served document gives the same types as the one the generator builds in process.
      fs.writeFileSync(path.join(dir, 'openapi.json'), document);
      execFileSync(path.join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), [path.join(dir, 'openapi.json'), '-o', path.join(dir, 'api.d.ts')], {
        cwd: ROOT,
        stdio: 'pipe',
      });
      expect(fs.readFileSync(path.join(dir, 'api.d.ts'), 'utf8')).toBe(fs.readFileSync(path.join(ROOT, 'sdk', 'src', 'schema.d.ts'), 'utf8'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    for (const [file, contents] of Object.entries(sdkGeneratedFiles()))
      expect([file, fs.readFileSync(path.join(ROOT, file), 'utf8')]).toEqual([file, contents]);
  });

  it('types a client program that uses no any and no cast, which tsc accepts', () => {
    const source = fs.readFileSync(path.join(CLIENT_DIR, 'program.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(source).not.toMatch(/\bany\b|\bas\s+[A-Za-z{[(]|<[A-Za-z]+>\s*\w+\s*\)/);
    // Its own strict tsc run, so the check does not depend on the suite's type check.
    execFileSync(
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
      { cwd: ROOT, stdio: 'pipe' },
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
