import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { inlineBriefReader } from '../src/briefs/brief-reader';
import { loadConfig, type Config } from '../src/config';
import { companySizeOf } from '../src/corpus/company-directory';
import { corpusSize, DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, loadCorpus } from '../src/corpus/loader';
import { createDb, type Db } from '../src/db/knex';
import { projectRepository } from '../src/db/project.repository';
import { peopleRepository } from '../src/db/people.repository';
import { searchRepository } from '../src/db/search.repository';
import { rankedQuery } from '../src/ranking/retrieval';
import { workspaceRepository, type Workspace } from '../src/db/workspace.repository';
import { feedbackBody } from '../src/feedback/feedback.schemas';
import { submitFeedback } from '../src/feedback/feedback.service';
import { databaseProfileSource } from '../src/providers/database-profile-source';
import { distanceKm } from '../src/reference/gazetteer';
import { calibrateSearch } from '../src/searches/calibration.service';
import { launchSearch } from '../src/searches/launch.service';
import { claimSlot, completePass, processPage } from '../src/searches/pass.service';
import { applyScoring } from '../src/searches/rescoring.service';
import { launchBody } from '../src/searches/searches.schemas';
import { waitFor } from '../tools/dev/processes';
import { anchorReport, benchKeyHeaders, log, percentile, productionArgs, productionEnv, ROOT, runBench, startBenchStack } from './lib';

/**
 * Calibration (`npm run bench -- calibration [--in-process] [--rounds N] [--rate N]`). A simulated
 * recruiter with a preference the search's criteria do not state (an industry, a company size, a
 * seniority, a place inside the search's radius) rates the first `--rate` (10) people of the
 * search they have not rated yet, best first: good when they have it, not a fit otherwise. After
 * each round the bench waits for the search to learn, re-rank and read on, and grades the first
 * 25 people of `GET /searches/{id}/people`: nDCG@25 with gain 1 for a person who has the
 * preference, against an ideal of 25 who have it (fewer when fewer of the first 1,600 people of the
 * search's retrieval order have it). Printed for round 0 (before any rating) to `--rounds` (3),
 * beside the anchor: the same search re-weighted by hand (`scoring/apply`) as closely as a scoring
 * change can say the preference (a company size and a place inside the radius it cannot say: the
 * anchor is then the search as launched). Also timed: from the feedback call to the re-ranked
 * people being readable (the search record showing the calibration of every rating sent), p95 over
 * all rounds, with the dev stack's quiet period (CALIBRATION_QUIET_SECONDS, default 2 s). Through
 * the API, Temporal and a worker in production mode on the built-in corpus (200,000 people, kept in
 * .data/bench-calibration); `--in-process` calls the same services in this process instead (no
 * HTTP, Temporal or quiet period: quick looks while tuning).
 */

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const IN_PROCESS = args.includes('--in-process');
const ROUNDS = Number(option('rounds', '3'));
const RATE = Number(option('rate', '10'));
const CUTOFF = 25;
const BASE = 'http://127.0.0.1/v1';

interface Profile {
  industry?: string;
  seniority?: string;
  company?: string;
  location?: { lat: number | null; lon: number | null };
}

interface Preference {
  id: string;
  says: string;
  has(p: Profile): boolean;
  /** The closest scoring change; null when no scoring change can say it. */
  anchor: Record<string, unknown> | null;
}

const within = (km: number, at: { lat: number; lon: number }) => (p: Profile) =>
  p.location?.lat != null && p.location.lon != null && distanceKm(p.location.lat, p.location.lon, at.lat, at.lon) <= km;
const industry = (name: string): Preference => ({
  id: 'industry',
  says: `industry ${name}`,
  has: (p) => p.industry === name,
  anchor: { criteria: { industries: [name] }, weights: { industry: 60 } },
});
const companySize = (sizes: string[]): Preference => ({
  id: 'company size',
  says: `a company of ${sizes.join(' or ')} people`,
  has: (p) => sizes.includes(companySizeOf(p.company ?? '') ?? ''),
  anchor: null,
});
/** Seniority cannot be changed by a scoring change; the years people of that level have in the corpus can. */
const seniority = (level: string, years: { min: number; max: number }): Preference => ({
  id: 'seniority',
  says: `${level} level`,
  has: (p) => p.seniority === level,
  anchor: { criteria: { years_experience: years }, weights: { years: 60 } },
});
const place = (km: number, name: string, at: { lat: number; lon: number }): Preference => ({
  id: 'place',
  says: `within ${km} km of ${name} (inside the search radius)`,
  has: within(km, at),
  anchor: null,
});

interface Scenario {
  name: string;
  /** How the summary names it. */
  short: string;
  criteria: Record<string, unknown>;
  preferences: Preference[];
}

/** Two searches (a role family in a metro, an occupation around a city), four preferences each. */
const SCENARIOS: Scenario[] = [
  {
    name: 'software engineers, San Francisco Bay Area',
    short: 'SF engineers',
    criteria: { family: 'software_engineering', metro: 'san-francisco-bay-area', skills: ['TypeScript', 'Kubernetes'] },
    preferences: [
      industry('Financial Services'),
      companySize(['1-10', '11-50']),
      seniority('senior', { min: 5, max: 9 }),
      place(15, 'Oakland', { lat: 37.8044, lon: -122.2712 }),
    ],
  },
  {
    name: 'accountants (O*NET 13-2011.00) within 40 km of London',
    short: 'London accountants',
    criteria: { occupations: ['13-2011.00'], places: [{ name: 'London', radius_km: 40 }] },
    preferences: [industry('Banking'), companySize(['10001+']), seniority('junior', { min: 0, max: 3 }), place(12, 'Croydon', { lat: 51.3762, lon: -0.0982 })],
  },
];

/** How far down the retrieval order the ideal looks: the window a calibrated pass re-ranks (database-profile-source.ts). */
const POOL = 1600;

/** Of the first POOL people of the search's retrieval order, those who have the preference. */
async function havingIt(db: Db, searchId: string, pref: Preference): Promise<number> {
  const { criteria } = (await searchRepository(db).find(searchId))!;
  const pool = await peopleRepository(db).ranked(rankedQuery(criteria), 0, POOL);
  return pool.filter((c) => pref.has({ ...c, location: { lat: c.lat, lon: c.lon } })).length;
}

/** nDCG@25 of the people in order, against the ideal: the first 25 all having the preference (or all who do, if fewer). */
function ndcg(people: { profile: Profile }[], pref: Preference, having: number): number {
  const discount = (i: number) => 1 / Math.log2(i + 2);
  let ideal = 0;
  for (let i = 0; i < Math.min(CUTOFF, having); i++) ideal += discount(i);
  return people.slice(0, CUTOFF).reduce((dcg, p, i) => dcg + (pref.has(p.profile) ? discount(i) : 0), 0) / ideal;
}

interface Person {
  id: string;
  profile: Profile;
}

/** What a round needs from the service: through the API, or the same services in this process. */
interface Driver {
  launch(criteria: Record<string, unknown>): Promise<string>;
  apply(searchId: string, body: Record<string, unknown>): Promise<void>;
  people(searchId: string, limit: number): Promise<Person[]>;
  /** Sends ratings; resolves once the search shows the calibration of `total` ratings (re-ranked), with the time it took. */
  rate(searchId: string, ratings: { candidate_id: string; verdict: 'good' | 'bad' }[], total: number): Promise<number>;
  /** Resolves once no pass of the search runs. */
  settled(searchId: string): Promise<void>;
}

function apiDriver(base: string, headers: Record<string, string>): Driver {
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: any }).data;
  };
  const record = (id: string) => call('GET', `/searches/${id}`);
  const driver: Driver = {
    async launch(criteria) {
      const project = await call('POST', '/projects', { name: `calibration ${randomUUID().slice(0, 8)}` });
      const res = await fetch(`${base}/projects/${project.id}/searches`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': `calibration-${randomUUID()}` },
        body: JSON.stringify({ criteria }),
      });
      const id = ((await res.json()) as { data: { id: string } }).data.id;
      await driver.settled(id);
      return id;
    },
    async apply(id, body) {
      await call('POST', `/searches/${id}/scoring/apply`, body);
    },
    async people(id, limit) {
      return (await call('GET', `/searches/${id}/people?limit=${limit}`)).people;
    },
    async rate(id, ratings, total) {
      const started = performance.now();
      await call('POST', `/searches/${id}/feedback`, { ratings });
      await waitFor('calibration', async () => (await record(id)).calibration?.ratings === total, 120_000, 25);
      return performance.now() - started;
    },
    async settled(id) {
      await waitFor('search settled', async () => ['complete', 'failed'].includes((await record(id)).status), 120_000, 50);
    },
  };
  return driver;
}

/** The same services the API and the worker run, called here (the quiet period and Temporal left out). */
function inProcessDriver(db: Db, config: Config, workspace: Workspace): Driver {
  const source = databaseProfileSource(db);
  const runPass = async (searchId: string, pass: number) => {
    const ref = { searchId, pass };
    while (!(await claimSlot(db, ref, BASE)).claimed) await new Promise((r) => setTimeout(r, 50));
    let stop = null;
    for (let page = 0; !stop; page++) stop = (await processPage(db, source, { ...ref, page })).stop;
    await completePass(db, { ...ref, stopReason: stop }, BASE);
  };
  return {
    async launch(criteria) {
      const project = await projectRepository(db).create(workspace.id, 'calibration');
      const { search } = await launchSearch(db, {
        workspace,
        key: { id: null, funding_mode: 'workspace' } as never,
        projectId: project.id,
        idempotencyKey: `calibration-${randomUUID()}`,
        body: launchBody.parse({ criteria }),
        baseUrl: BASE,
        config,
        reader: inlineBriefReader,
      });
      await runPass(search.id, 1);
      return search.id;
    },
    async apply(searchId, body) {
      await applyScoring(db, { searchId, body, requestId: randomUUID(), baseUrl: BASE });
    },
    async people(searchId, limit) {
      const { people } = await searchRepository(db).scoredPeople(searchId, { limit, offset: 0, withProfile: true });
      return people.map((p) => ({ id: p.candidate_id, profile: JSON.parse(p.profile_json ?? '{}') as Profile }));
    },
    async rate(searchId, ratings) {
      const started = performance.now();
      const search = (await searchRepository(db).find(searchId))!;
      await submitFeedback(db, search, feedbackBody.parse({ ratings }));
      const outcome = await calibrateSearch(db, { searchId, requestId: randomUUID(), baseUrl: BASE });
      const took = performance.now() - started;
      if (outcome.state === 'calibrated' && outcome.pass !== null) await runPass(searchId, outcome.pass);
      return took;
    },
    async settled() {},
  };
}

type Report = ReturnType<typeof anchorReport>;

/** One preference on a fresh search: the anchor, then the rounds of ratings; figures to `report`, times to `latencies`. */
async function preference(db: Db, driver: Driver, report: Report, latencies: number[], scenario: Scenario, pref: Preference): Promise<void> {
  const anchorSearch = await driver.launch(scenario.criteria);
  const having = await havingIt(db, anchorSearch, pref);
  if (pref.anchor) await driver.apply(anchorSearch, pref.anchor);
  const anchor = ndcg(await driver.people(anchorSearch, CUTOFF), pref, having);
  const searchId = await driver.launch(scenario.criteria);
  const figures = [ndcg(await driver.people(searchId, CUTOFF), pref, having)];
  const rated = new Set<string>();
  for (let round = 1; round <= ROUNDS; round++) {
    const next = (await driver.people(searchId, 500)).filter((p) => !rated.has(p.id)).slice(0, RATE);
    for (const p of next) rated.add(p.id);
    const ratings = next.map((p) => ({ candidate_id: p.id, verdict: pref.has(p.profile) ? ('good' as const) : ('bad' as const) }));
    latencies.push(await driver.rate(searchId, ratings, rated.size));
    await driver.settled(searchId);
    figures.push(ndcg(await driver.people(searchId, CUTOFF), pref, having));
  }
  const last = figures[figures.length - 1];
  const rise = last - figures[0];
  log(
    `  ${pref.id} (${pref.says}; ${having} of the first ${POOL} the search ranks): nDCG@25 by round ${figures.map(f2).join(' → ')}; anchor ${f2(anchor)}${pref.anchor ? ` (${JSON.stringify(pref.anchor)})` : ' (no scoring change can say it: the search as launched)'}`,
  );
  report.target(`${scenario.short}, ${pref.id}: nDCG@25 rises by ≥ 0.2 within ${ROUNDS} rounds`, `${f2(figures[0])} → ${f2(last)} (+${f2(rise)})`, rise >= 0.2);
  report.target(`${scenario.short}, ${pref.id}: ends above the hand re-weighted anchor`, `${f2(last)} vs ${f2(anchor)}`, last > anchor);
}

const f2 = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  const { infra, apiPort } = await startBenchStack({ dataDir: path.join(ROOT, '.data', 'bench-calibration'), persistent: true });
  const db = createDb(infra.databaseUrl, 4);
  try {
    if ((await corpusSize(db)) < DEFAULT_CORPUS_SIZE) {
      log(
        `loading the built-in corpus (${DEFAULT_CORPUS_SIZE.toLocaleString('en')} people, seed ${DEFAULT_CORPUS_SEED}; once, kept in .data/bench-calibration)…`,
      );
      await loadCorpus(db, { size: DEFAULT_CORPUS_SIZE, seed: DEFAULT_CORPUS_SEED, pages: 0 });
    }
    // The dev stack's quiet period unless the environment sets one.
    const env = productionEnv({ infra, apiPort }, { CALIBRATION_QUIET_SECONDS: process.env.CALIBRATION_QUIET_SECONDS ?? '2' });
    const config = loadConfig(env);
    const workspace = await workspaceRepository(db).create({
      name: `Calibration ${new Date().toISOString()}`,
      plan: 'enterprise',
      credits: 100_000,
      rate_limit_per_minute: 10_000_000,
      max_concurrent_searches: 4,
    });
    let driver: Driver;
    if (IN_PROCESS) driver = inProcessDriver(db, config, workspace);
    else {
      const base = `http://127.0.0.1:${apiPort}/v1`;
      infra.group.spawn('api', process.execPath, productionArgs('api/server'), { env, cwd: ROOT, quiet: true });
      infra.group.spawn('worker', process.execPath, productionArgs('activities/worker'), { env, cwd: ROOT, quiet: true });
      await waitFor('api and worker', async () => (await fetch(`${base}/health?worker=true`).catch(() => null))?.ok === true, 120_000, 500);
      driver = apiDriver(base, await benchKeyHeaders(db, workspace.id));
    }
    const how = IN_PROCESS
      ? 'in this process (no HTTP, no Temporal, no quiet period)'
      : `through the API, Temporal and a worker (quiet period ${config.calibration.quietSeconds} s)`;
    log(`\n== calibration: ${RATE} ratings a round, ${ROUNDS} rounds, ${how} ==`);
    const report = anchorReport('calibration');
    const latencies: number[] = [];
    for (const scenario of SCENARIOS) {
      log(`${scenario.name}: ${JSON.stringify(scenario.criteria)}`);
      for (const pref of scenario.preferences) await preference(db, driver, report, latencies, scenario, pref);
    }
    latencies.sort((a, b) => a - b);
    const p95 = percentile(latencies, 95) / 1000;
    report.target(
      `from the last rating to the re-ranked people being readable, p95 over ${latencies.length} rounds (p50 ${(percentile(latencies, 50) / 1000).toFixed(2)} s)`,
      `${p95.toFixed(2)} s`,
      p95 <= 5,
      'the quiet period, then the worker',
    );
    report.print();
  } finally {
    await db.destroy();
    await infra.stop();
  }
}

runBench(main, 'calibration bench');
