import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { loadCorpus } from '../src/corpus/loader';
import { createDb } from '../src/db/knex';
import { projectRepository } from '../src/db/project.repository';
import { workspaceRepository } from '../src/db/workspace.repository';
import { freePort, waitFor } from '../tools/dev/processes';
import { ROOT, load, log, percentile, productionArgs, productionEnv, startBenchStack, benchKeyHeaders, runBench } from './lib';

/**
 * Request counting on the hot read path (`npm run bench -- people`): GET /searches/{id}/people
 * against two production API processes on the same database, one with USAGE_COUNTING=on and one
 * off, measured in alternating rounds (ABBA order) so drift on the shared machine hits both alike;
 * the medians are compared. Counting is in memory with batched flushes, so they should stay within 5 %.
 */

const ROUNDS = 8;
const SECONDS = 5;
const CLIENTS = 20;

async function main(): Promise<void> {
  const { infra, apiPort } = await startBenchStack({ dataDir: path.join(ROOT, '.data', 'bench-people'), persistent: false });
  const db = createDb(infra.databaseUrl, 4);
  try {
    log('loading 20,000 people…');
    await loadCorpus(db, { size: 20_000, seed: 42 });
    const env = productionEnv({ infra, apiPort });
    const offPort = await freePort();
    infra.group.spawn('worker', process.execPath, productionArgs('activities/worker'), { env, cwd: ROOT });
    infra.group.spawn('api-on', process.execPath, productionArgs('api/server'), { env: { ...env, USAGE_COUNTING: 'on' }, cwd: ROOT });
    infra.group.spawn('api-off', process.execPath, productionArgs('api/server'), { env: { ...env, PORT: String(offPort), USAGE_COUNTING: 'off' }, cwd: ROOT });
    const bases = { on: `http://127.0.0.1:${apiPort}/v1`, off: `http://127.0.0.1:${offPort}/v1` };
    await waitFor('apis and worker', async () => (await fetch(`${bases.on}/health?worker=true`)).ok && (await fetch(`${bases.off}/health`)).ok, 120_000, 500);

    const workspace = await workspaceRepository(db).create({ name: 'Bench', plan: 'enterprise', credits: 10, rate_limit_per_minute: 10_000_000 });
    const headers = await benchKeyHeaders(db, workspace.id);
    const project = await projectRepository(db).create(workspace.id, 'Bench project');
    const launched = (await fetch(`${bases.on}/projects/${project.id}/searches`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': `bench-${randomUUID()}` },
      body: JSON.stringify({ criteria: { family: 'software_engineering', read_budget: 200, target: 200, shortlist_threshold: 100 } }),
    }).then((r) => r.json())) as { data: { id: string } };
    await waitFor(
      'the search',
      async () =>
        ((await (await fetch(`${bases.on}/searches/${launched.data.id}`, { headers })).json()) as { data: { status: string } }).data.status === 'complete',
      60_000,
      100,
    );

    const path_ = `/searches/${launched.data.id}/people?limit=100&profile=false`;
    for (const mode of ['off', 'on'] as const) await load(`${bases[mode]}${path_}`, headers, CLIENTS, 3); // warm-up
    const ABBA: ('on' | 'off')[][] = [
      ['off', 'on'],
      ['on', 'off'],
    ];
    const rps: Record<'on' | 'off', number[]> = { on: [], off: [] };
    const p99: Record<'on' | 'off', number[]> = { on: [], off: [] };
    log(`\n== GET ${path_}, ${CLIENTS} clients, ${ROUNDS} alternating rounds of ${SECONDS} s per mode ==`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ABBA[round % 2]) {
        const r = await load(`${bases[mode]}${path_}`, headers, CLIENTS, SECONDS);
        rps[mode].push(r.rps);
        p99[mode].push(r.p99);
        log(
          `  round ${round + 1} counting ${mode.padEnd(3)} ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors`,
        );
      }
    }
    const median = (xs: number[]) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    const [on, off] = [median(rps.on), median(rps.off)];
    log(`\n  counting off: median ${off.toFixed(0)} req/s (p99 median ${median(p99.off).toFixed(1)} ms)`);
    log(`  counting on:  median ${on.toFixed(0)} req/s (p99 median ${median(p99.on).toFixed(1)} ms)`);
    log(`  on vs off:    ${on >= off ? '+' : ''}${(((on - off) / off) * 100).toFixed(1)} % (target: not more than 5 % slower)`);
    await new Promise((r) => setTimeout(r, 6_000)); // one flush interval
    const [{ counted }] = await db('usage_counts').where({ workspace_id: workspace.id, action: 'list_search_people' }).sum({ counted: 'requests' });
    log(`  requests counted by the "on" process: ${Number(counted).toLocaleString('en')} (flushed in batches, no SQL per request)`);
  } finally {
    await db.destroy();
    await infra.stop();
  }
}

runBench(main);
