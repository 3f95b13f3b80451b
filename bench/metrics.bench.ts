import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { loadCorpus } from '../src/corpus/loader';
import { createDb } from '../src/db/knex';
import { apiKeyRepository } from '../src/db/api-key.repository';
import { projectRepository } from '../src/db/project.repository';
import { workspaceRepository } from '../src/db/workspace.repository';
import { freePort, waitFor } from '../src/dev/processes';
import { cpuMs, load, log, percentile, productionArgs, productionEnv, ROOT, startBenchStack } from './lib';

/**
 * What the metrics middleware costs (`npm run bench -- metrics`): GET /searches/{id}/people
 * throughput of two identical production API processes, one with METRICS_ENABLED=true and one
 * with false, measured in many short alternating rounds so drift on the shared machine hits both
 * alike; the cost is the median of the rounds' on/off ratios. The API processes' CPU per request
 * is printed beside it: on a busy machine it is the steadier figure.
 * Target: metrics cost < 5 % of the throughput.
 */

const CORPUS = Number(process.env.BENCH_CORPUS_SIZE ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
const CLIENTS = 20;

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
    const { raw } = await apiKeyRepository(db).issue({
      workspaceId: workspace.id,
      name: 'bench',
      scopes: ['*'],
      fundingMode: 'workspace',
      environment: 'test',
      rateLimitPerMinute: 10_000_000,
      expiresAt: null,
    });
    const headers = { Authorization: `Bearer ${raw}`, 'Content-Type': 'application/json' };
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
    log(`\n== GET /searches/{id}/people?limit=100, ${CLIENTS} clients, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s per setting ==`);
    await load(people(on), headers, CLIENTS, 3); // warm-up of both processes and Postgres
    await load(people(off), headers, CLIENTS, 3);
    const totals = { on: { requests: 0, errors: 0, cpuMs: 0 }, off: { requests: 0, errors: 0, cpuMs: 0 } };
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first so neither setting always runs second.
      const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
      const rps = { on: 0, off: 0 };
      for (const setting of order) {
        const pid = (setting === 'on' ? apiOn : apiOff).pid!;
        const cpuBefore = cpuMs(pid);
        const r = await load(people(setting === 'on' ? on : off), headers, CLIENTS, ROUND_SECONDS);
        totals[setting].cpuMs += cpuMs(pid) - cpuBefore;
        totals[setting].requests += r.requests;
        totals[setting].errors += r.errors;
        rps[setting] = r.rps;
      }
      ratios.push(rps.on / rps.off);
      log(
        `  round ${String(round + 1).padStart(2)}  off ${rps.off.toFixed(0).padStart(5)} req/s  on ${rps.on.toFixed(0).padStart(5)} req/s  on/off ${(rps.on / rps.off).toFixed(3)}`,
      );
    }
    const seconds = ROUNDS * ROUND_SECONDS;
    const rpsOn = totals.on.requests / seconds;
    const rpsOff = totals.off.requests / seconds;
    const medianRatio = percentile(
      [...ratios].sort((a, b) => a - b),
      50,
    );
    const cpuOn = totals.on.cpuMs / totals.on.requests;
    const cpuOff = totals.off.cpuMs / totals.off.requests;
    log(`\n  people reads: metrics off ${rpsOff.toFixed(0)} req/s | metrics on ${rpsOn.toFixed(0)} req/s (all rounds)`);
    log(`  median round on/off ${medianRatio.toFixed(3)} → cost of metrics ${((1 - medianRatio) * 100).toFixed(1)} % of throughput (target < 5 %)`);
    log(`  API CPU per request: off ${cpuOff.toFixed(3)} ms | on ${cpuOn.toFixed(3)} ms (+${((cpuOn / cpuOff - 1) * 100).toFixed(1)} %)`);
    log(`  errors: on ${totals.on.errors}, off ${totals.off.errors}`);
    const scraped = await (await fetch(`${on}/metrics`)).text();
    const counted = /http_requests_total\{[^}]*route="\/v1\/searches\/:searchId\/people",status="200"\} (\d+)/.exec(scraped);
    log(`  the metrics-on API counted ${counted?.[1] ?? '?'} people reads`);
  } finally {
    await db.destroy();
    await infra.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
