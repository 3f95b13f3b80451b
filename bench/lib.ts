import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What the benchmarks share: output, percentiles, memory readings and production processes. */

export const ROOT = path.resolve(__dirname, '..');
export const log = (msg: string) => process.stdout.write(`${msg}\n`);

/** The p-th percentile of an ascending list. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Peak resident set (VmHWM) of a process, in MB. */
export function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

let built = false;

/**
 * Arguments that run an entry point as production does (`npm run start:api` / `start:worker`):
 * compiled JavaScript from dist/, built once per benchmark run, so figures (RSS above all) are
 * not those of the TypeScript loader.
 */
export function productionArgs(entry: 'api/server' | 'activities/worker'): string[] {
  if (!built) {
    log('building dist/ (npm run build)…');
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    built = true;
  }
  return [path.join(ROOT, 'dist', `${entry}.js`)];
}
