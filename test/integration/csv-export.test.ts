import { randomUUID } from 'node:crypto';
import { csvCell, csvLine } from '../../src/domain/csv';
import { RECORD_COLUMNS } from '../../src/searches/records';
import { MEMBER_COLUMNS } from '../../src/shortlist/shortlist.service';
import { parseCsvLine } from '../support/csv';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { projectWithScoredPeople } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * records.csv and shortlist.csv are written by Postgres (`COPY … TO STDOUT WITH CSV`) and streamed
 * through the response: the same cells as the JSON reads, rows ending in CRLF with line
 * breaks inside quoted fields kept, and a COPY connection that is held only while the client reads.
 */
let stack: TestStack;
let caller: KeyFixture;
let fixture: Awaited<ReturnType<typeof projectWithScoredPeople>>;
beforeAll(async () => {
  stack = await startTestStack();
  caller = await workspaceWithKey(stack.db, { credits: 5 });
  fixture = await projectWithScoredPeople(stack, caller.headers, { listed: 6 });
});
afterAll(async () => {
  await stack?.stop();
});

const get = (p: string) => stack.request('GET', p, { headers: caller.headers });
/** CSV rows: the text cut at CRLF (a quoted field may hold a bare LF), the last line empty. */
const rowsOf = (text: string) => {
  const lines = text.split('\r\n');
  expect(lines.pop()).toBe('');
  return lines.map(parseCsvLine);
};

it('shortlist.csv has the bytes the JSON list gives, cell by cell (RFC 4180, formula-neutralised)', async () => {
  const members = (await get(`/v1/projects/${fixture.projectId}/shortlist`)).body.data;
  expect(members).toHaveLength(6);
  const csv = await get(`/v1/projects/${fixture.projectId}/shortlist.csv`);
  expect(csv.status).toBe(200);
  expect(csv.text).toBe(
    [MEMBER_COLUMNS, ...members.map((m: Record<string, unknown>) => MEMBER_COLUMNS.map((c) => m[c]))].map((cells) => csvLine(cells)).join(''),
  );
});

it("records.csv: a summary with quotes, commas and a line break, an empty title: the JSON's text in each cell", async () => {
  const [first] = (await get(`/v1/searches/${fixture.search.id}/records`)).body.data;
  const awkward = { summary: '=two\nlines, "quoted"', title: '' };
  // The stored cells follow the row (trigger): change the summary as a later pass could.
  await stack.db.raw('update search_people set summary = summary || ?::jsonb where search_id = ? and candidate_id = ?', [
    JSON.stringify(awkward),
    fixture.search.id,
    first.candidate_id,
  ]);
  const records = (await get(`/v1/searches/${fixture.search.id}/records`)).body.data;
  const csv = await get(`/v1/searches/${fixture.search.id}/records.csv`);
  expect(csv.text).toContain('"\'=two\nlines, ""quoted"""');
  const [header, ...rows] = rowsOf(csv.text);
  expect(header).toEqual([...RECORD_COLUMNS]);
  expect(rows).toHaveLength(records.length);
  rows.forEach((row, i) => {
    const r = records[i];
    const flag = (b: boolean) => (b ? 'yes' : 'no');
    expect(row.slice(0, 13)).toEqual([
      r.status,
      r.score === null ? '' : String(r.score),
      String(r.page),
      ...['first_name', 'last_name', 'title', 'company', 'location', 'network_url'].map((c) => csvCell(r[c])),
      flag(r.open_profile),
      flag(r.premium),
      csvCell(r.summary),
      r.candidate_id,
    ]);
    expect(row[13]).toBe(r.profile ? csvCell(r.profile.about) : '');
    expect(row[20]).toBe(r.profile ? String(r.profile.connections) : '');
  });
  expect(rows[0].slice(5, 6).concat(rows[0][11])).toEqual(['', '\'=two\nlines, "quoted"']);
});

it('records.csv of 30k rows holds one COPY while the client reads, lets it go when the client hangs up, and the pool stays whole', async () => {
  const searchId = randomUUID();
  await stack.db('searches').insert({
    id: searchId,
    workspace_id: caller.workspace.id,
    project_id: fixture.projectId,
    status: 'complete',
    criteria: JSON.stringify({ family: 'software_engineering', target: 25, read_budget: 30_000, shortlist_threshold: 70 }),
    funding_bucket: 'workspace',
  });
  // 30k people of about 600 bytes of CSV each: far more than the socket buffers hold.
  await stack.db.raw(
    `with cands as (insert into candidates (id, project_id, person_id)
                    select gen_random_uuid(), ?, 'csv-bulk-' || n from generate_series(1, 30000) n returning id, person_id)
     insert into search_people (search_id, candidate_id, person_id, seq, pass, page, status, score, score_breakdown, summary)
     select ?, c.id, c.person_id, substr(c.person_id, 10)::int, 1, (substr(c.person_id, 10)::int - 1) / 25, 'not_read', null, null,
            jsonb_build_object('first_name', 'Ada', 'last_name', substr(c.person_id, 10), 'title', 'Engineer', 'company', 'Acme, Inc.',
                               'location', 'Berlin', 'network_url', 'https://example.test/' || c.person_id, 'open_profile', true, 'premium', false,
                               'summary', repeat('long "summary" text, ', 25))
       from cands c`,
    [fixture.projectId, searchId],
  );
  const copies = async () =>
    Number(
      (
        await stack.db.raw(
          `select count(*) as n from pg_stat_activity where query like 'copy (%from search_people sp%' and state = 'active' and pid <> pg_backend_pid()`,
        )
      ).rows[0].n,
    );

  const aborted = new AbortController();
  const res = await fetch(`${stack.url}/v1/searches/${searchId}/records.csv`, { headers: caller.headers, signal: aborted.signal });
  const reader = res.body!.getReader();
  expect((await reader.read()).done).toBe(false);
  // The client reads no further: backpressure keeps the COPY open, not buffered into memory.
  await new Promise((r) => setTimeout(r, 300));
  expect(await copies()).toBe(1);
  aborted.abort();
  await reader.cancel().catch(() => undefined);
  for (let i = 0; i < 50 && (await copies()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await copies()).toBe(0);

  // More requests than the pool has connections, then a whole export: nothing was left broken.
  const reads = await Promise.all(Array.from({ length: 15 }, () => get(`/v1/searches/${fixture.search.id}`)));
  expect(reads.map((r) => r.status)).toEqual(Array(15).fill(200));
  const whole = await get(`/v1/searches/${searchId}/records.csv`);
  const rows = rowsOf(whole.text);
  expect(rows).toHaveLength(30_001);
  expect(rows[30_000].slice(0, 5)).toEqual(['not_read', '', '1200', 'Ada', '30000']);
  expect(rows.every((row) => row.length === 21)).toBe(true);
});
