import { inlineBriefReader } from '../src/briefs/brief-reader';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../src/config';
import { corpusSize, DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, loadCorpus } from '../src/corpus/loader';
import { projectRepository } from '../src/db/project.repository';
import type { SearchRow } from '../src/db/search.repository';
import type { Workspace } from '../src/db/workspace.repository';
import { AppError } from '../src/domain/errors';
import { databaseProfileSource } from '../src/providers/database-profile-source';
import { launchSearch } from '../src/searches/launch.service';
import { claimSlot, completePass, processPage } from '../src/searches/pass.service';
import { launchBody } from '../src/searches/searches.schemas';
import { createUser } from '../src/users/users.service';
import { createDb, type Db } from '../src/db/knex';
import { workspaceRepository } from '../src/db/workspace.repository';
import { createProgressWriter, progressLine } from '../src/cli/progress';
import { waitFor } from '../src/dev/processes';
import { extractCriteria } from '../src/briefs/reader';
import { benchKeyHeaders, log, productionArgs, productionEnv, ROOT, startBenchStack, runBench } from './lib';
import { CUTOFF, expGain, gradesOf, idealGrades, keywordBaseline, linGain, loadBriefs, ndcg, type Brief, type BriefLabels } from './quality/grader';

/**
 * Search quality (`npm run bench -- quality [--split tune|holdout|both] [--read-only] [--show-holdout]`):
 * every labelled brief of bench/quality (written before tuning; README there) is launched as
 * `jd_text` on `npm run dev`'s built-in corpus (100,000 people, seed 42) through the real API,
 * Temporal and worker; the first 25 people of `GET /searches/{id}/people` are graded by
 * bench/quality/grader.ts (independent of the scorer) and compared with the corpus's best 25
 * (nDCG@25), beside plain Postgres keyword search over title and skills on the same briefs.
 * Also printed: how often the reader got family, metro and seniority right, refusals, and the
 * worst briefs (of the tune split; of the holdout too with --show-holdout).
 * `--read-only` skips the stack and measures only the reader's accuracy, in process;
 * `--in-process` runs the service's launch and pass code in this process instead of through the
 * API, Temporal and a worker (quick looks while tuning; the figures to report come without it);
 * `--limit N` takes the first N briefs of each split.
 */

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const SPLITS = (option('split', 'both') === 'both' ? ['tune', 'holdout'] : [option('split', 'both')]) as ('tune' | 'holdout')[];
const CONCURRENCY = Number(option('concurrency', '4'));
/** Only the first N briefs of each split (a quick look while changing the reader). */
const LIMIT = Number(option('limit', '0'));
const IN_PROCESS = flag('in-process');

interface ReadCriteria {
  family?: string;
  metro?: string;
  locations?: string[];
  seniority?: string[];
}

interface BriefResult {
  brief: Brief;
  refused: string | null;
  criteria: ReadCriteria | null;
  ndcg: number;
  ndcgLinear: number;
  baseline: number;
  grades: number[];
  ideal: number[];
}

/** Whether the reader's criteria agree with the labels, field by field. */
function readRight(labels: BriefLabels, c: ReadCriteria | null) {
  const levels = c?.seniority ?? [];
  const place = labels.metro
    ? c?.metro === labels.metro
    : labels.country
      ? (c?.locations ?? []).includes(labels.country) && !c?.metro
      : !c?.metro && !(c?.locations ?? []).length;
  return {
    family: c?.family === labels.family,
    metro: place,
    seniority: labels.seniority ? levels.some((l) => labels.seniority!.includes(l)) : levels.length === 0,
  };
}

const pct = (n: number, d: number) => `${n}/${d} (${d ? ((100 * n) / d).toFixed(0) : 0} %)`;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function readOnly(): void {
  for (const split of SPLITS) {
    const briefs = loadBriefs(split);
    const right = { family: 0, metro: 0, seniority: 0, refused: 0 };
    const misses: string[] = [];
    for (const b of briefs) {
      const { criteria } = extractCriteria(b.text);
      const r = readRight(b.labels, criteria);
      right.family += Number(r.family);
      right.metro += Number(r.metro);
      right.seniority += Number(r.seniority);
      if (!r.family || !r.metro || !r.seniority) {
        if (split === 'tune' || flag('show-holdout'))
          misses.push(
            `  ${b.id} ${[!r.family && `family ${criteria.family ?? '-'}≠${b.labels.family}`, !r.metro && `place ${criteria.metro ?? criteria.locations?.join('/') ?? '-'}≠${b.labels.metro ?? b.labels.country ?? '-'}`, !r.seniority && `level ${criteria.seniority?.join('/') ?? '-'}≠${b.labels.seniority?.join('/') ?? '-'}`].filter(Boolean).join('; ')}: ${b.text.slice(0, 90).replace(/\s+/g, ' ')}`,
          );
      }
    }
    log(`\n== reader only, ${split} split (${briefs.length} briefs) ==`);
    log(`  family ${pct(right.family, briefs.length)}, place ${pct(right.metro, briefs.length)}, seniority ${pct(right.seniority, briefs.length)}`);
    for (const m of misses) log(m);
  }
}

function shortBriefCriteria(text: string) {
  return extractCriteria(text).criteria;
}

/**
 * jd_text takes 40+ characters (spec); a shorter brief is read by the same built-in reader and
 * launched with its criteria, as the web app does (in process: the reader directly; through the
 * API: the session API's built-in reader route).
 */
const launchBodyOf = (brief: Brief) => (brief.text.length >= 40 ? { jd_text: brief.text } : { criteria: shortBriefCriteria(brief.text) });

/** The web app's path for a brief: the session API's built-in reader, its criteria (without `_meta`) launched. */
async function readInApp(api: string, cookie: string, text: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${api}/api/intake/builtin`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ rawInput: text }),
  });
  if (!res.ok) throw new Error(`built-in reader answered ${res.status}: ${await res.text()}`);
  const { _meta: _confidence, ...criteria } = ((await res.json()) as { criteria: Record<string, unknown> }).criteria;
  return criteria;
}

/** What the service answered for a brief: refused, or its criteria and the people of its first page, best first. */
interface ServiceAnswer {
  refused: string | null;
  criteria: ReadCriteria | null;
  personIds: string[];
}

/** Through the real API, Temporal and worker: launch, wait for `complete`, read the first 25 people. */
async function throughApi(db: Db, base: string, headers: Record<string, string>, app: { api: string; cookie: string }, brief: Brief): Promise<ServiceAnswer> {
  const post = (url: string, body: unknown, extra: Record<string, string> = {}) =>
    fetch(`${base}${url}`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  const project = (await (await post('/projects', { name: `quality ${brief.id}` })).json()) as { data: { id: string } };
  const body = brief.text.length >= 40 ? { jd_text: brief.text } : { criteria: await readInApp(app.api, app.cookie, brief.text) };
  const launched = await post(`/projects/${project.data.id}/searches`, body, { 'Idempotency-Key': `quality-${randomUUID()}` });
  if (launched.status >= 400) {
    const body = (await launched.json()) as { error: { code: string } };
    return { refused: `${launched.status} ${body.error.code}`, criteria: null, personIds: [] };
  }
  const search = ((await launched.json()) as { data: { id: string } }).data;
  let record: { status: string; criteria: ReadCriteria };
  for (;;) {
    record = ((await (await fetch(`${base}/searches/${search.id}`, { headers })).json()) as { data: typeof record }).data;
    if (record.status === 'complete' || record.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const people = (
    (await (await fetch(`${base}/searches/${search.id}/people?limit=${CUTOFF}&profile=false`, { headers })).json()) as {
      data: { people: { id: string }[] };
    }
  ).data.people;
  // Candidate ids → people (the grader reads the people table's own columns).
  const rows: { id: string; person_id: string }[] = await db('candidates')
    .whereIn(
      'id',
      people.map((p) => p.id),
    )
    .select('id', 'person_id');
  const personOf = new Map(rows.map((r) => [r.id, r.person_id]));
  return { refused: null, criteria: record.criteria, personIds: people.map((p) => personOf.get(p.id)!) };
}

/**
 * In this process (`--in-process`, for quick looks while tuning): the same launch and pass code the
 * API and the activities run (launch transaction, slot, pages until a stop, completion), without
 * HTTP and Temporal; the people in the order `GET /searches/{id}/people` gives (score, then seq).
 */
async function inProcess(db: Db, config: Config, workspace: Workspace, brief: Brief): Promise<ServiceAnswer> {
  const project = await projectRepository(db).create(workspace.id, `quality ${brief.id}`);
  let search: SearchRow;
  try {
    ({ search } = await launchSearch(db, {
      workspace,
      key: { id: null, funding_mode: 'workspace' },
      projectId: project.id,
      idempotencyKey: `quality-${randomUUID()}`,
      body: launchBody.parse(launchBodyOf(brief)),
      baseUrl: 'http://127.0.0.1/v1',
      config,
      reader: inlineBriefReader,
    }));
  } catch (err) {
    if (err instanceof AppError) return { refused: `${err.status} ${err.code}`, criteria: null, personIds: [] };
    throw err;
  }
  const ref = { searchId: search.id, pass: 1 };
  // Slots are FIFO: a launch beside this one may hold the turn for a moment.
  for (let tries = 0; !(await claimSlot(db, ref, 'http://127.0.0.1/v1')).claimed; tries++) {
    if (tries > 600) throw new Error('no free slot');
    await new Promise((r) => setTimeout(r, 50));
  }
  const source = databaseProfileSource(db);
  let stop = null;
  for (let page = 0; !stop; page++) stop = (await processPage(db, source, { ...ref, page })).stop;
  await completePass(db, { ...ref, stopReason: stop }, 'http://127.0.0.1/v1');
  const rows: { person_id: string }[] = await db('search_people')
    .where({ search_id: search.id, status: 'scored' })
    .orderBy([{ column: 'score', order: 'desc' }, 'seq'])
    .limit(CUTOFF)
    .select('person_id');
  return { refused: null, criteria: search.criteria, personIds: rows.map((r) => r.person_id) };
}

/**
 * The corpus's best grades and the keyword baseline's nDCG per brief do not depend on the service:
 * kept in .data/bench-quality/fixed.json (keyed by brief text and labels) across runs.
 */
const FIXED_FILE = path.join(ROOT, '.data', 'bench-quality', 'fixed.json');
let fixed: Record<string, { ideal: number[]; baseline: number }> | undefined;
async function fixedFigures(db: Db, brief: Brief): Promise<{ ideal: number[]; baseline: number }> {
  fixed ??= fs.existsSync(FIXED_FILE) ? (JSON.parse(fs.readFileSync(FIXED_FILE, 'utf8')) as typeof fixed) : {};
  const key = createHash('sha256')
    .update(JSON.stringify([brief.text, brief.labels]))
    .digest('hex');
  if (!fixed![key]) {
    const ideal = await idealGrades(db, brief.labels);
    const baseline = ndcg(await gradesOf(db, brief.labels, await keywordBaseline(db, brief.text)), ideal);
    fixed![key] = { ideal, baseline };
    fs.writeFileSync(FIXED_FILE, JSON.stringify(fixed));
  }
  return fixed![key];
}

async function grade(db: Db, brief: Brief, answer: ServiceAnswer): Promise<BriefResult> {
  const { ideal, baseline } = await fixedFigures(db, brief);
  const grades = await gradesOf(db, brief.labels, answer.personIds);
  return {
    brief,
    refused: answer.refused,
    criteria: answer.criteria,
    ndcg: ndcg(grades, ideal, expGain),
    ndcgLinear: ndcg(grades, ideal, linGain),
    baseline,
    grades,
    ideal,
  };
}

function summarise(split: string, results: BriefResult[], showWorst: boolean): string[] {
  const n = results.length;
  const reads = results.map((r) => readRight(r.brief.labels, r.criteria));
  const service = mean(results.map((r) => r.ndcg));
  const baseline = mean(results.map((r) => r.baseline));
  const lines = [
    `${split} split, ${n} briefs: mean nDCG@25 ${service.toFixed(3)} (linear gains ${mean(results.map((r) => r.ndcgLinear)).toFixed(3)}) vs keyword baseline ${baseline.toFixed(3)} → +${(service - baseline).toFixed(3)}`,
    `  targets: nDCG@25 ≥ 0.90 ${service >= 0.9 ? 'met' : 'NOT met'}; ≥ baseline + 0.20 ${service >= baseline + 0.2 ? 'met' : 'NOT met'}; family read right ≥ 95 % ${reads.filter((r) => r.family).length >= 0.95 * n ? 'met' : 'NOT met'}; no brief refused ${results.some((r) => r.refused) ? 'NOT met' : 'met'}`,
    `  read right: family ${pct(reads.filter((r) => r.family).length, n)}, place ${pct(reads.filter((r) => r.metro).length, n)}, seniority ${pct(reads.filter((r) => r.seniority).length, n)}; refused ${results.filter((r) => r.refused).length}`,
  ];
  const kinds = [...new Set(results.flatMap((r) => r.brief.kind))].sort();
  lines.push(`  by kind: ${kinds.map((k) => `${k} ${mean(results.filter((r) => r.brief.kind.includes(k)).map((r) => r.ndcg)).toFixed(2)}`).join(', ')}`);
  if (showWorst) {
    lines.push('  worst briefs:');
    for (const r of [...results].sort((a, b) => a.ndcg - b.ndcg).slice(0, 12)) {
      const c = r.criteria;
      const read = r.refused ?? `read ${c?.family ?? '-'} / ${c?.metro ?? c?.locations?.join('+') ?? '-'} / ${c?.seniority?.join('+') ?? '-'}`;
      lines.push(
        `    ${r.brief.id} nDCG ${r.ndcg.toFixed(2)} (baseline ${r.baseline.toFixed(2)}), ${read}; wanted ${r.brief.labels.family} / ${r.brief.labels.metro ?? r.brief.labels.country ?? '-'} / ${r.brief.labels.seniority?.join('+') ?? '-'}; grades ${r.grades.join('')} ideal ${r.ideal.join('')}: ${r.brief.text.slice(0, 100).replace(/\s+/g, ' ')}`,
      );
    }
  }
  return lines;
}

async function main(): Promise<void> {
  if (flag('read-only')) return readOnly();
  const { infra, apiPort } = await startBenchStack({ dataDir: path.join(ROOT, '.data', 'bench-quality'), persistent: true });
  const db = createDb(infra.databaseUrl, CONCURRENCY * 2);
  try {
    if ((await corpusSize(db)) < DEFAULT_CORPUS_SIZE) {
      log(`loading the built-in corpus (${DEFAULT_CORPUS_SIZE.toLocaleString('en')} people, seed ${DEFAULT_CORPUS_SEED}; once, kept in .data/bench-quality)…`);
      const bar = createProgressWriter(process.stdout);
      await loadCorpus(db, {
        size: DEFAULT_CORPUS_SIZE,
        seed: DEFAULT_CORPUS_SEED,
        pages: 0,
        onProgress: (p) => bar.update(progressLine('people', p.loaded, p.total, `${p.perSecond}/s`)),
      });
      bar.done(progressLine('people', DEFAULT_CORPUS_SIZE, DEFAULT_CORPUS_SIZE, 'loaded'));
    }
    const env = productionEnv({ infra, apiPort });
    const config = loadConfig(env);
    const base = `http://127.0.0.1:${apiPort}/v1`;
    if (!IN_PROCESS) {
      infra.group.spawn('api', process.execPath, productionArgs('api/server'), { env, cwd: ROOT, quiet: true });
      infra.group.spawn('worker', process.execPath, productionArgs('activities/worker'), { env, cwd: ROOT, quiet: true });
      await waitFor('api and worker', async () => (await fetch(`${base}/health?worker=true`)).ok, 120_000, 500);
    }
    const workspace = await workspaceRepository(db).create({
      name: `Quality ${new Date().toISOString()}`,
      plan: 'enterprise',
      credits: 10_000,
      rate_limit_per_minute: 10_000_000,
      max_concurrent_searches: CONCURRENCY,
    });
    const headers = await benchKeyHeaders(db, workspace.id);
    // A signed-in operator, for the web app's reader of short briefs.
    const password = randomUUID();
    const email = `quality-${randomUUID()}@example.com`;
    await createUser(db, { email, password, workspaceId: workspace.id, role: 'operator' });
    const apiRoot = `http://127.0.0.1:${apiPort}`;
    const signIn = IN_PROCESS
      ? null
      : await fetch(`${apiRoot}/api/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        });
    const app = { api: apiRoot, cookie: (signIn?.headers.get('set-cookie') ?? '').split(';')[0] };
    const summary: string[] = [];
    for (const split of SPLITS) {
      const briefs = LIMIT > 0 ? loadBriefs(split).slice(0, LIMIT) : loadBriefs(split);
      log(
        `\n== ${split} split: ${briefs.length} briefs launched as jd_text, ${CONCURRENCY} at a time, ${IN_PROCESS ? 'in this process (no HTTP, no Temporal)' : 'through the API, Temporal and a worker'} ==`,
      );
      const results: BriefResult[] = [];
      let next = 0;
      const bar = createProgressWriter(process.stdout);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < briefs.length) {
            const brief = briefs[next++];
            const answer = IN_PROCESS ? await inProcess(db, config, workspace, brief) : await throughApi(db, base, headers, app, brief);
            results.push(await grade(db, brief, answer));
            bar.update(progressLine('briefs', results.length, briefs.length, ''));
          }
        }),
      );
      bar.done(progressLine('briefs', briefs.length, briefs.length, 'done'));
      const lines = summarise(split, results, split === 'tune' || flag('show-holdout'));
      for (const l of lines) log(l);
      summary.push(...lines.slice(0, 4));
    }
    log('\n== npm run bench -- quality: summary ==');
    for (const l of summary) log(l);
  } finally {
    await db.destroy();
    await infra.stop();
  }
}

runBench(main);
