import { waitFor } from '../../tools/dev/processes';
import { workspaceWithKey, keyFor, type KeyFixture } from '../support/fixtures';
import { memberOf } from '../support/session';
import { createProject, launch, softwareCriteria, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * POST and GET /searches/{searchId}/feedback: validation, all-or-nothing, the latest verdict per
 * person, repeats that change nothing, scopes, roles and workspaces. The calibration the ratings
 * start is a long quiet period away here (calibration.test.ts runs it).
 */

let stack: TestStack;
let f: KeyFixture;
let searchId: string;
let people: { id: string; name: string }[];
let otherSearchPerson: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { CALIBRATION_QUIET_SECONDS: '3600' } });
  f = await workspaceWithKey(stack.db, { credits: 10 });
  const project = await createProject(stack, f.headers);
  const criteria = { ...softwareCriteria, read_budget: 20, target: 100 };
  searchId = (await waitForSearch(stack, f.headers, (await launch(stack, f.headers, project, { criteria })).body.data.id)).id;
  people = (await stack.request('GET', `/v1/searches/${searchId}/people?limit=20&profile=false`, { headers: f.headers })).body.data.people;
  // Someone only another search of the project found.
  const other = await waitForSearch(
    stack,
    f.headers,
    (await launch(stack, f.headers, project, { criteria: { family: 'nursing', read_budget: 5, target: 100 } })).body.data.id,
  );
  otherSearchPerson = (await stack.request('GET', `/v1/searches/${other.id}/people?limit=1&profile=false`, { headers: f.headers })).body.data.people[0].id;
}, 120_000);
afterAll(() => stack.stop());

const post = (body: unknown, headers: Record<string, string> = f.headers, id = searchId) =>
  stack.request('POST', `/v1/searches/${id}/feedback`, { headers, body });
const list = (headers: Record<string, string> = f.headers, id = searchId) => stack.request('GET', `/v1/searches/${id}/feedback`, { headers });

describe('POST /v1/searches/{searchId}/feedback', () => {
  it('refuses malformed ratings with every problem named, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ ratings: [] }, 'ratings'],
      [{}, 'ratings'],
      [{ ratings: Array.from({ length: 201 }, () => ({ candidate_id: people[0].id, verdict: 'good' })) }, 'ratings'],
      [{ ratings: [{ candidate_id: people[0].id, verdict: 'meh' }] }, 'ratings.0.verdict'],
      [{ ratings: [{ candidate_id: people[0].id, verdict: 'good', reasons: ['salary'] }] }, 'ratings.0.reasons.0'],
      [{ ratings: [{ candidate_id: 'nobody', verdict: 'bad' }] }, 'ratings.0.candidate_id'],
      [{ ratings: [{ candidate_id: people[0].id, verdict: 'bad', stars: 5 }] }, 'ratings.0.stars'],
      [{ ratings: [{ candidate_id: people[0].id, verdict: 'bad', note: 'x'.repeat(1001) }] }, 'ratings.0.note'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
      expect(res.body.error.details.problems.map((p: { field: string }) => p.field)).toContain(field);
    }
    expect((await list()).body.data).toEqual([]);
  });

  it('refuses candidates who are not people of this search (another search, another workspace, made up), storing none of the call', async () => {
    const stranger = '00000000-0000-4000-8000-000000000000';
    const res = await post({
      ratings: [
        { candidate_id: people[0].id, verdict: 'good' },
        { candidate_id: otherSearchPerson, verdict: 'good' },
        { candidate_id: stranger, verdict: 'bad' },
      ],
    });
    expect([res.status, res.body.error.code]).toEqual([404, 'candidate_not_found']);
    expect(res.body.error.details.unknown_ids).toEqual([otherSearchPerson, stranger]);
    expect((await list()).body.data).toEqual([]);
  });

  it('stores ratings, lists them latest first, and a repeat changes nothing', async () => {
    const body = {
      ratings: [
        { candidate_id: people[0].id, verdict: 'good', reasons: ['skills', 'industry', 'skills'], note: 'Strong payments background' },
        { candidate_id: people[1].id, verdict: 'bad' },
      ],
    };
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      search_id: searchId,
      received: 2,
      changed: 2,
      ratings: 2,
      good: 1,
      bad: 1,
      calibration_workflow_id: `calibration-${searchId}`,
    });
    const first = (await list()).body;
    expect(first.meta.total).toBe(2);
    expect(first.data).toEqual(
      expect.arrayContaining([
        {
          candidate_id: people[0].id,
          name: people[0].name,
          verdict: 'good',
          reasons: ['industry', 'skills'],
          note: 'Strong payments background',
          rated_at: expect.any(String),
        },
        { candidate_id: people[1].id, name: people[1].name, verdict: 'bad', reasons: [], note: null, rated_at: expect.any(String) },
      ]),
    );

    const again = await post(body);
    expect(again.body.data).toMatchObject({ received: 2, changed: 0, ratings: 2, good: 1, bad: 1 });
    expect((await list()).body.data).toEqual(first.data);
    // The calibration workflow of the search is waiting out its quiet period, signalled twice.
    const handle = stack.temporal.client.workflow.getHandle(`calibration-${searchId}`);
    const signals = async () => (await handle.fetchHistory()).events!.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
    await waitFor('both signals recorded', async () => (await signals()) === 2, 10_000, 100);
    expect((await handle.describe()).status.name).toBe('RUNNING');
  });

  it("keeps a person's latest verdict, also within one call", async () => {
    const changed = await post({ ratings: [{ candidate_id: people[1].id, verdict: 'good', reasons: ['title'] }] });
    expect(changed.body.data).toMatchObject({ received: 1, changed: 1, ratings: 2, good: 2, bad: 0 });
    const flip = await post({
      ratings: [
        { candidate_id: people[2].id, verdict: 'good' },
        { candidate_id: people[2].id, verdict: 'bad', reasons: ['location'] },
      ],
    });
    expect(flip.body.data).toMatchObject({ received: 1, changed: 1, ratings: 3, good: 2, bad: 1 });
    const rows = (await list()).body.data;
    expect(rows[0]).toMatchObject({ candidate_id: people[2].id, verdict: 'bad', reasons: ['location'] });
    expect(rows.find((r: { candidate_id: string }) => r.candidate_id === people[1].id)).toMatchObject({ verdict: 'good', reasons: ['title'] });
  });

  it('needs feedback:write to rate and searches:read to list; costs no credit', async () => {
    const balance = async () => (await stack.request('GET', '/v1/billing/balance', { headers: f.headers })).body.data;
    const before = await balance();
    const reader = await keyFor(stack.db, f.workspace, { scopes: ['searches:read'] });
    const rater = await keyFor(stack.db, f.workspace, { scopes: ['feedback:write'] });
    const rating = { ratings: [{ candidate_id: people[3].id, verdict: 'good' }] };
    const refused = await post(rating, reader.headers);
    expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([403, 'insufficient_scope', { required_scope: 'feedback:write' }]);
    expect((await post(rating, rater.headers)).status).toBe(200);
    expect((await list(rater.headers)).body.error.code).toBe('insufficient_scope');
    expect((await list(reader.headers)).status).toBe(200);
    expect(await balance()).toEqual(before);
  });

  it("answers another workspace's search as not found, and its key cannot rate this search's people", async () => {
    const other = await workspaceWithKey(stack.db);
    for (const res of [await post({ ratings: [{ candidate_id: people[0].id, verdict: 'bad' }] }, other.headers), await list(other.headers)])
      expect([res.status, res.body.error.code]).toEqual([404, 'search_not_found']);
    const rows = (await list()).body.data;
    expect(rows.find((r: { candidate_id: string }) => r.candidate_id === people[0].id).verdict).toBe('good');
  });

  it('is there for the app: an operator rates through the session, a viewer only reads', async () => {
    const operator = await memberOf(stack, f.workspace, 'operator');
    const viewer = await memberOf(stack, f.workspace, 'viewer');
    const body = { ratings: [{ candidate_id: people[4].id, verdict: 'bad', reasons: ['seniority'] }] };
    const rated = await stack.request('POST', `/api/v1/searches/${searchId}/feedback`, { headers: operator.headers, body });
    expect(rated.status).toBe(200);
    const refused = await stack.request('POST', `/api/v1/searches/${searchId}/feedback`, { headers: viewer.headers, body });
    expect(refused.status).toBe(403);
    expect((await stack.request('GET', `/api/v1/searches/${searchId}/feedback`, { headers: viewer.headers })).status).toBe(200);
  });
});
