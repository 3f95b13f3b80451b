import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The Redocly linter's errors (recommended rules) for an OpenAPI document, as readable lines. */
export function redoclyErrors(document: string): string[] {
  // @redocly/openapi-core is ESM only: it runs in a child Node process.
  const lint = `
    import { createConfig, lintFromString } from '@redocly/openapi-core';
    import fs from 'node:fs';
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: fs.readFileSync(0, 'utf8'), absoluteRef: '/openapi.json', config });
    process.stdout.write(JSON.stringify(problems.filter((p) => p.severity === 'error').map((p) => p.ruleId + ' at ' + p.location[0]?.pointer + ': ' + p.message)));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', lint], { cwd: ROOT, input: document, stdio: ['pipe', 'pipe', 'pipe'] }).toString(),
  );
}
