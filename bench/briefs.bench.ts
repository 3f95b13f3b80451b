import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BRIEF_MAX_LENGTH } from '../src/briefs/brief-limits';
import { createBriefReader } from '../src/briefs/brief-reader';
import { createDb } from '../src/db/knex';
import { projectRepository } from '../src/db/project.repository';
import { workspaceRepository } from '../src/db/workspace.repository';
import { extractCriteria } from '../src/briefs/reader';
import { waitFor } from '../tools/dev/processes';
import { bestOf, HOSTILE_SHAPES } from '../test/support/hostile-briefs';
import { anchorReport, benchKeyHeaders, log, median, percentile, productionArgs, productionEnv, ROOT, runBench, startBenchStack } from './lib';
import { loadBriefs } from './quality/grader';
import { loadOpenWorldBriefs, loadPlacesBriefs } from './quality/open-world-grader';

/**
 * The hostile-brief benchmark (`npm run bench -- briefs`): worst-case job descriptions
 * (test/support/hostile-briefs.ts) read by the brief reader.
 *  1. Time against length for every shape (the reader on this thread, best of 3), so growth shows:
 *     a linear reader doubles its time when the text doubles.
 *  2. Every shape at the maximum length through the reader's worker pool, as the API reads it.
 *  3. Realistic briefs: the texts of every labelled brief of bench/quality (briefs-, places- and
 *     open-world-*.json, both splits; no labels used), read on this thread (the median of 3 reads
 *     of each) and once each through the worker pool: p50/p95 per brief. And the reader's resident
 *     memory: a fresh process (bench/reader-memory.ts) before and after loading the gazetteer and
 *     the O*NET vocabulary, and what one reader thread of the pool adds to this process.
 *  4. Through a production API process: `jd_text` launches of every shape at the maximum length
 *     from two clients at once while a third polls GET /v1/health; the health latency is what a
 *     hostile brief must not move.
 * Targets: every shape read in < 200 ms at the maximum length; health p99 < 50 ms alongside;
 * realistic briefs p95 < 50 ms; the reader's data within +300 MB of resident memory.
 * BENCH_PARTS=hostile,realistic,api (default all) runs only some parts.
 */

const LENGTHS = [1_250, 2_500, 5_000, 10_000, BRIEF_MAX_LENGTH];
const READ_TARGET_MS = 200;
const HEALTH_P99_TARGET_MS = 50;
const API_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REALISTIC_P95_TARGET_MS = 50;
const MEMORY_TARGET_MB = 300;
const PARTS = new Set((process.env.BENCH_PARTS ?? 'hostile,realistic,api').split(',').map((p) => p.trim()));

type Report = ReturnType<typeof anchorReport>;
const shapes = Object.entries(HOSTILE_SHAPES);

/** 2 and 3: the hostile shapes on this thread against length, then at the maximum length through the pool. */
async function hostile(report: Report): Promise<void> {
  extractCriteria('Warm-up: senior backend engineer in London, 5 years of Go');

  log(`\n== 2. hostile shapes: time against length (ms, the reader on this thread, best of 3) ==`);
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

  log(`\n== 3. every hostile shape at ${BRIEF_MAX_LENGTH.toLocaleString('en')} characters through the reader's worker pool (ms, median of 5) ==`);
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
}

/** 4: hostile launches through a production API beside its health endpoint. */
async function throughTheApi(report: Report): Promise<void> {
  log(
    `\n== 4. jd_text launches of every shape at ${BRIEF_MAX_LENGTH.toLocaleString('en')} characters (2 clients, ${API_ROUNDS} rounds) beside GET /v1/health ==`,
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
}

/** The text of every labelled brief of bench/quality: the closed-world, places and open-world sets, both splits. */
function labelledTexts(): { set: string; text: string }[] {
  const out: { set: string; text: string }[] = [];
  for (const split of ['tune', 'holdout'] as const) {
    for (const b of loadBriefs(split)) out.push({ set: 'briefs', text: b.text });
    for (const b of loadPlacesBriefs(split)) out.push({ set: 'places', text: b.text });
    for (const b of loadOpenWorldBriefs(split)) out.push({ set: 'open-world', text: b.text });
  }
  return out;
}

interface MemoryReading {
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
}

/** Resident memory of this process now (VmRSS), in MB. */
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

/**
 * 1: realistic briefs. The reader's memory in a fresh process first (nothing else loaded there),
 * then the time per brief on this thread and through a one-thread pool, and what that thread adds
 * to this process's resident memory.
 */
async function realistic(report: Report): Promise<void> {
  const texts = labelledTexts();
  const counts = ['briefs', 'places', 'open-world'].map((set) => `${texts.filter((t) => t.set === set).length} ${set}`).join(', ');
  const words = texts.map((t) => t.text.split(/\s+/).length).sort((a, b) => a - b);
  log(
    `\n== 1. realistic briefs: the ${texts.length} labelled briefs of bench/quality (${counts}; ${words[0]}–${words.at(-1)} words, median ${median(words)}) ==`,
  );

  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reader-memory-')), 'texts.json');
  fs.writeFileSync(file, JSON.stringify(texts.map((t) => t.text)));
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(__dirname, 'reader-memory.ts'), file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const m = JSON.parse(out.trim().split('\n').at(-1)!) as {
    start: MemoryReading;
    imported: MemoryReading;
    loaded: MemoryReading;
    read: MemoryReading;
    loadMs: number;
    firstReadMs: number;
  };
  const row = (name: string, r: MemoryReading) =>
    `  ${name.padEnd(62)} RSS ${r.rssMb.toFixed(0).padStart(4)} MB (${signedMb(r.rssMb - m.start.rssMb)}), heap used ${r.heapUsedMb.toFixed(0).padStart(4)} MB (${signedMb(r.heapUsedMb - m.start.heapUsedMb)}), external ${r.externalMb.toFixed(0)} MB`;
  log("  the reader's memory in a fresh process (after a full GC at each step; in brackets: since the start):");
  log(row('start (Node and the TypeScript loader)', m.start));
  log(row("the reader's modules imported", m.imported));
  log(row(`gazetteer and O*NET vocabulary loaded (${m.loadMs.toFixed(0)} ms)`, m.loaded));
  log(row(`every labelled brief read once (the first read ${m.firstReadMs.toFixed(0)} ms)`, m.read));
  const dataRss = m.loaded.rssMb - m.imported.rssMb;
  const totalRss = m.read.rssMb - m.start.rssMb;
  report.note(
    `reader memory in a fresh process: loading the gazetteer and the O*NET vocabulary +${dataRss.toFixed(0)} MB RSS / +${(m.loaded.heapUsedMb - m.imported.heapUsedMb).toFixed(0)} MB heap used (${m.loadMs.toFixed(0)} ms); ` +
      `everything the reader holds after reading every labelled brief +${totalRss.toFixed(0)} MB RSS / +${(m.read.heapUsedMb - m.start.heapUsedMb).toFixed(0)} MB heap used over a bare process`,
  );
  report.target(
    `the reader's resident memory (modules, gazetteer, O*NET vocabulary, tables), fresh process`,
    `+${totalRss.toFixed(0)} MB (goal ≤ +${MEMORY_TARGET_MB} MB)`,
    totalRss <= MEMORY_TARGET_MB,
  );

  // On this thread: a warm-up read of every text, then the median of 3 reads of each.
  for (const t of texts) extractCriteria(t.text);
  const inline = texts.map((t) => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      extractCriteria(t.text);
      times.push(performance.now() - start);
    }
    return { set: t.set, ms: median(times) };
  });
  const stats = (ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
  };
  log(`  on this thread (median of 3 reads per brief): all ${stats(inline.map((r) => r.ms))}`);
  for (const set of ['briefs', 'places', 'open-world']) log(`    ${set.padEnd(10)} ${stats(inline.filter((r) => r.set === set).map((r) => r.ms))}`);

  // Through a pool of one thread, as the API reads jd_text; what the thread adds to this process.
  const rssBefore = rssMb();
  const reader = createBriefReader({ threads: 1, maxQueue: 64, timeoutMs: 30_000 });
  const pooled: number[] = [];
  try {
    await reader.warm();
    for (const t of texts) await reader.read(t.text); // warm-up: the thread's tables
    for (const t of texts) {
      const start = performance.now();
      await reader.read(t.text);
      pooled.push(performance.now() - start);
    }
  } finally {
    const rssWithThread = rssMb();
    await reader.close();
    log(`  through the worker pool (one thread, one read per brief): ${stats(pooled)}`);
    log(
      `  this process's RSS before the pool ${rssBefore.toFixed(0)} MB, with its reader thread warm ${rssWithThread.toFixed(0)} MB (${signedMb(rssWithThread - rssBefore)})`,
    );
    report.note(`one reader thread of the pool (its own copy of the reader's data) adds ${signedMb(rssWithThread - rssBefore)} RSS to its process`);
  }
  const p95 = percentile(
    inline.map((r) => r.ms).sort((a, b) => a - b),
    95,
  );
  const pooledP95 = percentile(
    [...pooled].sort((a, b) => a - b),
    95,
  );
  report.target(
    `realistic briefs (${texts.length} labelled), p95 per brief on this thread`,
    `${p95.toFixed(2)} ms (goal < ${REALISTIC_P95_TARGET_MS} ms)`,
    p95 < REALISTIC_P95_TARGET_MS,
  );
  report.target(
    `realistic briefs, p95 per brief through the worker pool`,
    `${pooledP95.toFixed(2)} ms (goal < ${REALISTIC_P95_TARGET_MS} ms)`,
    pooledP95 < REALISTIC_P95_TARGET_MS,
  );
}

const signedMb = (mb: number) => `${mb >= 0 ? '+' : '−'}${Math.abs(mb).toFixed(0)} MB`;

async function main(): Promise<number> {
  const report = anchorReport('briefs');
  extractCriteria('Warm-up: senior backend engineer in London, 5 years of Go');
  if (PARTS.has('realistic')) await realistic(report);
  if (PARTS.has('hostile')) await hostile(report);
  if (PARTS.has('api')) await throughTheApi(report);
  report.print();
  return 0;
}

runBench(main, 'briefs');
