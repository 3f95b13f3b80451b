import type { Db } from '../../src/db/knex';
import { waitFor } from '../dev/processes';

/**
 * The promises the fault runs check after every fault (tools/chaos/chaos.ts, test/integration/prod-stack.test.ts),
 * read straight from the database: nothing charged twice, nothing lost, every event delivered at
 * least once, nothing delivered to an endpoint after it was disabled, every rating learned from,
 * each monitor run's `monitor.matched` written once when it found someone and never otherwise.
 */

export interface InvariantResult {
  name: string;
  held: boolean;
  detail: string;
}

/** A request a local webhook receiver got. */
export interface Receipt {
  at: number;
  path: string;
  eventId: string;
}

export interface WebhookEndpointUnderTest {
  id: string;
  /** The receiver path its URL points at. */
  path: string;
}

export interface InvariantScope {
  workspaceId: string;
  endpoints: WebhookEndpointUnderTest[];
  receipts: () => Receipt[];
  /** Idempotency keys of the billed data calls that clients saw answered 2xx (each retried with its key until answered). */
  billedDataCalls?: () => Set<string>;
}

const CHARGED_KINDS = ['launch', 'expansion'];

/** The workspace's charged passes (launch, expansion) that failed, and the refunds written for passes. */
export async function chargedPassCounts(db: Db, workspaceId: string): Promise<{ failed: number; refunds: number }> {
  const [{ failed }] = await db('search_passes as p')
    .join('searches as s', 's.id', 'p.search_id')
    .where('s.workspace_id', workspaceId)
    .whereIn('p.kind', CHARGED_KINDS)
    .where('p.status', 'failed')
    .count({ failed: '*' });
  const [{ refunds }] = await db('credit_ledger').where('workspace_id', workspaceId).whereLike('unique_key', 'search:%:refund').count({ refunds: '*' });
  return { failed: Number(failed), refunds: Number(refunds) };
}

/** Waits (up to `timeoutMs`) until no search pass of the workspace is queued or running. */
export async function waitForSearchesSettled(db: Db, workspaceId: string, timeoutMs: number): Promise<void> {
  await waitFor('every search to end complete or failed', async () => (await openPasses(db, workspaceId)) === 0, timeoutMs, 500);
}

async function openPasses(db: Db, workspaceId: string): Promise<number> {
  const [{ n }] = await db('search_passes as p')
    .join('searches as s', 's.id', 'p.search_id')
    .where('s.workspace_id', workspaceId)
    .whereIn('p.status', ['queued', 'running'])
    .count({ n: '*' });
  return Number(n);
}

/** Searches of the workspace whose calibration has not learned from all their ratings yet. */
async function unlearned(db: Db, workspaceId: string): Promise<{ search_id: string; rated: number; learned: number }[]> {
  const rows: { search_id: string; rated: string; learned: number | null }[] = await db('search_feedback as f')
    .join('searches as s', 's.id', 'f.search_id')
    .where('f.workspace_id', workspaceId)
    .groupBy('f.search_id', 's.calibration')
    .select('f.search_id', db.raw("(s.calibration->>'ratings')::int as learned"))
    .count({ rated: '*' });
  return rows.map((r) => ({ search_id: r.search_id, rated: Number(r.rated), learned: r.learned ?? 0 })).filter((r) => r.learned !== r.rated);
}

/** Waits (up to `timeoutMs`) until every search with ratings has learned from all of them (the quiet period, then a calibration). */
export async function waitForRatingsLearned(db: Db, workspaceId: string, timeoutMs: number): Promise<void> {
  await waitFor('every rating learned from', async () => (await unlearned(db, workspaceId)).length === 0, timeoutMs, 500);
}

/** Waits (up to `timeoutMs`) until no monitor run of the workspace is still running. */
export async function waitForMonitorRunsEnded(db: Db, workspaceId: string, timeoutMs: number): Promise<void> {
  const running = async () => Number((await db('monitor_runs').where({ workspace_id: workspaceId, status: 'running' }).count({ n: '*' }))[0].n);
  await waitFor('every monitor run to end', async () => (await running()) === 0, timeoutMs, 500);
}

/** Outbox events of the workspace each enabled endpoint has not received yet (by event id). */
async function undelivered(db: Db, scope: InvariantScope): Promise<{ endpoint: string; missing: string[] }[]> {
  const endpoints: { id: string; enabled: boolean; created_at: Date }[] = await db('webhook_endpoints')
    .whereIn(
      'id',
      scope.endpoints.map((e) => e.id),
    )
    .select('id', 'enabled', 'created_at');
  const out: { endpoint: string; missing: string[] }[] = [];
  const receipts = scope.receipts();
  for (const endpoint of endpoints.filter((e) => e.enabled)) {
    const at = scope.endpoints.find((e) => e.id === endpoint.id)!.path;
    const got = new Set(receipts.filter((r) => r.path === at).map((r) => r.eventId));
    const events: { id: string }[] = await db('outbox_events')
      .where('workspace_id', scope.workspaceId)
      .where('created_at', '>=', endpoint.created_at)
      .select('id');
    out.push({ endpoint: endpoint.id, missing: events.map((e) => e.id).filter((id) => !got.has(id)) });
  }
  return out;
}

/** Waits (up to `timeoutMs`) until every enabled endpoint has received every event of the workspace. */
export async function waitForWebhooksDelivered(db: Db, scope: InvariantScope, timeoutMs: number): Promise<void> {
  await waitFor('every event at every enabled endpoint', async () => (await undelivered(db, scope)).every((e) => e.missing.length === 0), timeoutMs, 500);
}

export async function checkInvariants(db: Db, scope: InvariantScope): Promise<InvariantResult[]> {
  const results: InvariantResult[] = [];
  const ws = scope.workspaceId;

  const open = await openPasses(db, ws);
  const searchStates: { status: string; n: string }[] = await db('searches').where('workspace_id', ws).groupBy('status').select('status').count({ n: '*' });
  results.push({
    name: 'every search complete or failed',
    held: open === 0 && searchStates.every((s) => s.status === 'complete' || s.status === 'failed'),
    detail: `${searchStates.map((s) => `${s.n} ${s.status}`).join(', ') || 'no searches'}; ${open} passes open`,
  });

  // Each charged pass has its reserve row; a failed one exactly one refund, a complete one none.
  const passes: { search_id: string; pass: number; kind: string; status: string; reserves: string; refunds: string }[] = await db('search_passes as p')
    .join('searches as s', 's.id', 'p.search_id')
    .where('s.workspace_id', ws)
    .whereIn('p.kind', CHARGED_KINDS)
    .select('p.search_id', 'p.pass', 'p.kind', 'p.status')
    .select(
      db('credit_ledger').count('*').whereRaw("unique_key = 'search:' || p.search_id || ':pass:' || p.pass || ':reserve'").as('reserves'),
      db('credit_ledger').count('*').whereRaw("unique_key = 'search:' || p.search_id || ':pass:' || p.pass || ':refund'").as('refunds'),
    );
  const wrong = passes.filter((p) => Number(p.reserves) !== 1 || Number(p.refunds) !== (p.status === 'failed' ? 1 : 0));
  const failed = passes.filter((p) => p.status === 'failed').length;
  results.push({
    name: 'one charge per pass, credit back for each failed pass',
    held: wrong.length === 0,
    detail: wrong.length
      ? `${wrong.length} passes wrong, e.g. ${JSON.stringify(wrong.slice(0, 3))}`
      : `${passes.length} charged passes, ${failed} failed and refunded`,
  });

  // The ledger's search rows sum to minus the complete charged passes, and match the cost events.
  const [{ ledger }] = await db('credit_ledger').where('workspace_id', ws).whereLike('reason', 'search:%').sum({ ledger: 'delta' });
  const [{ costs }] = await db('cost_events')
    .where('workspace_id', ws)
    .whereIn('action', ['launch_search', 'expand_project', 'search_refund'])
    .sum({ costs: 'credits' });
  const complete = passes.filter((p) => p.status === 'complete').length;
  const ledgerSum = Number(ledger ?? 0);
  const costSum = Number(costs ?? 0);
  results.push({
    name: 'ledger sums match the searches and cost events',
    held: ledgerSum === -complete && costSum === complete,
    detail: `ledger ${ledgerSum}, cost events ${costSum}, complete charged passes ${complete}`,
  });

  const duplicates: { request_id: string; action: string; n: string }[] = await db('cost_events')
    .where('workspace_id', ws)
    .whereNotNull('request_id')
    .groupBy('request_id', 'action')
    .havingRaw('count(*) > 1')
    .select('request_id', 'action')
    .count({ n: '*' });
  const [{ total }] = await db('cost_events').where('workspace_id', ws).count({ total: '*' });
  results.push({
    name: 'no duplicated cost event (request id + action)',
    held: duplicates.length === 0,
    detail: duplicates.length ? `${duplicates.length} duplicated, e.g. ${JSON.stringify(duplicates.slice(0, 3))}` : `${total} cost events, all distinct`,
  });

  const missing = await undelivered(db, scope);
  const [{ events }] = await db('outbox_events').where('workspace_id', ws).count({ events: '*' });
  results.push({
    name: 'every event at every enabled endpoint',
    held: missing.every((e) => e.missing.length === 0),
    detail: `${events} events × ${missing.length} enabled endpoints; missing ${missing.reduce((n, e) => n + e.missing.length, 0)}`,
  });

  // Nothing reaches an endpoint after it was disabled (the attempt reads `enabled` in the same call that posts).
  const disabled: { id: string; disabled_at: Date }[] = await db('webhook_endpoints')
    .whereIn(
      'id',
      scope.endpoints.map((e) => e.id),
    )
    .where('enabled', false)
    .select('id', 'disabled_at');
  const late = disabled.flatMap((d) => {
    const at = scope.endpoints.find((e) => e.id === d.id)!.path;
    return scope.receipts().filter((r) => r.path === at && r.at > d.disabled_at.getTime());
  });
  const lateAttempts: { n: string }[] = await db('webhook_delivery_attempts as a')
    .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .join('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .whereIn(
      'w.id',
      disabled.map((d) => d.id),
    )
    .whereRaw('a.created_at - make_interval(secs => a.duration_ms / 1000.0) > w.disabled_at')
    .count({ n: '*' });
  results.push({
    name: 'no delivery after its endpoint was disabled',
    held: late.length === 0 && Number(lateAttempts[0].n) === 0,
    detail: disabled.length
      ? `${disabled.length} disabled endpoint(s): ${late.length} receipts and ${lateAttempts[0].n} attempts started after disabling`
      : 'no endpoint disabled yet',
  });
  // Ratings sent while a worker, the server or the database was down are all learned from.
  const [{ rated }] = await db('search_feedback').where('workspace_id', ws).count({ rated: '*' });
  const behind = await unlearned(db, ws);
  results.push({
    name: 'every rating learned from',
    held: behind.length === 0,
    detail: behind.length
      ? `${behind.length} searches behind, e.g. ${JSON.stringify(behind.slice(0, 2))}`
      : `${rated} ratings, all in their search's calibration`,
  });

  // A monitor run killed mid-pass neither loses nor repeats its event: one monitor.matched per run that found someone, none otherwise.
  const runs: { monitor_id: string; run_id: string; status: string; new_people: number; event_id: string | null }[] = await db('monitor_runs')
    .where('workspace_id', ws)
    .select('monitor_id', 'run_id', 'status', 'new_people', 'event_id');
  const matched: { id: string; dedupe_key: string }[] = await db('outbox_events')
    .where({ workspace_id: ws, type: 'monitor.matched' })
    .select('id', 'dedupe_key');
  const eventsByRun = new Map<string, string[]>();
  for (const e of matched) eventsByRun.set(e.dedupe_key, [...(eventsByRun.get(e.dedupe_key) ?? []), e.id]);
  const badRuns = runs.filter((r) => {
    const events = eventsByRun.get(`monitor.matched:${r.monitor_id}:${r.run_id}`) ?? [];
    if (r.status === 'running') return true;
    if (r.status === 'matched') return r.new_people <= 0 || events.length !== 1 || events[0] !== r.event_id;
    return events.length !== 0 || r.event_id !== null;
  });
  const found = runs.filter((r) => r.status === 'matched').length;
  results.push({
    name: 'monitor.matched once per run that found someone, never otherwise',
    held: badRuns.length === 0 && matched.length === found,
    detail: badRuns.length
      ? `${badRuns.length} runs wrong, e.g. ${JSON.stringify(badRuns.slice(0, 2))}`
      : `${runs.length} monitor runs, ${found} found someone, ${matched.length} monitor.matched events`,
  });

  if (scope.billedDataCalls) {
    // A data call is billed once per idempotency key, however often a lost answer was retried.
    const answered = scope.billedDataCalls().size;
    const [{ billed }] = await db('cost_events').where('workspace_id', ws).where('action', 'search_people').count({ billed: '*' });
    results.push({
      name: 'one cost event per answered data call (retried under its idempotency key)',
      held: Number(billed) === answered,
      detail: `${answered} data calls answered, ${billed} cost events`,
    });
  }

  return results;
}
