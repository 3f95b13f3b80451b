import { inlineBriefReader } from '../src/briefs/brief-reader';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../src/config';
import { corpusSize, DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, loadCorpus } from '../src/corpus/loader';
import { GENERATOR_VERSION } from '../src/corpus/generator';
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
import { waitFor } from '../tools/dev/processes';
import { extractCriteria } from '../src/briefs/reader';
import { benchKeyHeaders, fetchRetryingClosedSocket, log, median, percentile, productionArgs, productionEnv, ROOT, startBenchStack, runBench } from './lib';
import { CUTOFF, expGain, gradesOf, idealGrades, keywordBaseline, linGain, loadBriefs, ndcg, type Brief, type BriefLabels } from './quality/grader';
import {
  gradesOf as openWorldGradesOf,
  idealGrades as openWorldIdealGrades,
  loadOpenWorldBriefs,
  loadPlacesBriefs,
  loadTitles,
  summarizeTitleAccuracy,
  titleAccuracy,
  type OpenWorldBrief,
  type PlacesBrief,
} from './quality/open-world-grader';
import { distanceKm } from '../src/reference/gazetteer';
import { countryPlace, metroPlace } from '../src/reference/place-resolution';
import {
  CITY_MATCH_KM,
  keywordBaselineWithin,
  occupationAccuracy,
  occupationAccuracyLine,
  placeAccuracy,
  placeAccuracyLine,
  readPlaces,
  titleReading,
  type ReadCriteria,
  type TitleResult,
} from './open-world-quality';

/**
 * Search quality (`npm run bench -- quality [--split tune|holdout|both] [--set briefs,places,open-world,titles]
 * [--read-only] [--in-process] [--limit N] [--show-holdout]`): the labelled sets of bench/quality
 * (written before tuning; README there), each brief launched as `jd_text` on `npm run dev`'s built-in
 * corpus (DEFAULT_CORPUS_SIZE people, seed 42: half in the role families in the 68 old metros, half the
 * markets' workforce worldwide, any occupation) through the real API, Temporal and worker; the first 25 people of
 * `GET /searches/{id}/people` are graded (independently of the scorer) and compared with the corpus's
 * best 25 (nDCG@25), beside plain Postgres keyword search over title and skills on the same briefs.
 *  - briefs      the closed-world set (briefs-*.json, bench/quality/grader.ts): family, metro, seniority
 *                read right; keyword baseline over the whole corpus.
 *  - places      places-*.json (bench/quality/open-world-grader.ts): roles in the families, the point is
 *                the place; the reader's place accuracy (a city read within 30 km of the labelled one,
 *                a stated radius within ±2 km; regions and countries by id; the old metros' own
 *                cities apart); keyword baseline restricted to the labelled places.
 *  - open-world  open-world-*.json: occupations mostly outside the families; the reader's first
 *                occupation code (exact, same SOC), family, places; refusals; the same baseline.
 *  - titles      titles-*.json: `extractCriteria(title)` per ESCO title, scored by titleAccuracy /
 *                summarizeTitleAccuracy, and the reader's time per title (reader only, no stack).
 * Also printed: refusals and the worst briefs (of the tune split; of the holdout too with --show-holdout;
 * holdout figures are otherwise aggregates only).
 * `--read-only` skips the stack and measures only the reader's accuracy, in process;
 * `--in-process` runs the service's launch and pass code in this process instead of through the
 * API, Temporal and a worker (quick looks while tuning; the figures to report come without it);
 * `--limit N` takes the first N items of each split and set; `--worst N` prints the N worst briefs (12).
 */

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const SPLITS = (option('split', 'both') === 'both' ? ['tune', 'holdout'] : [option('split', 'both')]) as ('tune' | 'holdout')[];
const ALL_SETS = ['briefs', 'places', 'open-world', 'titles'] as const;
type SetName = (typeof ALL_SETS)[number];
const SETS = option('set', ALL_SETS.join(','))
  .split(',')
  .map((s) => s.trim()) as SetName[];
for (const s of SETS) if (!ALL_SETS.includes(s)) throw new Error(`--set takes ${ALL_SETS.join(',')}; got ${s}`);
for (const s of SPLITS) if (s !== 'tune' && s !== 'holdout') throw new Error(`--split takes tune, holdout or both; got ${String(s)}`);
const CONCURRENCY = Number(option('concurrency', '4'));
/** Only the first N items of each split and set (a quick look while changing the reader). */
const LIMIT = Number(option('limit', '0'));
const IN_PROCESS = flag('in-process');
const limited = <T>(xs: T[]) => (LIMIT > 0 ? xs.slice(0, LIMIT) : xs);
/** How many of the worst briefs a split's details print. */
const WORST = Number(option('worst', '12'));
/** Per-item details (misses, worst briefs) of a split: the tune split always, the holdout only with --show-holdout. */
const detailsOf = (split: string) => split === 'tune' || flag('show-holdout');

/** A brief of any set, graded: the service's nDCG (exponential and linear gains) beside its keyword baseline. */
interface Graded<B> {
  brief: B;
  refused: string | null;
  criteria: ReadCriteria | null;
  ndcg: number;
  ndcgLinear: number;
  baseline: number;
  grades: number[];
  ideal: number[];
}
type BriefResult = Graded<Brief>;
/** A places or open-world brief; its baseline is the keyword baseline within the labelled places (bench/open-world-quality.ts). */
type OpenWorldResult = Graded<PlacesBrief | OpenWorldBrief>;

function graded<B>(brief: B, answer: ServiceAnswer, grades: number[], ideal: number[], baseline: number): Graded<B> {
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

/**
 * Whether the reader's criteria agree with the labels, field by field. The place is compared on
 * resolved places, since the reader may write a metro's city as a place ({id, radius_km}) and a
 * country as a place rather than `metro` / `locations`: a labelled metro is right when it is the
 * metro read, or a city read within 30 km of the metro's main city; a labelled country when that
 * country is read and no city; no place when none is read.
 */
function readRight(labels: BriefLabels, c: ReadCriteria | null) {
  const levels = c?.seniority ?? [];
  const read = readPlaces(c);
  let place: boolean;
  if (labels.metro) {
    const metro = metroPlace(labels.metro);
    place = c?.metro === labels.metro || (!!metro && read.some((p) => p.radius_km !== null && distanceKm(p.lat, p.lon, metro.lat, metro.lon) <= CITY_MATCH_KM));
  } else if (labels.country) {
    const country = countryPlace(labels.country);
    place = !!country && read.some((p) => p.id === country.id) && !read.some((p) => p.radius_km !== null);
  } else place = read.length === 0;
  return {
    family: c?.family === labels.family,
    metro: place,
    seniority: labels.seniority ? levels.some((l) => labels.seniority!.includes(l)) : levels.length === 0,
  };
}

/** Seniority read right: one of the labelled levels, or none when the brief names none. */
const levelRight = (labelled: string[] | null, c: ReadCriteria | null) =>
  labelled && labelled.length ? (c?.seniority ?? []).some((l) => labelled.includes(l)) : !(c?.seniority ?? []).length;

const pct = (n: number, d: number) => (d ? `${n}/${d} (${((100 * n) / d).toFixed(0)} %)` : '0/0');
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const share = (x: number) => `${(100 * x).toFixed(1)} %`;
const oneLine = (text: string, n: number) => text.slice(0, n).replace(/\s+/g, ' ');

/** How a read place shows in a miss line. */
const placeNames = (c: ReadCriteria | null) =>
  readPlaces(c)
    .map((p) => `${p.name.split(',')[0]}${p.radius_km !== null ? ` ${p.radius_km} km` : ` (${p.kind})`}`)
    .join(' + ') || '-';
const labelledPlaces = (places: { name: string; kind: string; radius_km: number | null }[]) =>
  places.map((p) => `${p.name}${p.kind === 'city' ? (p.radius_km !== null ? ` ${p.radius_km} km` : '') : ` (${p.kind})`}`).join(' + ') || '-';

/** The closed-world set's reader figures, and its misses (tune; holdout with --show-holdout). */
function readOnlyBriefs(split: 'tune' | 'holdout'): string[] {
  const briefs = limited(loadBriefs(split));
  const right = { family: 0, metro: 0, seniority: 0 };
  const misses: string[] = [];
  for (const b of briefs) {
    const { criteria } = extractCriteria(b.text);
    const r = readRight(b.labels, criteria);
    right.family += Number(r.family);
    right.metro += Number(r.metro);
    right.seniority += Number(r.seniority);
    if ((!r.family || !r.metro || !r.seniority) && detailsOf(split))
      misses.push(
        `  ${b.id} ${[!r.family && `family ${criteria.family ?? '-'}≠${b.labels.family}`, !r.metro && `place ${placeNames(criteria)}≠${b.labels.metro ?? b.labels.country ?? '-'}`, !r.seniority && `level ${criteria.seniority?.join('/') ?? '-'}≠${b.labels.seniority?.join('/') ?? '-'}`].filter(Boolean).join('; ')}: ${oneLine(b.text, 90)}`,
      );
  }
  const head = `briefs ${split} split, reader only (${briefs.length} briefs): family ${pct(right.family, briefs.length)}, place ${pct(right.metro, briefs.length)}, seniority ${pct(right.seniority, briefs.length)}`;
  log(`\n== ${head} ==`);
  for (const m of misses) log(m);
  return [head];
}

/** Reader figures of the places or open-world set on given criteria (the reader's, or the search records'). */
function openWorldReadLines(set: 'places' | 'open-world', items: { brief: PlacesBrief | OpenWorldBrief; criteria: ReadCriteria | null }[]): string[] {
  const places = items.map((i) => placeAccuracy(i.brief.labels, i.brief.kind, readPlaces(i.criteria)));
  const lines = [`  reader places: ${placeAccuracyLine(places)}`];
  if (set === 'open-world') {
    lines.push(`  reader ${occupationAccuracyLine(items.map((i) => occupationAccuracy((i.brief as OpenWorldBrief).labels, i.criteria)))}`);
    lines.push(`  reader seniority ${pct(items.filter((i) => levelRight(i.brief.labels.seniority, i.criteria)).length, items.length)}`);
  } else {
    const labels = items.map((i) => (i.brief as PlacesBrief).labels);
    lines.push(
      `  reader family ${pct(items.filter((i, k) => i.criteria?.family === labels[k].family).length, items.length)}, seniority ${pct(items.filter((i) => levelRight(i.brief.labels.seniority, i.criteria)).length, items.length)}`,
    );
  }
  return lines;
}

/** One miss line of the places or open-world set (tune; holdout with --show-holdout). */
function openWorldMiss(set: 'places' | 'open-world', brief: PlacesBrief | OpenWorldBrief, c: ReadCriteria | null): string | null {
  const place = placeAccuracy(brief.labels, brief.kind, readPlaces(c));
  const parts: string[] = [];
  if (!place.allRight || place.extra > 0) parts.push(`places ${placeNames(c)} ≠ ${labelledPlaces(brief.labels.places)}`);
  if (set === 'open-world') {
    const labels = (brief as OpenWorldBrief).labels;
    const occ = occupationAccuracy(labels, c);
    if (!occ.exact) parts.push(`occupation ${c?.occupations?.[0] ?? '-'}${occ.socPrefix ? ' (same SOC)' : ''} ≠ ${labels.onet_codes.join('/')}`);
    if (!occ.family) parts.push(`family ${c?.family ?? '-'} ≠ ${labels.family ?? '-'}`);
  } else if (c?.family !== (brief as PlacesBrief).labels.family) parts.push(`family ${c?.family ?? '-'} ≠ ${(brief as PlacesBrief).labels.family}`);
  if (!levelRight(brief.labels.seniority, c)) parts.push(`level ${c?.seniority?.join('/') ?? '-'} ≠ ${brief.labels.seniority?.join('/') ?? '-'}`);
  return parts.length ? `  ${brief.id} ${parts.join('; ')}: ${oneLine(brief.text, 90)}` : null;
}

const loadOpenWorldSet = (set: 'places' | 'open-world', split: 'tune' | 'holdout'): (PlacesBrief | OpenWorldBrief)[] =>
  limited<PlacesBrief | OpenWorldBrief>(set === 'places' ? loadPlacesBriefs(split) : loadOpenWorldBriefs(split));

function readOnlyOpenWorld(set: 'places' | 'open-world', split: 'tune' | 'holdout'): string[] {
  const briefs = loadOpenWorldSet(set, split);
  const items = briefs.map((brief) => ({ brief, criteria: extractCriteria(brief.text).criteria }));
  const head = `${set} ${split} split, reader only (${briefs.length} briefs)`;
  const lines = [head, ...openWorldReadLines(set, items)];
  log(`\n== ${head} ==`);
  for (const l of lines.slice(1)) log(l);
  if (detailsOf(split))
    for (const i of items) {
      const miss = openWorldMiss(set, i.brief, i.criteria);
      if (miss) log(miss);
    }
  return lines;
}

/**
 * The titles set: `extractCriteria(title)` for every labelled ESCO title, scored by the grader's
 * titleAccuracy, and the reader's time per title (the median of 3 reads of each, after a warm-up).
 */
function titlesFigures(split: 'tune' | 'holdout'): string[] {
  const titles = limited(loadTitles(split));
  extractCriteria('Warm-up: senior backend engineer in London, 5 years of Go');
  let noCode = 0;
  const results: TitleResult[] = titles.map((label) => {
    const times: number[] = [];
    let criteria: ReadCriteria = {};
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      criteria = extractCriteria(label.title).criteria;
      times.push(performance.now() - t);
    }
    if (!criteria.occupations?.length) noCode++;
    return { label, accuracy: titleAccuracy(titleReading(criteria), label), ms: median(times) };
  });
  const s = summarizeTitleAccuracy(results);
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const inFamily = results.filter((r) => r.label.family !== null).length;
  const head =
    `titles ${split} split, ${s.titles} titles (${inFamily} in a family, ${s.titles - inFamily} outside): first code exact ${share(s.exact)}, same SOC ${share(s.socPrefix)}, any code exact ${share(s.anyExact)}, no code read ${noCode}; ` +
    `family right in-family ${share(s.familyCorrectInFamily)}, kept out of the families ${share(s.keptOut)}, family right overall ${share(s.familyCorrect)}; reader time per title p50 ${percentile(ms, 50).toFixed(2)} ms, p95 ${percentile(ms, 95).toFixed(2)} ms`;
  log(`\n== ${head} ==`);
  if (detailsOf(split) && flag('verbose'))
    for (const r of results.filter((x) => !x.accuracy.familyCorrect || !x.accuracy.socPrefix))
      log(`  ${r.label.id} "${r.label.title}": read ${r.accuracy.familyRead ?? '-'}; labelled ${r.label.family ?? '-'} / ${r.label.onet_codes.join('/')}`);
  return [head];
}

function readOnly(): void {
  const summary: string[] = [];
  for (const split of SPLITS) {
    if (SETS.includes('briefs')) summary.push(...readOnlyBriefs(split));
    if (SETS.includes('places')) summary.push(...readOnlyOpenWorld('places', split));
    if (SETS.includes('open-world')) summary.push(...readOnlyOpenWorld('open-world', split));
    if (SETS.includes('titles')) summary.push(...titlesFigures(split));
  }
  log('\n== npm run bench -- quality --read-only: summary ==');
  for (const l of summary) log(l.startsWith('  ') ? l : `- ${l}`);
}

function shortBriefCriteria(text: string) {
  return extractCriteria(text).criteria;
}

/** What is launched: a brief's id and text (any set). */
interface Launchable {
  id: string;
  text: string;
}

/**
 * jd_text takes 40+ characters (spec); a shorter brief is read by the same built-in reader and
 * launched with its criteria, as the web app does (in process: the reader directly; through the
 * API: the session API's built-in reader route).
 */
const launchBodyOf = (brief: Launchable) => (brief.text.length >= 40 ? { jd_text: brief.text } : { criteria: shortBriefCriteria(brief.text) });
/** The web app's path for a brief: the session API's built-in reader, its criteria (without `_meta`) launched. */
async function readInApp(api: string, cookie: string, text: string): Promise<Record<string, unknown>> {
  const res = await fetchRetryingClosedSocket(`${api}/api/intake/builtin`, {
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
async function throughApi(
  db: Db,
  base: string,
  headers: Record<string, string>,
  app: { api: string; cookie: string },
  brief: Launchable,
): Promise<ServiceAnswer> {
  const post = (url: string, body: unknown, extra: Record<string, string> = {}) =>
    fetchRetryingClosedSocket(`${base}${url}`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
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
    record = ((await (await fetchRetryingClosedSocket(`${base}/searches/${search.id}`, { headers })).json()) as { data: typeof record }).data;
    if (record.status === 'complete' || record.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const people = (
    (await (await fetchRetryingClosedSocket(`${base}/searches/${search.id}/people?limit=${CUTOFF}&profile=false`, { headers })).json()) as {
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
async function inProcess(db: Db, config: Config, workspace: Workspace, brief: Launchable): Promise<ServiceAnswer> {
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
 * kept in .data/bench-quality/fixed.json across runs, keyed by the set, the brief's text and labels,
 * the corpus (generator version and size) and the baseline's version.
 */
const FIXED_FILE = path.join(ROOT, '.data', 'bench-quality', 'fixed.json');
const BASELINE_VERSION = 'keyword-1;within-places-1';
let fixed: Record<string, { ideal: number[]; baseline: number }> | undefined;
async function fixedFigures(key: unknown[], compute: () => Promise<{ ideal: number[]; baseline: number }>): Promise<{ ideal: number[]; baseline: number }> {
  fixed ??= fs.existsSync(FIXED_FILE) ? (JSON.parse(fs.readFileSync(FIXED_FILE, 'utf8')) as typeof fixed) : {};
  const hash = createHash('sha256')
    .update(JSON.stringify([GENERATOR_VERSION, DEFAULT_CORPUS_SIZE, BASELINE_VERSION, ...key]))
    .digest('hex');
  if (!fixed![hash]) {
    fixed![hash] = await compute();
    fs.writeFileSync(FIXED_FILE, JSON.stringify(fixed));
  }
  return fixed![hash];
}

async function grade(db: Db, brief: Brief, answer: ServiceAnswer): Promise<BriefResult> {
  const { ideal, baseline } = await fixedFigures(['briefs', brief.text, brief.labels], async () => {
    const ideal = await idealGrades(db, brief.labels);
    return { ideal, baseline: ndcg(await gradesOf(db, brief.labels, await keywordBaseline(db, brief.text)), ideal) };
  });
  const grades = await gradesOf(db, brief.labels, answer.personIds);
  return graded(brief, answer, grades, ideal, baseline);
}

/** A places or open-world brief graded by open-world-grader.ts against its own ideal. */
async function gradeOpenWorld(db: Db, set: 'places' | 'open-world', brief: PlacesBrief | OpenWorldBrief, answer: ServiceAnswer): Promise<OpenWorldResult> {
  const { ideal, baseline } = await fixedFigures([set, brief.text, brief.labels], async () => {
    const ideal = await openWorldIdealGrades(db, brief.labels);
    const ids = await keywordBaselineWithin(db, brief.text, brief.labels.places);
    return { ideal, baseline: ndcg(await openWorldGradesOf(db, brief.labels, ids), ideal) };
  });
  const grades = await openWorldGradesOf(db, brief.labels, answer.personIds);
  return graded(brief, answer, grades, ideal, baseline);
}

function summarise(split: string, results: BriefResult[], showWorst: boolean): string[] {
  const n = results.length;
  const reads = results.map((r) => readRight(r.brief.labels, r.criteria));
  const service = mean(results.map((r) => r.ndcg));
  const baseline = mean(results.map((r) => r.baseline));
  const lines = [
    `briefs ${split} split, ${n} briefs: mean nDCG@25 ${service.toFixed(3)} (linear gains ${mean(results.map((r) => r.ndcgLinear)).toFixed(3)}) vs keyword baseline ${baseline.toFixed(3)} → ${signed(service - baseline)}`,
    `  targets: nDCG@25 ≥ 0.90 ${service >= 0.9 ? 'met' : 'NOT met'}; ≥ baseline + 0.20 ${service >= baseline + 0.2 ? 'met' : 'NOT met'}; family read right ≥ 95 % ${reads.filter((r) => r.family).length >= 0.95 * n ? 'met' : 'NOT met'}; no brief refused ${results.some((r) => r.refused) ? 'NOT met' : 'met'}`,
    `  read right: family ${pct(reads.filter((r) => r.family).length, n)}, place ${pct(reads.filter((r) => r.metro).length, n)}, seniority ${pct(reads.filter((r) => r.seniority).length, n)}; refused ${results.filter((r) => r.refused).length}`,
  ];
  const kinds = [...new Set(results.flatMap((r) => r.brief.kind))].sort();
  lines.push(`  by kind: ${kinds.map((k) => `${k} ${mean(results.filter((r) => r.brief.kind.includes(k)).map((r) => r.ndcg)).toFixed(2)}`).join(', ')}`);
  if (showWorst) {
    lines.push('  worst briefs:');
    for (const r of [...results].sort((a, b) => a.ndcg - b.ndcg).slice(0, WORST)) {
      const c = r.criteria;
      const read = r.refused ?? `read ${c?.family ?? '-'} / ${placeNames(c)} / ${c?.seniority?.join('+') ?? '-'}`;
      lines.push(
        `    ${r.brief.id} nDCG ${r.ndcg.toFixed(2)} (baseline ${r.baseline.toFixed(2)}), ${read}; wanted ${r.brief.labels.family} / ${r.brief.labels.metro ?? r.brief.labels.country ?? '-'} / ${r.brief.labels.seniority?.join('+') ?? '-'}; grades ${r.grades.join('')} ideal ${r.ideal.join('')}: ${oneLine(r.brief.text, 100)}`,
      );
    }
  }
  return lines;
}

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
const gradeList = (grades: number[]) => grades.map((g) => (Number.isInteger(g) ? String(g) : g.toFixed(1))).join(' ');

/** The places or open-world set's figures: nDCG vs the baseline within the places, refusals, reader accuracy, kinds, worst briefs. */
function summariseOpenWorld(set: 'places' | 'open-world', split: string, results: OpenWorldResult[], showWorst: boolean): string[] {
  const n = results.length;
  const service = mean(results.map((r) => r.ndcg));
  const baseline = mean(results.map((r) => r.baseline));
  const refused = results.filter((r) => r.refused);
  const lines = [
    `${set} ${split} split, ${n} briefs: mean nDCG@25 ${service.toFixed(3)} (linear gains ${mean(results.map((r) => r.ndcgLinear)).toFixed(3)}) vs keyword baseline within the labelled places ${baseline.toFixed(3)} → ${signed(service - baseline)}; refused ${refused.length}${refused.length ? ` (${[...new Set(refused.map((r) => r.refused))].join(', ')})` : ''}`,
    ...openWorldReadLines(set, results),
  ];
  const kinds = [...new Set(results.flatMap((r) => r.brief.kind))].sort();
  lines.push(
    `  by kind (nDCG, service / baseline): ${kinds
      .map((k) => {
        const of = results.filter((r) => r.brief.kind.includes(k));
        return `${k} ${mean(of.map((r) => r.ndcg)).toFixed(2)}/${mean(of.map((r) => r.baseline)).toFixed(2)}`;
      })
      .join(', ')}`,
  );
  if (showWorst) {
    lines.push('  worst briefs:');
    for (const r of [...results].sort((a, b) => a.ndcg - b.ndcg).slice(0, WORST)) {
      const c = r.criteria;
      const occupation = set === 'open-world' ? `${c?.occupations?.[0] ?? '-'} / ` : '';
      const wanted = set === 'open-world' ? `${(r.brief as OpenWorldBrief).labels.onet_codes[0]} / ` : '';
      const read = r.refused ?? `read ${occupation}${c?.family ?? '-'} / ${placeNames(c)} / ${c?.seniority?.join('+') ?? '-'}`;
      lines.push(
        `    ${r.brief.id} nDCG ${r.ndcg.toFixed(2)} (baseline ${r.baseline.toFixed(2)}), ${read}; wanted ${wanted}${r.brief.labels.family ?? '-'} / ${labelledPlaces(r.brief.labels.places)} / ${r.brief.labels.seniority?.join('+') ?? '-'}; grades ${gradeList(r.grades)}; ideal ${gradeList(r.ideal)}: ${oneLine(r.brief.text, 100)}`,
      );
    }
  }
  return lines;
}

/** Runs `work` over the items, CONCURRENCY at a time, with a progress bar; results in the items' order. */
async function eachConcurrently<T, R>(items: T[], what: string, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  const bar = createProgressWriter(process.stdout);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const at = next++;
        results[at] = await work(items[at]);
        bar.update(progressLine(what, ++done, items.length, ''));
      }
    }),
  );
  bar.done(progressLine(what, items.length, items.length, 'done'));
  return results;
}

async function main(): Promise<void> {
  if (flag('read-only')) return readOnly();
  const { infra, apiPort } = await startBenchStack({ dataDir: path.join(ROOT, '.data', 'bench-quality'), persistent: true });
  const db = createDb(infra.databaseUrl, CONCURRENCY * 2);
  try {
    if ((await corpusSize(db)) < DEFAULT_CORPUS_SIZE) {
      log(`loading the built-in corpus (${DEFAULT_CORPUS_SIZE.toLocaleString('en')} people, seed ${DEFAULT_CORPUS_SEED}; once, kept in .data/bench-quality)…`);
      const bar = createProgressWriter(process.stdout);
      const started = Date.now();
      await loadCorpus(db, {
        size: DEFAULT_CORPUS_SIZE,
        seed: DEFAULT_CORPUS_SEED,
        pages: 0,
        onProgress: (p) => bar.update(progressLine('people', p.loaded, p.total, `${p.perSecond}/s`)),
      });
      bar.done(progressLine('people', DEFAULT_CORPUS_SIZE, DEFAULT_CORPUS_SIZE, `loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`));
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
      credits: 100_000,
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
    const answer = (brief: Launchable) => (IN_PROCESS ? inProcess(db, config, workspace, brief) : throughApi(db, base, headers, app, brief));
    const how = IN_PROCESS ? 'in this process (no HTTP, no Temporal)' : 'through the API, Temporal and a worker';
    const summary: string[] = [];
    for (const split of SPLITS) {
      if (SETS.includes('briefs')) {
        const briefs = limited(loadBriefs(split));
        log(`\n== briefs, ${split} split: ${briefs.length} briefs launched as jd_text, ${CONCURRENCY} at a time, ${how} ==`);
        const results = await eachConcurrently(briefs, 'briefs', async (brief) => grade(db, brief, await answer(brief)));
        const lines = summarise(split, results, detailsOf(split));
        for (const l of lines) log(l);
        summary.push(...lines.slice(0, 4));
      }
      for (const set of ['places', 'open-world'] as const) {
        if (!SETS.includes(set)) continue;
        const briefs = loadOpenWorldSet(set, split);
        log(`\n== ${set}, ${split} split: ${briefs.length} briefs launched as jd_text, ${CONCURRENCY} at a time, ${how} ==`);
        const results = await eachConcurrently(briefs, set, async (brief) => gradeOpenWorld(db, set, brief, await answer(brief)));
        const lines = summariseOpenWorld(set, split, results, detailsOf(split));
        for (const l of lines) log(l);
        summary.push(...lines.filter((l) => !l.startsWith('    ') && !l.startsWith('  worst')));
      }
      if (SETS.includes('titles')) summary.push(...titlesFigures(split));
    }
    log(`\n== npm run bench -- quality: summary (corpus ${DEFAULT_CORPUS_SIZE.toLocaleString('en')} people, ${how}) ==`);
    for (const l of summary) log(l.startsWith('  ') ? l : `- ${l}`);
  } finally {
    await db.destroy();
    await infra.stop();
  }
}

runBench(main);
