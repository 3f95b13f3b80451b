import { parseCsvLine } from '../support/csv';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { createProject, launch, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let caller: KeyFixture;
let projectId: string;
let search: any;

beforeAll(async () => {
  stack = await startTestStack();
  caller = await workspaceWithKey(stack.db, { credits: 5 });
  projectId = await createProject(stack, caller.headers, 'Reads');
  // A small read budget and a high target: the pass reads 40, records the rest of the page as not read.
  const res = await launch(stack, caller.headers, projectId, {
    criteria: { family: 'software_engineering', read_budget: 40, target: 200, shortlist_threshold: 40 },
  });
  search = await waitForSearch(stack, caller.headers, res.body.data.id);
});
afterAll(() => stack.stop());

const get = (path: string) => stack.request('GET', path, { headers: caller.headers });

describe('GET /v1/searches/{id} and /v1/projects/{id}/searches', () => {
  it('stops at the read budget with consistent counts', () => {
    expect(search).toMatchObject({ status: 'complete', stop_reason: 'read_budget_reached', profiles_read: 40, delivered: 40, outcome: 'Poor yield' });
  });

  it('lists the project searches oldest first', async () => {
    const second = await launch(stack, caller.headers, projectId, { criteria: { family: 'design', read_budget: 5 } });
    await waitForSearch(stack, caller.headers, second.body.data.id);
    const res = await get(`/v1/projects/${projectId}/searches`);
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([search.id, second.body.data.id]);
    expect(res.body.meta.total).toBe(2);
  });
});

describe('GET /v1/searches/{id}/people', () => {
  it('returns scored people best first with a stable order, and total equals delivered', async () => {
    const res = await get(`/v1/searches/${search.id}/people`);
    expect(res.status).toBe(200);
    const people = res.body.data.people;
    expect(res.body.data.total).toBe(search.delivered);
    expect(people).toHaveLength(40);
    for (let i = 1; i < people.length; i++) expect(people[i - 1].score).toBeGreaterThanOrEqual(people[i].score);
    expect(people[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      score: expect.any(Number),
      score_breakdown: expect.any(Array),
      profile: expect.objectContaining({ skills: expect.any(Array) }),
    });
    expect(people[0].score_breakdown[0]).toMatchObject({ criterion: expect.any(String), reason: expect.any(String) });
    const again = await get(`/v1/searches/${search.id}/people`);
    expect(again.body.data.people.map((p: { id: string }) => p.id)).toEqual(people.map((p: { id: string }) => p.id));
  });

  it('pages with limit and offset until an empty page (total 0 past the end)', async () => {
    const seen: string[] = [];
    for (let offset = 0; ; offset += 15) {
      const page = await get(`/v1/searches/${search.id}/people?limit=15&offset=${offset}&profile=false`);
      if (page.body.data.people.length === 0) {
        expect(page.body.data.total).toBe(0);
        break;
      }
      seen.push(...page.body.data.people.map((p: { id: string }) => p.id));
    }
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBe(40);
  });

  it('filters by min_score, counting only matching people', async () => {
    const all = (await get(`/v1/searches/${search.id}/people?limit=500&profile=false`)).body.data.people;
    const cut = all[Math.floor(all.length / 2)].score;
    const res = await get(`/v1/searches/${search.id}/people?min_score=${cut}&profile=false`);
    const expected = all.filter((p: { score: number }) => p.score >= cut).length;
    expect(res.body.data.total).toBe(expected);
    expect(res.body.data.people.every((p: { score: number }) => p.score >= cut)).toBe(true);
  });

  it('clamps limit to 1–500, leaves profiles out with profile=false, and rejects malformed parameters', async () => {
    expect((await get(`/v1/searches/${search.id}/people?limit=0`)).body.data.people).toHaveLength(1);
    expect((await get(`/v1/searches/${search.id}/people?limit=100000`)).body.data.people).toHaveLength(40);
    const lean = await get(`/v1/searches/${search.id}/people?profile=false&limit=2`);
    expect(Object.keys(lean.body.data.people[0]).sort()).toEqual(['id', 'name', 'score', 'score_breakdown']);
    for (const q of ['limit=ten', 'offset=-1', 'min_score=high', 'profile=maybe']) {
      const res = await get(`/v1/searches/${search.id}/people?${q}`);
      expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
    }
  });

  it('answers 404 search_not_found for another workspace or a malformed id', async () => {
    const other = await workspaceWithKey(stack.db);
    for (const path of [`/v1/searches/${search.id}/people`, `/v1/searches/${search.id}`, '/v1/searches/bad-id/records']) {
      const res = await stack.request('GET', path, { headers: path.includes('bad-id') ? caller.headers : other.headers });
      expect([res.status, res.body.error.code]).toEqual([404, 'search_not_found']);
    }
  });
});

describe('records JSON and CSV', () => {
  it('returns every person the search returned, in order, read or not', async () => {
    const res = await get(`/v1/searches/${search.id}/records`);
    const records = res.body.data;
    expect(res.body.meta.total).toBe(records.length);
    expect(records.length).toBeGreaterThanOrEqual(40);
    expect(records.filter((r: { status: string }) => r.status === 'scored')).toHaveLength(40);
    const notRead = records.filter((r: { status: string }) => r.status === 'not_read');
    expect(notRead.length).toBe(records.length - 40);
    for (const r of notRead) expect([r.score, r.profile]).toEqual([null, null]);
    expect(records[0].page).toBe(1);
  });

  it('exports the 21 columns in order, RFC 4180, yes/no flags and empty profile columns for not_read', async () => {
    const res = await get(`/v1/searches/${search.id}/records.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="search-${search.id}-records.csv"`);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe(
      'status,score,page,first_name,last_name,title,company,location,network_url,open_profile,premium,summary,candidate_id,about,experience_history,education,skills,certifications,languages,projects,connections',
    );
    expect(lines[lines.length - 1]).toBe('');
    const rows = lines.slice(1, -1).map(parseCsvLine);
    const json = (await get(`/v1/searches/${search.id}/records`)).body.data;
    expect(rows).toHaveLength(json.length);
    rows.forEach((row, i) => {
      expect(row).toHaveLength(21);
      expect(row[12]).toBe(json[i].candidate_id);
      expect(['yes', 'no']).toContain(row[9]);
      expect(['yes', 'no']).toContain(row[10]);
      if (row[0] === 'not_read') expect(row.slice(13).every((v) => v === '') && row[1] === '').toBe(true);
      else expect([row[1], row[13] !== '', row[20]]).toEqual([String(json[i].score), true, String(json[i].profile.connections)]);
    });
  });
});
