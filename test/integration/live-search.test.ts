import type { ChildProcess } from 'node:child_process';
import { createCredential, retireCredential } from '../../src/credentials/credentials.service';
import { creditLedgerRepository } from '../../src/db/credit-ledger.repository';
import { waitFor } from '../../tools/dev/processes';
import { PDL_GOOD_KEY, PDL_PEOPLE, startPdlFake, type PdlFake } from '../fakes/pdl-fake';
import { startChildWorker } from '../support/child-worker';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { createProject, launch, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * Live searches (DESIGN.md §9) through the real API and worker against the People Data Labs fake:
 * pages of its person search, enrichment under the shared limit, people stored for database
 * passes, USD cost events once per billed call, the circuit breaker and the refund on failure.
 */
let pdl: PdlFake;
let stack: TestStack;
const env = (): NodeJS.ProcessEnv => ({
  PEOPLEDATALABS_BASE_URL: pdl.url,
  PEOPLEDATALABS_API_KEY: '',
  PROVIDER_TIMEOUT_MS: '5000',
  PROVIDER_CIRCUIT_FAILURES: '2',
  PROVIDER_CIRCUIT_OPEN_MS: '600000',
});
const pool = () => `peopledatalabs ${pdl.url}`;

beforeAll(async () => {
  pdl = await startPdlFake();
  stack = await startTestStack({ env: env() });
});
afterAll(async () => {
  await stack?.stop();
  await pdl?.close();
});
beforeEach(async () => {
  pdl.reset();
  await stack.db('provider_circuits').where({ pool: pool() }).delete();
});

/** Matches five people of the fake (all but its web developers): two titles and a skill, no place. */
const liveCriteria = { titles: ['Backend Engineer', 'Data Scientist'], skills: ['TypeScript'], shortlist_threshold: 20, target: 25 };

async function liveWorkspace(credits = 5): Promise<KeyFixture> {
  const f = await workspaceWithKey(stack.db, { credits });
  await createCredential(stack.db, stack.config, f.workspace.id, { provider: 'peopledatalabs', apiKey: PDL_GOOD_KEY, label: 'default' });
  return f;
}

const liveMatches = PDL_PEOPLE.filter((p) => !p.job_title.includes('web developer'));

const costEvents = (searchId: string) =>
  stack.db('cost_events').whereLike('unique_key', `search:${searchId}:%`).orderBy('unique_key').select('action', 'usd', 'provider', 'unique_key');
const enrichCalls = (pdlId: string) => pdl.requests.filter((r) => r.path === '/v5/person/enrich' && r.query.get('pdl_id') === pdlId).length;

describe('a live search', () => {
  it('is the default with a People Data Labs credential: pages the search, reads profiles, stores them and bills each call once', async () => {
    const f = await liveWorkspace();
    const projectId = await createProject(stack, f.headers);
    const res = await launch(stack, f.headers, projectId, { criteria: liveCriteria });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ source: 'peopledatalabs', criteria: { mode: 'live' } });
    const done = await waitForSearch(stack, f.headers, res.body.data.id);
    expect(done).toMatchObject({ status: 'complete', stop_reason: 'pool_exhausted', profiles_read: 5, delivered: 5, pages_fetched: 1 });

    const sent = pdl.requests.find((r) => r.path === '/v5/person/search')!;
    expect(sent.headers['x-api-key']).toBe(PDL_GOOD_KEY);
    expect(sent.body).toMatchObject({ size: 25, from: 0 });
    expect(pdl.calls('/v5/person/search')).toBe(1);
    for (const p of liveMatches) expect(enrichCalls(p.id)).toBe(1);

    // The people endpoint shows the provider's profiles; they are stored in the people database.
    const people = (await stack.request('GET', `/v1/searches/${done.id}/people`, { headers: f.headers })).body.data.people;
    expect(people).toHaveLength(5);
    expect(people.map((p: any) => p.profile.id).sort()).toEqual(liveMatches.map((p) => `pdl:${p.id}`).sort());
    expect(people.find((p: any) => p.profile.id === 'pdl:pdl-ada-0001')).toMatchObject({ name: 'Ada Quinn', profile: { title: 'Senior Backend Engineer' } });
    const stored = await stack
      .db('people')
      .whereIn(
        'id',
        liveMatches.map((p) => `pdl:${p.id}`),
      )
      .select('id', 'company', 'family', 'metro', 'country');
    expect(stored).toHaveLength(5);
    // Stored in our terms, so database passes score them like everyone else: the family from the
    // title (or PDL's role), the metro from PDL's metro (US) or city and country.
    expect(stored.find((p) => p.id === 'pdl:pdl-ada-0001')).toMatchObject({
      family: 'software_engineering',
      metro: 'san-francisco-bay-area',
      country: 'US',
    });
    expect(stored.find((p) => p.id === 'pdl:pdl-bo-0002')).toMatchObject({ family: 'software_engineering', metro: 'stockholm', country: 'SE' });
    const records = (await stack.request('GET', `/v1/searches/${done.id}/records`, { headers: f.headers })).body.data;
    expect(JSON.stringify(records)).toContain('Acme Robotics');

    // One USD cost event per billed call: the page, and each profile read.
    const costs = await costEvents(done.id);
    const pages = costs.filter((c) => c.action === 'search_live_page');
    expect(pages.map((c) => [Number(c.usd), c.provider, c.unique_key])).toEqual([[0.02, 'peopledatalabs', `search:${done.id}:pass:1:page:0`]]);
    const reads = costs.filter((c) => c.action === 'search_live_read');
    expect(reads).toHaveLength(5);
    expect(reads.every((c) => Number(c.usd) === 0.05 && c.provider === 'peopledatalabs')).toBe(true);

    // A database pass re-scores them from the stored profiles: a richer profile scores higher.
    const before = await stack.db('search_people').where({ search_id: done.id, person_id: 'pdl:pdl-di-0004' }).first();
    const profile = (await stack.db('people_profiles').where({ id: 'pdl:pdl-di-0004' }).first()).profile;
    await stack
      .db('people_profiles')
      .where({ id: 'pdl:pdl-di-0004' })
      .update({
        profile: JSON.stringify({ ...profile, title: 'Backend Engineer', skills: [...profile.skills, 'TypeScript'], updated_at: new Date().toISOString() }),
      });
    const pass = await stack.request('POST', `/v1/searches/${done.id}/database-pass`, { headers: f.headers });
    expect(pass.status).toBe(202);
    await waitFor(
      'the database pass',
      async () => (await stack.request('GET', `/v1/searches/${done.id}`, { headers: f.headers })).body.data.last_pass?.status === 'complete',
      60_000,
      150,
    );
    const after = await stack.db('search_people').where({ search_id: done.id, person_id: 'pdl:pdl-di-0004' }).first();
    expect(after.score).toBeGreaterThan(before.score);
    expect(pdl.calls('/v5/person/enrich')).toBe(5); // the database pass calls nobody
  });

  it('without a source: database_only by default, 424 provider_unavailable when live is asked; bad bodies list every problem', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 5 });
    const projectId = await createProject(stack, f.headers);
    const byDefault = await launch(stack, f.headers, projectId, { criteria: liveCriteria });
    expect(byDefault.status).toBe(201);
    expect(byDefault.body.data).toMatchObject({ source: 'database', criteria: { mode: 'database_only' } });

    const live = await launch(stack, f.headers, projectId, { criteria: { ...liveCriteria, mode: 'live' } });
    expect([live.status, live.body.error.code]).toEqual([424, 'provider_unavailable']);
    expect(await creditLedgerRepository(stack.db).balance(f.workspace.id, 'workspace')).toBe(4); // the refusal costs nothing

    const bad = await launch(stack, f.headers, projectId, { criteria: { ...liveCriteria, mode: 'sometimes', target: 0 } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_criteria']);
    expect(bad.body.error.details.problems.map((p: any) => p.field).sort()).toEqual(['criteria.mode', 'criteria.target']);
    expect(JSON.stringify(bad.body.error.details.problems)).toContain('database_only, live');

    const reference = await stack.request('GET', '/v1/reference/criteria', { headers: f.headers });
    expect(reference.body.data.fields.mode).toMatchObject({ type: 'string', allowed: ['database_only', 'live'] });
    expect(pdl.requests).toHaveLength(0);
  });

  it('whose provider dies mid-pass fails with its credit back exactly once; the open circuit refuses live launches until it half-opens', async () => {
    const f = await liveWorkspace(3);
    const projectId = await createProject(stack, f.headers);
    // The search and two profile reads go through, then every call fails with a 500.
    pdl.failAfter = 3;
    const res = await launch(stack, f.headers, projectId, { criteria: { ...liveCriteria, mode: 'live' } });
    expect(res.status).toBe(201);
    const failed = await waitForSearch(stack, f.headers, res.body.data.id);
    expect(failed).toMatchObject({ status: 'failed', outcome: null, stop_reason: 'error' });
    expect(failed.failure_reason).toContain('unavailable');

    const ledger = await stack
      .db('credit_ledger')
      .where({ workspace_id: f.workspace.id })
      .whereLike('unique_key', `search:${failed.id}:%`)
      .select('delta', 'unique_key');
    expect(ledger.map((l) => [l.delta, l.unique_key]).sort()).toEqual([
      [-1, `search:${failed.id}:pass:1:reserve`],
      [1, `search:${failed.id}:pass:1:refund`],
    ]);
    expect(await creditLedgerRepository(stack.db).balance(f.workspace.id, 'workspace')).toBe(3);
    // What the provider did answer stays billed in USD, once.
    const costs = await costEvents(failed.id);
    expect(costs.filter((c) => c.action === 'search_live_page')).toHaveLength(1);
    expect(costs.filter((c) => c.action === 'search_live_read')).toHaveLength(2);
    expect(costs.filter((c) => c.action === 'search_refund')).toHaveLength(1);

    // The circuit is open: live launches are refused (and cost nothing), database-only ones go on.
    const refused = await launch(stack, f.headers, projectId, { criteria: { ...liveCriteria, mode: 'live' } });
    expect([refused.status, refused.body.error.code]).toEqual([424, 'search_unavailable']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const byDefault = await launch(stack, f.headers, projectId, { criteria: liveCriteria });
    expect([byDefault.status, byDefault.body.error.code]).toEqual([424, 'search_unavailable']);
    const databaseOnly = await launch(stack, f.headers, projectId, { criteria: { ...liveCriteria, mode: 'database_only' } });
    expect(databaseOnly.status).toBe(201);
    await waitForSearch(stack, f.headers, databaseOnly.body.data.id);

    // The open period ends (half-open): the next live search is the trial; its success closes the circuit.
    pdl.reset();
    await stack
      .db('provider_circuits')
      .where({ pool: pool() })
      .update({ open_until: stack.db.raw("now() - interval '1 second'") });
    const trial = await launch(stack, f.headers, projectId, { criteria: { ...liveCriteria, mode: 'live' } });
    expect(trial.status).toBe(201);
    expect(await waitForSearch(stack, f.headers, trial.body.data.id)).toMatchObject({ status: 'complete', delivered: 5 });
    expect(await stack.db('provider_circuits').where({ pool: pool() }).first()).toMatchObject({ failures: 0, open_until: null });
  }, 120_000);

  it('stops reading profiles once the shortlist is full: nobody past the target is read or billed', async () => {
    const f = await liveWorkspace();
    const projectId = await createProject(stack, f.headers);
    // Everyone read qualifies (threshold 0), and two fill the target: two reads of the page's five.
    const res = await launch(stack, f.headers, projectId, { criteria: { ...liveCriteria, shortlist_threshold: 0, target: 2 } });
    const done = await waitForSearch(stack, f.headers, res.body.data.id);
    expect(done).toMatchObject({ status: 'complete', stop_reason: 'target_reached', profiles_read: 2, delivered: 2, shortlisted: 2 });
    expect(pdl.calls('/v5/person/enrich')).toBe(2);
    expect((await costEvents(done.id)).filter((c) => c.action === 'search_live_read')).toHaveLength(2);
    const recorded = await stack.db('search_people').where({ search_id: done.id }).orderBy('seq').select('status');
    expect(recorded.map((r) => r.status)).toEqual(['scored', 'scored', 'not_read', 'not_read', 'not_read']); // the others are found, not read
  });

  it('asks PDL by every criterion, so the best match in the metro is read first and the pass stops at the target', async () => {
    const f = await liveWorkspace();
    const projectId = await createProject(stack, f.headers);
    // Three web developers: a junior one in Seattle (first in PDL's storage order), a senior one in
    // Portland, and the senior one in Seattle with the skills and years, who is the one to read.
    const criteria = {
      family: 'software_engineering',
      titles: ['Web Developer'],
      metro: 'Seattle',
      seniority: ['senior'],
      skills: ['JavaScript', 'Vue.js'],
      years_experience: { min: 5 },
      shortlist_threshold: 0,
      target: 1,
    };
    const res = await launch(stack, f.headers, projectId, { criteria });
    const done = await waitForSearch(stack, f.headers, res.body.data.id);
    expect(done).toMatchObject({ status: 'complete', stop_reason: 'target_reached', profiles_read: 1, shortlisted: 1, pages_fetched: 1 });

    const sent = pdl.requests.find((r) => r.path === '/v5/person/search')!.body.query.bool;
    // The metro is its city with the metro's radius: PDL's metro, or a town within twice the radius (not Portland).
    expect(sent.filter).toHaveLength(1);
    const [metro, towns] = sent.filter[0].bool.should;
    expect(metro).toEqual({ term: { location_metro: 'seattle, washington' } });
    expect(towns.bool.filter).toEqual([
      { terms: { location_locality: expect.arrayContaining(['seattle', 'bellevue', 'tacoma', 'everett']) } },
      { term: { location_country: 'united states' } },
    ]);
    expect(towns.bool.filter[0].terms.location_locality).not.toContain('portland');
    expect(sent.must[0].bool.should).toEqual(
      expect.arrayContaining([
        { terms: { job_title_sub_role: ['software', 'web'], boost: 5 } },
        { match_phrase: { 'job_title.text': { query: 'Web Developer', boost: 10 } } },
        { term: { skills: { value: 'vue.js', boost: 10 } } },
      ]),
    );
    expect(sent.should.slice(1)).toEqual([
      { terms: { job_title_levels: ['senior'], boost: 8 } },
      { range: { inferred_years_experience: { gte: 5, boost: 15 } } },
    ]);
    expect(sent.should[0].bool.should[0]).toEqual({ term: { location_metro: { value: 'seattle, washington', boost: 10 } } }); // within the radius ranks first

    // PDL's page held the Seattle pair best first; only the best was read (and billed).
    const found = await stack.db('search_people').where({ search_id: done.id }).orderBy('seq').select('person_id', 'status');
    expect(found.map((p) => [p.person_id, p.status])).toEqual([
      ['pdl:pdl-hal-0008', 'scored'],
      ['pdl:pdl-fay-0006', 'not_read'],
    ]);
    expect([enrichCalls('pdl-hal-0008'), enrichCalls('pdl-fay-0006'), pdl.calls('/v5/person/enrich')]).toEqual([1, 0, 1]);
    expect((await costEvents(done.id)).filter((c) => c.action === 'search_live_read')).toHaveLength(1);
  });

  it('asks PDL by places and occupations: a role outside every family, in and around Leeds, read nearest first with the distance in the breakdown', async () => {
    const f = await liveWorkspace();
    const projectId = await createProject(stack, f.headers);
    // Pharmacists (29-1051.00) are in no role family: the occupation is what PDL is asked for.
    const res = await launch(stack, f.headers, projectId, { criteria: { places: ['Leeds'], occupations: ['29-1051.00'] } });
    expect(res.status).toBe(201);
    expect(res.body.data.criteria).toMatchObject({
      mode: 'live',
      occupations: ['29-1051.00'],
      places: [{ id: 'geonames:2644688', kind: 'city', radius_km: 40 }],
    });
    expect(res.body.data.criteria.family).toBeUndefined();
    const done = await waitForSearch(stack, f.headers, res.body.data.id);
    // Leeds, Morley (7 km), Leeds again (a free-plan record) and Manchester (58 km); not the pharmacist
    // in Boston, nor the technician and the nurse in Leeds.
    expect(done).toMatchObject({ status: 'complete', stop_reason: 'pool_exhausted', profiles_read: 4, delivered: 4, pages_fetched: 1 });

    const sent = pdl.requests.find((r) => r.path === '/v5/person/search')!.body.query.bool;
    expect(sent.filter[0].bool.filter).toEqual([
      { terms: { location_locality: expect.arrayContaining(['leeds', 'morley', 'bradford', 'manchester']) } },
      { term: { location_country: 'united kingdom' } },
    ]);
    expect(sent.must[0].bool.should).toEqual([
      { terms: { job_onet_code: ['29-1051.00'], boost: 2.5 } },
      { prefix: { job_onet_code: { value: '29-1051', boost: 2.5 } } },
      { prefix: { job_onet_code: { value: '29-105', boost: 5 } } },
    ]);
    const found = await stack.db('search_people').where({ search_id: done.id }).orderBy('seq').select('person_id');
    expect(found.map((p) => p.person_id)).toEqual(['pdl:pdl-ivy-0101', 'pdl:pdl-jon-0102', 'pdl:pdl-kit-0103', 'pdl:pdl-lou-0104']);

    // Scored by the true distance from location_geo (or, without one, the centre of the locality PDL names).
    const people = (await stack.request('GET', `/v1/searches/${done.id}/people`, { headers: f.headers })).body.data.people;
    const location = (p: any) => p.score_breakdown.find((b: any) => b.criterion === 'location');
    expect(people.map((p: any) => [p.profile.id, location(p).match, location(p).reason])).toEqual([
      ['pdl:pdl-ivy-0101', 1, 'in Leeds'],
      ['pdl:pdl-jon-0102', 1, '7 km from Leeds'],
      ['pdl:pdl-kit-0103', 1, 'in Leeds'],
      ['pdl:pdl-lou-0104', 0.56, '58 km from Leeds, beyond 40 km'],
    ]);
    expect(people.map((p: any) => p.score)).toEqual([100, 100, 100, expect.any(Number)]);
    expect(people[3].score).toBeLessThan(100);
    expect(people[1].profile).toMatchObject({
      occupation: { onet_code: '29-1051.00', title: 'Pharmacists' },
      location: { locality: 'Morley', region: 'England', country: 'GB', lat: 53.74, lon: -1.6 },
    });
    const stored = await stack.db('people').where({ id: 'pdl:pdl-jon-0102' }).first();
    expect(stored).toMatchObject({ onet_code: '29-1051.00', country: 'GB', lat: 53.74, lon: -1.6, family: '' });
  });

  it('an expansion of a live search is refused with 424 while it has no source or the circuit is open, before any credit is reserved', async () => {
    const f = await liveWorkspace(5);
    const projectId = await createProject(stack, f.headers);
    const launched = await launch(stack, f.headers, projectId, { criteria: liveCriteria });
    const done = await waitForSearch(stack, f.headers, launched.body.data.id);
    expect(done).toMatchObject({ status: 'complete', criteria: { mode: 'live' } });
    const balance = () => creditLedgerRepository(stack.db).balance(f.workspace.id, 'workspace');
    const passes = () => stack.db('search_passes').where({ search_id: done.id }).count({ n: '*' }).first();
    const expand = () => stack.request('POST', `/v1/projects/${projectId}/expand`, { headers: f.headers });
    expect(await balance()).toBe(4);

    await stack.db('provider_circuits').insert({ pool: pool(), failures: 2, open_until: stack.db.raw("now() + interval '1 hour'") });
    const open = await expand();
    expect([open.status, open.body.error.code]).toEqual([424, 'search_unavailable']);
    expect(Number(open.headers.get('retry-after'))).toBeGreaterThan(0);
    await stack.db('provider_circuits').where({ pool: pool() }).delete();

    const credential = await stack.db('credentials').where({ workspace_id: f.workspace.id, provider: 'peopledatalabs' }).first();
    await retireCredential(stack.db, f.workspace.id, credential.id);
    const sourceless = await expand();
    expect([sourceless.status, sourceless.body.error.code]).toEqual([424, 'provider_unavailable']);
    expect([await balance(), await passes()]).toEqual([4, { n: 1 }]); // nothing reserved, no pass booked

    await createCredential(stack.db, stack.config, f.workspace.id, { provider: 'peopledatalabs', apiKey: PDL_GOOD_KEY, label: 'again' });
    const expanded = await expand();
    expect(expanded.status).toBe(202);
    expect(await balance()).toBe(3);
    expect(await waitForSearch(stack, f.headers, done.id)).toMatchObject({ status: 'complete', last_pass: { pass: 2, status: 'complete' } });
  });

  it('with a key People Data Labs refuses: the pass fails at once (no retries) with its credit back', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 2 });
    await createCredential(stack.db, stack.config, f.workspace.id, { provider: 'peopledatalabs', apiKey: 'revoked-key-0001', label: 'default' });
    const projectId = await createProject(stack, f.headers);
    const res = await launch(stack, f.headers, projectId, { criteria: liveCriteria });
    expect(res.body.data.criteria.mode).toBe('live');
    const failed = await waitForSearch(stack, f.headers, res.body.data.id);
    expect(failed).toMatchObject({ status: 'failed', stop_reason: 'error' });
    expect(failed.failure_reason).toContain('rejected the API key');
    expect(pdl.calls('/v5/person/search')).toBe(1); // a refusal is final: not retried
    expect(await creditLedgerRepository(stack.db).balance(f.workspace.id, 'workspace')).toBe(2);
    expect((await costEvents(failed.id)).map((c) => c.action).sort()).toEqual(['launch_search', 'search_refund']); // no USD: nothing answered
    // A refused key says nothing about the provider's health.
    expect(await stack.db('provider_circuits').where({ pool: pool() }).first()).toBeUndefined();
  });

  it('a worker killed mid-enrichment: a new worker completes the pass without reading or billing anyone twice', async () => {
    const api = await startTestStack({ worker: false, env: env() });
    // One enrichment at a time, each slow, so the kill lands between reads.
    const workerEnv = { ...env(), PEOPLEDATALABS_CONCURRENCY: '1' };
    let worker: ChildProcess | null = null;
    try {
      worker = await startChildWorker(api, workerEnv);
      const f = await liveWorkspace();
      const projectId = await createProject(api, f.headers);
      pdl.mode = 'slow';
      pdl.delayMs = 1200;
      const res = await launch(api, f.headers, projectId, { criteria: { ...liveCriteria, mode: 'live' } });
      const searchId = res.body.data.id;
      const readBilled = async () => (await costEvents(searchId)).filter((c) => c.action === 'search_live_read').map((c) => c.unique_key as string);
      await waitFor('two profiles read', async () => (await readBilled()).length >= 2, 60_000, 50);
      worker.kill('SIGKILL');
      const readBeforeKill = (await readBilled()).map((k) => k.split(':enrich:pdl:')[1]);
      expect(readBeforeKill.length).toBeGreaterThanOrEqual(2);
      expect(readBeforeKill.length).toBeLessThan(5);
      expect((await stack.db('searches').where({ id: searchId }).first()).status).toBe('running');

      pdl.delayMs = 100;
      worker = await startChildWorker(api, workerEnv);
      const done = await waitForSearch(api, f.headers, searchId, ['complete', 'failed'], 120_000);
      expect(done).toMatchObject({ status: 'complete', profiles_read: 5, delivered: 5 });
      // The page and the profiles stored before the kill were not asked for again; each call was billed once.
      expect(pdl.calls('/v5/person/search')).toBe(1);
      for (const id of readBeforeKill) expect(enrichCalls(id)).toBe(1);
      const costs = await costEvents(searchId);
      expect(costs.filter((c) => c.action === 'search_live_read')).toHaveLength(5);
      expect(costs.filter((c) => c.action === 'search_live_page')).toHaveLength(1);
      expect(new Set(costs.map((c) => c.unique_key)).size).toBe(costs.length);
      expect(await creditLedgerRepository(stack.db).balance(f.workspace.id, 'workspace')).toBe(4);
    } finally {
      worker?.kill('SIGTERM');
      await api.stop();
    }
  }, 180_000);
});
