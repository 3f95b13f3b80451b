import { randomUUID } from 'node:crypto';
import { routeTable } from '../../api/route-table';
import type { RouteDef } from '../../api/route-def';
import { sessionRoutes } from '../../api/session/session.routes';
import type { SessionRouteDef } from '../../api/session/session-route-def';
import { createCampaign } from '../../src/campaigns/campaigns.service';
import { createCredential } from '../../src/credentials/credentials.service';
import { newEventId } from '../../src/events/outbox';
import { projectWithScoredPeople } from '../support/searches';
import { workspaceWithMembers } from '../support/session';
import type { HttpsReceiver } from '../support/https-receiver';
import { startTestStack, type TestResponse, type TestStack } from '../support/stack';
import { SINK_ENV, startWebhookSink } from '../support/webhook-sink';
import { waitFor } from '../../tools/dev/processes';

/**
 * Tenant isolation, generated from both route tables: workspace B owns one real record of every
 * kind a path can name; for every route that takes an id, workspace A's key (or A's admin
 * session) calling with B's ids gets the resource's 404, and nothing of B's changes: every row
 * of every table that names B's workspace, project, search or webhook is compared before and after.
 * A route added later is covered without touching this file, except for a new kind of path id.
 */

let stack: TestStack;
let sink: HttpsReceiver;
type Workspace = Awaited<ReturnType<typeof workspaceWithMembers>>;
let a: Workspace;
let b: Workspace;
/** B's records, by path placeholder (key API) or record kind (session API). */
let bIds: Record<string, string>;
let bScope: { workspace: string[]; project: string[]; search: string[]; endpoint: string[] };
/** Tables and which of B's ids each one is filtered by, read from the schema. */
let tables: { table: string; column: string; scope: keyof typeof bScope }[];

const SCOPE_COLUMNS = { workspace_id: 'workspace', project_id: 'project', search_id: 'search', endpoint_id: 'endpoint' } as const;

beforeAll(async () => {
  // Request counts are flushed in batches: often, so B's settle quickly (below).
  sink = await startWebhookSink();
  stack = await startTestStack({ env: { USAGE_FLUSH_INTERVAL_MS: '100', ...SINK_ENV } });
  a = await workspaceWithMembers(stack, { credits: 100 });
  b = await workspaceWithMembers(stack, { credits: 100 });
  // A finished search with scored people, two of them on the shortlist: real candidates of B.
  const { projectId, search, people } = await projectWithScoredPeople(stack, b.headers, { listed: 2, budget: 20 });
  const shortlisted = (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: b.headers })).body.data;
  // Subscribed to test events only: B's search events fan out to no delivery (whose attempts
  // would change B's rows while the snapshots are compared).
  const hook = await stack.request('POST', '/v1/webhooks', {
    headers: b.headers,
    body: { url: `${sink.origin}/hooks/tenant`, events: ['webhook.test'] },
  });
  expect([hook.status, shortlisted.length, people.length > 2]).toEqual([201, 2, true]);
  // The dispatcher marks B's events as it fans them out: let it finish before any snapshot.
  await waitFor(
    "B's events dispatched",
    async () => (await stack.db('outbox_events').where({ workspace_id: b.workspace.id }).whereNull('dispatched_at').first()) === undefined,
    30_000,
    100,
  );
  // A delivery of B's endpoint, for an event no dispatcher will pick up (already dispatched).
  const eventId = newEventId();
  await stack.db('outbox_events').insert({
    id: eventId,
    workspace_id: b.workspace.id,
    type: 'search.completed',
    data: { search_id: search.id },
    dedupe_key: `tenant:${eventId}`,
    dispatched_at: stack.db.fn.now(),
  });
  const [delivery] = await stack
    .db('webhook_deliveries')
    .insert({ id: randomUUID(), workspace_id: b.workspace.id, endpoint_id: hook.body.data.id, event_id: eventId, status: 'failed' })
    .returning('id');
  const credential = await createCredential(stack.db, stack.config, b.workspace.id, { provider: 'brave', apiKey: `brave-${randomUUID()}`, label: 'b' });
  const campaign = await createCampaign(stack.db, b.workspace.id, b.admin.userId, { name: 'B campaign', channel: 'email' });
  // Weekly: its Schedule never runs while this file does.
  const monitor = await stack.request('POST', `/v1/projects/${projectId}/monitors`, { headers: b.headers, body: { search_id: search.id, every: 'week' } });
  expect(monitor.status).toBe(201);
  // A rating of B's, written directly: a feedback call would start a calibration that changes B's rows meanwhile.
  await stack.db('search_feedback').insert({ workspace_id: b.workspace.id, search_id: search.id, candidate_id: people[0].id, verdict: 'good' });
  bIds = {
    projectId,
    searchId: search.id,
    candidateId: shortlisted[0].candidate_id,
    webhookId: hook.body.data.id,
    deliveryId: delivery.id,
    credential: credential.id,
    campaign: campaign.id,
    monitorId: monitor.body.data.id,
  };
  bScope = { workspace: [b.workspace.id], project: [projectId], search: [search.id], endpoint: [hook.body.data.id] };
  const columns: { table_name: string; column_name: keyof typeof SCOPE_COLUMNS }[] = await stack
    .db('information_schema.columns')
    .where({ table_schema: 'public' })
    .whereIn('column_name', Object.keys(SCOPE_COLUMNS))
    .select('table_name', 'column_name');
  tables = columns
    .map((c) => ({ table: c.table_name, column: c.column_name, scope: SCOPE_COLUMNS[c.column_name] }))
    .sort((x, y) => x.table.localeCompare(y.table));
  await bCountsWritten();
}, 120_000);
afterAll(async () => {
  if (bIds?.monitorId)
    await stack.temporal.client.schedule
      .getHandle(`monitor-${bIds.monitorId}`)
      .delete()
      .catch(() => undefined);
  await stack?.stop();
  await sink?.close();
  // A's calls on B's endpoint were all refused: nothing was sent to it.
  expect(sink?.received).toEqual([]);
});

/**
 * B's own requests are counted by a background flush (every 100 ms here): waits until it has
 * written them all, so a flush never lands between two snapshots (it changed B's usage_counts once).
 */
async function bCountsWritten() {
  let counted = -1;
  await waitFor(
    "B's request counts written",
    async () => {
      const [{ n }] = await stack.db('usage_counts').where({ workspace_id: b.workspace.id }).sum({ n: 'requests' });
      const settled = Number(n) > 0 && Number(n) === counted;
      counted = Number(n);
      return settled;
    },
    30_000,
    500,
  );
}

/** Every row of every table that names one of B's records, as one comparable value. */
async function snapshotB(): Promise<string> {
  const parts = await Promise.all(
    // Ordered by the whole row: rows equal in their first column (usage_counts' workspace_id) came back in another order once.
    tables.map(async ({ table, column, scope }) => [
      `${table}.${column}`,
      await stack.db(table).whereIn(column, bScope[scope]).orderByRaw('??::text', [table]),
    ]),
  );
  return JSON.stringify(parts);
}

const fill = (path: string, ids: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!ids[name]) throw new Error(`add a record of B for {${name}} to this test`);
    return ids[name];
  });

/** A body the route would accept, so the refusal can only come from the ownership check. */
function keyBodyFor(route: RouteDef): unknown {
  if (route.name === 'add_shortlist_members') return { candidate_ids: [bIds.candidateId] };
  if (route.name === 'launch_search') return { criteria: { family: 'software_engineering', read_budget: 10, target: 5 } };
  if (route.example !== undefined) return route.example;
  return route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
}

function expect404(res: TestResponse, where: string) {
  expect([where, res.status]).toEqual([where, 404]);
}

/**
 * The data endpoints' ids name public records (profiles and companies of the provider or the
 * built-in corpus), readable by every workspace: nothing of a tenant to isolate.
 */
const SHARED_RECORD_ROUTES = ['/data/people/{profileId}', '/data/companies/{companyId}'];
const keyRoutes = routeTable.filter((r) => r.auth !== 'none' && r.path.includes('{') && !SHARED_RECORD_ROUTES.includes(r.path));
const sessionIdRoutes = sessionRoutes.filter((r) => r.access !== 'public' && r.path.includes('{'));

it('covers every route that takes an id', () => {
  expect(keyRoutes.length).toBeGreaterThanOrEqual(20);
  expect(sessionIdRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(
    expect.arrayContaining(['DELETE /admin/credentials/{id}', 'POST /campaigns/{id}/launch']),
  );
});

it("B's records are real: B's own key reads each of them", async () => {
  for (const route of keyRoutes.filter((r) => r.method === 'GET')) {
    const res = await stack.request('GET', `/v1${fill(route.path, bIds)}`, { headers: b.headers });
    expect([route.path, res.status]).toEqual([route.path, 200]);
  }
  await bCountsWritten();
});

describe.each(keyRoutes.map((r) => [`${r.method} /v1${r.path}`, r] as const))('key API %s', (label, route) => {
  it("with A's key and B's ids: the outermost resource's 404, and nothing of B's changes", async () => {
    const before = await snapshotB();
    const res = await stack.request(route.method, `/v1${fill(route.path, bIds)}`, {
      headers: { ...a.headers, 'Idempotency-Key': `tenant-${randomUUID()}` },
      body: keyBodyFor(route),
    });
    expect404(res, label);
    // The outermost resource is looked up first: {projectId} → project_not_found, and so on.
    expect(res.body.error.code).toBe(`${/\{(\w+)Id\}/.exec(route.path)![1]}_not_found`);
    expect(res.text).not.toContain(b.workspace.id);
    expect(await snapshotB()).toBe(before);
  });
});

const sessionRecord = (route: SessionRouteDef) => (route.path.startsWith('/admin/credentials') ? bIds.credential : bIds.campaign);

describe.each(sessionIdRoutes.map((r) => [`${r.method} /api${r.path}`, r] as const))('session API %s', (label, route) => {
  it("with A's admin session and B's record: 404, and nothing of B's changes", async () => {
    const before = await snapshotB();
    const res = await stack.request(route.method, `/api${route.path.replace('{id}', sessionRecord(route))}`, {
      headers: { ...a.admin.headers, 'Idempotency-Key': `tenant-${randomUUID()}` },
      body: route.method === 'DELETE' ? undefined : {},
    });
    expect404(res, label);
    expect(await snapshotB()).toBe(before);
  });
});
