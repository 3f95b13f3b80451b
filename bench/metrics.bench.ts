import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { loadCorpus } from '../src/corpus/loader';
import { createDb } from '../src/db/knex';
import { projectRepository } from '../src/db/project.repository';
import { workspaceRepository } from '../src/db/workspace.repository';
import { freePort, waitFor } from '../tools/dev/processes';
import { cpuMs, load, log, productionArgs, productionEnv, ROOT, startBenchStack, benchKeyHeaders, runBench } from './lib';

/**
 * What the metrics middleware costs (`npm run bench -- metrics`): GET /searches/{id}/people
 * throughput of two identical production API processes, one with METRICS_ENABLED=true and one
 * with false. In each round both take the same load at the same time (half the clients each), so
 * the other work on a shared machine hits both alike and the throughput ratio is the per-request
 * cost ratio; each process's CPU per request is printed beside it.
 * Target: metrics cost < 5 % of the throughput.
 */

const CORPUS = Number(process.env.BENCH_CORPUS_SIZE ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 6);
/** Clients per API process. */
const CLIENTS = 10;

async function main(): Promise<void> {
  const { infra, apiPort } = await startBenchStack({ dataDir: path.join(ROOT, '.data', 'bench-metrics'), persistent: false });
  const db = createDb(infra.databaseUrl, 4);
  try {
    log(`loading ${CORPUS.toLocaleString('en')} people…`);
    await loadCorpus(db, { size: CORPUS, seed: 42 });
    const offPort = await freePort();
    const env = productionEnv({ infra, apiPort });
    const apiOn = infra.group.spawn('api-metrics-on', process.execPath, productionArgs('api/server'), {
      env: { ...env, METRICS_ENABLED: 'true' },
      cwd: ROOT,
      quiet: true,
    });
    const apiOff = infra.group.spawn('api-metrics-off', process.execPath, productionArgs('api/server'), {
      env: { ...env, PORT: String(offPort), METRICS_ENABLED: 'false' },
      cwd: ROOT,
      quiet: true,
    });
    infra.group.spawn('worker', process.execPath, productionArgs('activities/worker'), { env: { ...env, WORKER_METRICS_PORT: '0' }, cwd: ROOT, quiet: true });
    const on = `http://127.0.0.1:${apiPort}`;
    const off = `http://127.0.0.1:${offPort}`;
    await waitFor('api and worker', async () => (await fetch(`${on}/v1/health?worker=true`)).ok, 120_000, 500);
    await waitFor('second api', async () => (await fetch(`${off}/v1/health`)).ok, 60_000, 200);
    if ((await fetch(`${on}/metrics`)).status !== 200 || (await fetch(`${off}/metrics`)).status !== 404)
      throw new Error('metrics are not on/off as configured');

    const workspace = await workspaceRepository(db).create({ name: 'Bench', plan: 'enterprise', credits: 1000, rate_limit_per_minute: 10_000_000 });
    const headers = await benchKeyHeaders(db, workspace.id);
    const project = await projectRepository(db).create(workspace.id, 'Bench project');
    const launched = (await fetch(`${on}/v1/projects/${project.id}/searches`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': `bench-${randomUUID()}` },
      body: JSON.stringify({ criteria: { family: 'software_engineering', read_budget: 200, target: 200, shortlist_threshold: 100 } }),
    }).then((r) => r.json())) as { data: { id: string } };
    const searchId = launched.data.id;
    await waitFor(
      'the search',
      async () => ((await (await fetch(`${on}/v1/searches/${searchId}`, { headers })).json()) as { data: { status: string } }).data.status === 'complete',
      60_000,
      100,
    );

    const people = (base: string) => `${base}/v1/searches/${searchId}/people?limit=100&profile=false`;
    log(`\n== GET /searches/{id}/people?limit=100, ${CLIENTS} clients on each API at once, ${ROUNDS} rounds of ${ROUND_SECONDS} s ==`);
    await Promise.all([load(people(on), headers, CLIENTS, 3), load(people(off), headers, CLIENTS, 3)]); // warm-up
    const totals = { on: { requests: 0, errors: 0, cpuMs: 0 }, off: { requests: 0, errors: 0, cpuMs: 0 } };
    const settings = [
      { setting: 'on', url: people(on), pid: apiOn.pid! },
      { setting: 'off', url: people(off), pid: apiOff.pid! },
    ] as const;
    for (let round = 0; round < ROUNDS; round++) {
      const cpuBefore = settings.map((s) => cpuMs(s.pid));
      const results = await Promise.all(settings.map((s) => load(s.url, headers, CLIENTS, ROUND_SECONDS)));
      settings.forEach((s, i) => {
        totals[s.setting].cpuMs += cpuMs(s.pid) - cpuBefore[i];
        totals[s.setting].requests += results[i].requests;
        totals[s.setting].errors += results[i].errors;
      });
      const [rOn, rOff] = results;
      log(
        `  round ${round + 1}  off ${rOff.rps.toFixed(0).padStart(5)} req/s (p99 ${rOff.p99.toFixed(0)} ms)  on ${rOn.rps.toFixed(0).padStart(5)} req/s (p99 ${rOn.p99.toFixed(0)} ms)  on/off ${(rOn.rps / rOff.rps).toFixed(3)}`,
      );
    }
    const seconds = ROUNDS * ROUND_SECONDS;
    const rpsOn = totals.on.requests / seconds;
    const rpsOff = totals.off.requests / seconds;
    const cpuOn = totals.on.cpuMs / totals.on.requests;
    const cpuOff = totals.off.cpuMs / totals.off.requests;
    log(`\n  people reads: metrics off ${rpsOff.toFixed(0)} req/s | metrics on ${rpsOn.toFixed(0)} req/s | on/off ${(rpsOn / rpsOff).toFixed(3)}`);
    log(`  cost of metrics ${((1 - rpsOn / rpsOff) * 100).toFixed(1)} % of throughput (target < 5 %)`);
    log(`  API CPU per request: off ${cpuOff.toFixed(3)} ms | on ${cpuOn.toFixed(3)} ms (${((cpuOn / cpuOff - 1) * 100).toFixed(1)} %)`);
    log(`  errors: on ${totals.on.errors}, off ${totals.off.errors}`);
    const scraped = await (await fetch(`${on}/metrics`)).text();
    const counted = /http_requests_total\{[^}]*route="\/v1\/searches\/:searchId\/people",status="200"\} (\d+)/.exec(scraped);
    log(`  the metrics-on API counted ${counted?.[1] ?? '?'} people reads`);
  } finally {
    await db.destroy();
    await infra.stop();
  }
}

runBench(main);
