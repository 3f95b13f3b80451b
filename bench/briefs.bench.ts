import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { BRIEF_MAX_LENGTH } from '../src/briefs/brief-limits';
import { createBriefReader } from '../src/briefs/brief-reader';
import { createDb } from '../src/db/knex';
import { projectRepository } from '../src/db/project.repository';
import { workspaceRepository } from '../src/db/workspace.repository';
import { extractCriteria } from '../src/briefs/reader';
import { waitFor } from '../src/dev/processes';
import { HOSTILE_SHAPES } from '../test/support/hostile-briefs';
import { anchorReport, benchKeyHeaders, log, median, percentile, productionArgs, productionEnv, ROOT, runBench, startBenchStack } from './lib';

/**
 * The hostile-brief benchmark (`npm run bench -- briefs`): worst-case job descriptions
 * (test/support/hostile-briefs.ts) read by the brief reader.
 *  1. Time against length for every shape (the reader on this thread, best of 3), so growth shows:
 *     a linear reader doubles its time when the text doubles.
 *  2. Every shape at the maximum length through the reader's worker pool, as the API reads it.
 *  3. Through a production API process: `jd_text` launches of every shape at the maximum length
 *     from two clients at once while a third polls GET /v1/health; the health latency is what a
 *     hostile brief must not move.
 * Targets: every shape read in < 200 ms at the maximum length; health p99 < 50 ms alongside.
 */

const LENGTHS = [1_250, 2_500, 5_000, 10_000, BRIEF_MAX_LENGTH];
const READ_TARGET_MS = 200;
const HEALTH_P99_TARGET_MS = 50;
const API_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const bestOf = (runs: number, work: () => void) => {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    work();
    best = Math.min(best, performance.now() - t);
  }
  return best;
};

async function main(): Promise<number> {
  const report = anchorReport('briefs');
  const shapes = Object.entries(HOSTILE_SHAPES);
  extractCriteria('Warm-up: senior backend engineer in London, 5 years of Go');

  log(`\n== 1. time against length (ms, the reader on this thread, best of 3) ==`);
  log(`| shape | ${LENGTHS.map((n) => n.toLocaleString('en')).join(' | ')} | ×(max / max÷4) |`);
  log(`| --- | ${LENGTHS.map(() => '---:').join(' | ')} | ---: |`);
  const inlineAtMax = new Map<string, number>();
  for (const [name, make] of shapes) {
    const times = LENGTHS.map((n) => bestOf(3, () => extractCriteria(make(n))));
    inlineAtMax.set(name, times.at(-1)!);
    const growth = times.at(-1)! / Math.max(0.1, times[LENGTHS.indexOf(BRIEF_MAX_LENGTH / 4)] ?? times[1]);
    log(`| ${name} | ${times.map((t) => t.toFixed(1)).join(' | ')} | ${growth.toFixed(1)} |`);
  }
  const slowestInline = [...inlineAtMax].sort((a, b) => b[1] - a[1])[0];
  report.target(
    `slowest shape at ${BRIEF_MAX_LENGTH.toLocaleString('en')} characters, this thread`,
    `${slowestInline[0]} ${slowestInline[1].toFixed(1)} ms (goal < ${READ_TARGET_MS} ms)`,
    slowestInline[1] < READ_TARGET_MS,
  );

  log(`\n== 2. every shape at ${BRIEF_MAX_LENGTH.toLocaleString('en')} characters through the reader's worker pool (ms, median of 5) ==`);
  // One thread and a generous budget: the read's own time is measured, not a timeout.
  const reader = createBriefReader({ threads: 1, maxQueue: 64, timeoutMs: 30_000 });
  try {
    await reader.warm();
    const pooled: [string, number][] = [];
    for (const [name, make] of shapes) {
      const text = make(BRIEF_MAX_LENGTH);
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await reader.read(text);
        times.push(performance.now() - t);
      }
      pooled.push([name, median(times)]);
      log(`  ${name.padEnd(30)} ${median(times).toFixed(1)}`);
    }
    const slowest = pooled.sort((a, b) => b[1] - a[1])[0];
    report.target(
      `slowest shape at ${BRIEF_MAX_LENGTH.toLocaleString('en')} characters, worker pool`,
      `${slowest[0]} ${slowest[1].toFixed(1)} ms (goal < ${READ_TARGET_MS} ms)`,
      slowest[1] < READ_TARGET_MS,
    );
  } finally {
    await reader.close();
  }

  log(
    `\n== 3. jd_text launches of every shape at ${BRIEF_MAX_LENGTH.toLocaleString('en')} characters (2 clients, ${API_ROUNDS} rounds) beside GET /v1/health ==`,
  );
  const { infra, apiPort } = await startBenchStack({ dataDir: path.join(ROOT, '.data', 'bench-briefs'), persistent: false });
  const db = createDb(infra.databaseUrl, 2);
  try {
    const env = productionEnv({ infra, apiPort });
    infra.group.spawn('api', process.execPath, productionArgs('api/server'), { env, cwd: ROOT, quiet: true });
    const base = `http://127.0.0.1:${apiPort}`;
    await waitFor('the api', async () => (await fetch(`${base}/v1/health`).catch(() => null))?.ok === true, 120_000, 200);
    const workspace = await workspaceRepository(db).create({ name: 'Bench', plan: 'enterprise', credits: 100_000, rate_limit_per_minute: 10_000_000 });
    const headers = await benchKeyHeaders(db, workspace.id);
    const project = await projectRepository(db).create(workspace.id, 'Hostile briefs');
    const launchBrief = async (text: string) => {
      const t = performance.now();
      const res = await fetch(`${base}/v1/projects/${project.id}/searches`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': `bench-${randomUUID()}` },
        body: JSON.stringify({ jd_text: text }),
      });
      await res.text();
      return { status: res.status, ms: performance.now() - t };
    };
    await launchBrief('Warm-up: senior backend engineer in London with 5 years of Go');
    // Health alone first: the figure a hostile brief must not move.
    const pollHealth = async (until: () => boolean) => {
      const ms: number[] = [];
      while (!until()) {
        const t = performance.now();
        await (await fetch(`${base}/v1/health`)).text();
        ms.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 5));
      }
      return ms.sort((a, b) => a - b);
    };
    const quietUntil = Date.now() + 3_000;
    const quiet = await pollHealth(() => Date.now() > quietUntil);
    let done = false;
    const healthDuring = pollHealth(() => done);
    const answers: { shape: string; status: number; ms: number }[] = [];
    const work = shapes.flatMap(([name, make]) => Array.from({ length: API_ROUNDS }, () => ({ name, text: make(BRIEF_MAX_LENGTH) })));
    await Promise.all(
      [0, 1].map(async (client) => {
        for (let i = client; i < work.length; i += 2) answers.push({ shape: work[i].name, ...(await launchBrief(work[i].text)) });
      }),
    );
    done = true;
    const during = await healthDuring;
    const statuses = [...new Set(answers.map((a) => a.status))].sort().join(', ');
    const launchMs = answers.map((a) => a.ms).sort((a, b) => a - b);
    log(
      `  ${answers.length} launches answered ${statuses}; launch p50 ${percentile(launchMs, 50).toFixed(0)} ms, p99 ${percentile(launchMs, 99).toFixed(0)} ms`,
    );
    for (const [name] of shapes) {
      const mine = answers.filter((a) => a.shape === name);
      log(`  ${name.padEnd(30)} ${median(mine.map((a) => a.ms)).toFixed(0)} ms (answered ${[...new Set(mine.map((a) => a.status))].join(', ')})`);
    }
    log(
      `  GET /v1/health alone: p50 ${percentile(quiet, 50).toFixed(1)} ms, p99 ${percentile(quiet, 99).toFixed(1)} ms (${quiet.length} calls); ` +
        `beside the briefs: p50 ${percentile(during, 50).toFixed(1)} ms, p99 ${percentile(during, 99).toFixed(1)} ms, max ${during.at(-1)!.toFixed(1)} ms (${during.length} calls)`,
    );
    report.target(
      'GET /v1/health p99 beside the hostile briefs',
      `${percentile(during, 99).toFixed(1)} ms (goal < ${HEALTH_P99_TARGET_MS} ms)`,
      percentile(during, 99) < HEALTH_P99_TARGET_MS,
    );
    report.target(
      'every hostile launch read (201 launched or 400 nothing to search on; never 503 or 500)',
      statuses,
      answers.every((a) => a.status === 201 || a.status === 400),
    );
  } finally {
    await db.destroy();
    await infra.stop();
  }
  report.print();
  return 0;
}

runBench(main, 'briefs');
