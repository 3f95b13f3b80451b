import { randomUUID } from 'node:crypto';
import { MEMBER_COLUMNS } from '../../src/shortlist/shortlist.service';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { createProject, projectWithScoredPeople } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let caller: KeyFixture;

beforeAll(async () => {
  stack = await startTestStack();
  caller = await workspaceWithKey(stack.db, { credits: 10 });
});
afterAll(() => stack.stop());

const projectWithSearch = (listed = 3, budget = 40) => projectWithScoredPeople(stack, caller.headers, { listed, budget });

const shortlistEvents = (projectId: string) =>
  stack.db('outbox_events').where({ type: 'shortlist.changed' }).whereRaw("data->>'project_id' = ?", [projectId]).orderBy('created_at').select('data');
const add = (projectId: string, body: unknown) => stack.request('POST', `/v1/projects/${projectId}/shortlist/members`, { headers: caller.headers, body });
const remove = (projectId: string, candidateId: string) =>
  stack.request('DELETE', `/v1/projects/${projectId}/shortlist/members/${candidateId}`, { headers: caller.headers });

describe('reading the shortlist', () => {
  it('returns every member with the design fields, and the same as CSV', async () => {
    const { projectId, people } = await projectWithSearch(3);
    const res = await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: caller.headers });
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(3);
    const member = res.body.data[0];
    expect(Object.keys(member)).toEqual([...MEMBER_COLUMNS]);
    expect(member).toMatchObject({ search_id: null, source: 'api', network_url: expect.stringMatching(/^https:\/\//), added_at: expect.any(String) });
    const scored = new Map(people.map((p) => [p.id, p]));
    for (const m of res.body.data) expect([m.name, m.score]).toEqual([scored.get(m.candidate_id)!.name, scored.get(m.candidate_id)!.score]);

    const csv = await stack.request('GET', `/v1/projects/${projectId}/shortlist.csv`, { headers: caller.headers });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="project-${projectId}-shortlist.csv"`);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe(MEMBER_COLUMNS.join(','));
    expect(lines).toHaveLength(3 + 2);
    expect(lines[1].split(',')[0]).toBe(res.body.data[0].candidate_id);
  });
});

describe('adding and removing members', () => {
  it('adds people of the project searches, reports already-listed ones, and is safe to repeat', async () => {
    const { projectId, people } = await projectWithSearch(2);
    const listed = new Set(
      (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: caller.headers })).body.data.map(
        (m: { candidate_id: string }) => m.candidate_id,
      ),
    );
    const fresh = people
      .filter((p) => !listed.has(p.id))
      .slice(0, 2)
      .map((p) => p.id);
    const first = await add(projectId, { candidate_ids: [...fresh, [...listed][0]] });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ added: fresh, already: 1, already_listed: [[...listed][0]], shortlisted: 4 });
    const again = await add(projectId, { candidate_ids: fresh });
    expect(again.body.data).toEqual({ added: [], already: fresh.length, already_listed: fresh, shortlisted: 4 });

    const events = await shortlistEvents(projectId);
    expect(events.map((e) => `${e.data.kind}/${e.data.source}`)).toEqual(['added/api', 'added/api']); // set-up add, first add; the repeat wrote nothing
    expect(events[1].data.list_before.count).toBe(2);
    expect(events[1].data.list_after).toEqual({ count: 4, candidate_ids: expect.arrayContaining(fresh) });
    expect(JSON.stringify(events[1].data)).not.toMatch(/network_url|first_name|skills/);
  });

  it('removes a member (removed:true), then answers removed:false, writing one event', async () => {
    const { projectId } = await projectWithSearch(2);
    const members = (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: caller.headers })).body.data;
    const gone = members[0].candidate_id;
    expect((await remove(projectId, gone)).body.data).toEqual({ candidate_id: gone, removed: true, shortlisted: 1 });
    expect((await remove(projectId, gone)).body.data).toEqual({ candidate_id: gone, removed: false, shortlisted: 1 });
    expect((await remove(projectId, 'not-a-candidate')).body.data.removed).toBe(false);
    const events = (await shortlistEvents(projectId)).filter((e) => e.data.kind === 'removed');
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ source: 'api', list_before: { count: 2 }, list_after: { count: 1, candidate_ids: [members[1].candidate_id] } });
  });

  it.each([
    ['missing', {}, 400, 'candidate_ids_required'],
    ['empty', { candidate_ids: [] }, 400, 'candidate_ids_required'],
    ['over 200', { candidate_ids: Array.from({ length: 201 }, () => randomUUID()) }, 400, 'invalid_request'],
    ['not strings', { candidate_ids: [1, 2] }, 400, 'invalid_request'],
    ['not an array', { candidate_ids: 'abc' }, 400, 'invalid_request'],
  ])('refuses candidate_ids that are %s', async (_label, body, status, code) => {
    const projectId = await createProject(stack, caller.headers);
    const res = await add(projectId, body);
    expect([res.status, res.body.error.code]).toEqual([status, code]);
  });

  it('404 candidate_not_found lists unknown ids and adds nothing', async () => {
    const { projectId, people } = await projectWithSearch(1);
    const other = await projectWithSearch(1);
    const known = people.find((p) => p.score >= 0)!.id;
    const strangers = [randomUUID(), 'garbage', other.people[other.people.length - 1].id];
    const before = (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: caller.headers })).body.meta.total;
    const res = await add(projectId, { candidate_ids: [known, ...strangers] });
    expect([res.status, res.body.error.code]).toEqual([404, 'candidate_not_found']);
    expect(res.body.error.details.unknown_ids).toEqual(strangers);
    expect((await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: caller.headers })).body.meta.total).toBe(before);
  });

  it('concurrent adds and removes never lose or duplicate a member, and every event chains', async () => {
    const { projectId, people } = await projectWithSearch(1, 60);
    const listed = new Set(
      (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: caller.headers })).body.data.map(
        (m: { candidate_id: string }) => m.candidate_id,
      ),
    );
    const pool = people
      .filter((p) => !listed.has(p.id))
      .slice(0, 30)
      .map((p) => p.id);
    const kept = pool.slice(0, 20);
    const removedLater = pool.slice(20);
    await add(projectId, { candidate_ids: removedLater });
    await Promise.all([
      ...kept.map((id) => add(projectId, { candidate_ids: [id] })),
      ...kept.slice(0, 10).map((id) => add(projectId, { candidate_ids: [id] })), // duplicates racing
      ...removedLater.map((id) => remove(projectId, id)),
    ]);
    const final = (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: caller.headers })).body.data.map(
      (m: { candidate_id: string }) => m.candidate_id,
    );
    expect(new Set(final).size).toBe(final.length);
    expect(new Set(final)).toEqual(new Set([...listed, ...kept]));
    const counts = (await shortlistEvents(projectId)).map((e) => [e.data.list_before.count, e.data.list_after.count]);
    for (let i = 1; i < counts.length; i++) expect(counts[i][0]).toBe(counts[i - 1][1]);
    expect(counts.filter(([b, a]) => a > b)).toHaveLength(1 + 1 + 20); // set-up add, first add, 20 single adds
  });
});

describe('GET /v1/projects/{id}/share-link', () => {
  it('gives the same URL every time, under the app URL, with the live count', async () => {
    const { projectId } = await projectWithSearch(2);
    const first = await stack.request('GET', `/v1/projects/${projectId}/share-link`, { headers: caller.headers });
    expect(first.body.data).toEqual({
      project_id: projectId,
      url: expect.stringMatching(new RegExp(`^${stack.config.appUrl}/share/[A-Za-z0-9_-]{43}$`)),
      shortlisted: 2,
    });
    const members = (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: caller.headers })).body.data;
    await remove(projectId, members[0].candidate_id);
    const second = await stack.request('GET', `/v1/projects/${projectId}/share-link`, { headers: caller.headers });
    expect(second.body.data).toEqual({ ...first.body.data, shortlisted: 1 });
  });
});
