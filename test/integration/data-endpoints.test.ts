import { randomUUID } from 'node:crypto';
import { personRow } from '../../src/corpus/loader';
import { createCredential } from '../../src/credentials/credentials.service';
import { PEOPLE_TOTAL_CAP, peopleDataRepository, peopleFilterKey } from '../../src/db/people-data.repository';
import { peopleRepository } from '../../src/db/people.repository';
import { startBraveFake, BRAVE_GOOD_KEY, type BraveFake } from '../fakes/brave-fake';
import { startPdlFake, PDL_GOOD_KEY, type PdlFake } from '../fakes/pdl-fake';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';

/** The five data endpoints through the real API: built-in sources, vendors (fakes), idempotency, failures. */
let pdl: PdlFake;
let brave: BraveFake;
let stack: TestStack;
beforeAll(async () => {
  [pdl, brave] = await Promise.all([startPdlFake(), startBraveFake()]);
  stack = await startTestStack({
    worker: false,
    env: {
      PEOPLEDATALABS_BASE_URL: pdl.url,
      BRAVE_BASE_URL: brave.url,
      PEOPLEDATALABS_API_KEY: '',
      BRAVE_API_KEY: '',
      PROVIDER_TIMEOUT_MS: '1500',
      BRAVE_QPS: '50',
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([pdl?.close(), brave?.close()]);
});
beforeEach(() => {
  pdl.reset();
  brave.reset();
});

/** A workspace whose data calls go to the vendor fakes (its own credentials). */
async function vendorWorkspace(): Promise<KeyFixture> {
  const fx = await workspaceWithKey(stack.db);
  await createCredential(stack.db, stack.config, fx.workspace.id, { provider: 'peopledatalabs', apiKey: PDL_GOOD_KEY, label: 'default' });
  await createCredential(stack.db, stack.config, fx.workspace.id, { provider: 'brave', apiKey: BRAVE_GOOD_KEY, label: 'default' });
  return fx;
}

const call = (fx: KeyFixture, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const requestId = `data-${randomUUID()}`;
  return stack
    .request(method, `/v1${path}`, { headers: { ...fx.headers, 'X-Request-Id': requestId, ...headers }, body })
    .then((res) => Object.assign(res, { requestId }));
};
const costsOf = (requestId: string) => stack.db('cost_events').where({ request_id: requestId }).select('action', 'usd', 'provider', 'units', 'credits');
const costsInWorkspace = (workspaceId: string) => stack.db('cost_events').where({ workspace_id: workspaceId }).select('action', 'request_id');

describe('built-in sources (no credential, no server key)', () => {
  it('answers all five endpoints from our database and bills each at the plan price', async () => {
    const fx = await workspaceWithKey(stack.db);
    const people = await call(fx, 'POST', '/data/people/search', { search: 'engineer', limit: 3 });
    expect(people.status).toBe(200);
    expect(people.body.data.source).toBe('builtin');
    expect(people.body.data.results).toHaveLength(3);
    expect(people.body.meta.total).toBe(people.body.data.total);
    expect(people.body.data.total).toBeGreaterThan(3);
    expect(await costsOf(people.requestId)).toEqual([{ action: 'search_people', usd: '0.0200', provider: 'builtin', units: 1, credits: 0 }]);

    const id = people.body.data.results[0].person_id;
    const profile = await call(fx, 'GET', `/data/people/${id}`);
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({ id, source: 'builtin', first_name: people.body.data.results[0].first_name });
    expect(profile.body.data.experience.length).toBeGreaterThan(0);
    expect(await costsOf(profile.requestId)).toEqual([expect.objectContaining({ action: 'get_person', usd: '0.0500' })]);

    const companies = await call(fx, 'POST', '/data/companies/search', { search: 'software', limit: 2 });
    expect(companies.status).toBe(200);
    expect(companies.body.data.results).toHaveLength(2);
    const company = await call(fx, 'GET', `/data/companies/${companies.body.data.results[0].company_id}`);
    expect(company.status).toBe(200);
    expect(company.body.data).toMatchObject({ name: companies.body.data.results[0].name, source: 'builtin' });
    expect(await costsOf(companies.requestId)).toEqual([expect.objectContaining({ action: 'search_companies', usd: '0.0100' })]);
    expect(await costsOf(company.requestId)).toEqual([expect.objectContaining({ action: 'get_company', usd: '0.0200' })]);

    // The built-in web has every company's home page among its first pages.
    const known = (await call(fx, 'GET', '/data/companies/c00005')).body.data;
    const web = await call(fx, 'POST', '/data/search/web', { query: known.name, count: 5 });
    expect(web.status).toBe(200);
    expect(web.body.data.source).toBe('builtin');
    expect(web.body.data.results.map((r: { url: string }) => r.url)).toContain(`${known.website}/`);
    for (const r of web.body.data.results)
      expect(r).toEqual({
        title: expect.any(String),
        url: expect.stringMatching(/^https:\/\//),
        snippet: expect.any(String),
        published_at: r.published_at === null ? null : expect.stringMatching(/^\d{4}-/),
      });
    expect(await costsOf(web.requestId)).toEqual([expect.objectContaining({ action: 'search_web', usd: '0.0050' })]);

    // The location narrows to the metro (its towns around San Francisco); an unknown id is 404 and not billed.
    const sf = await call(fx, 'POST', '/data/people/search', { search: 'engineer', location: 'San Francisco', limit: 20 });
    expect(sf.body.data.results.length).toBeGreaterThan(0);
    expect(sf.body.data.results.every((p: { location: string }) => p.location.endsWith('California, United States'))).toBe(true);
    const missing = await call(fx, 'GET', '/data/people/p9999999');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('profile_not_found');
    expect(await costsOf(missing.requestId)).toEqual([]);
    expect((await call(fx, 'GET', '/data/companies/c99999')).body.error.code).toBe('company_not_found');
    expect(pdl.calls() + brave.calls()).toBe(0);
  });
});

describe('built-in web search order', () => {
  it('company sites first in storage order, then dated pages newest first: what sorting every match gives', async () => {
    const fx = await workspaceWithKey(stack.db);
    // The order spelled out over every match (the search itself stops early instead).
    const everyMatchSorted = async (query: string, count: number): Promise<string[]> => {
      const { rows } = await stack.db.raw(
        `select url from ((select url from web_pages where search_vector @@ websearch_to_tsquery('english', :query) and published_at is null order by ctid limit :count)
          union all (select url from web_pages where search_vector @@ websearch_to_tsquery('english', :query) and published_at is not null
                     order by published_at desc, id limit :count)) page limit :count`,
        { query, count },
      );
      return rows.map((r: { url: string }) => r.url);
    };
    const counts = async (query: string) =>
      (
        await stack.db.raw(
          `select count(*) filter (where published_at is null)::int as undated, count(*) filter (where published_at is not null)::int as dated
             from web_pages where search_vector @@ websearch_to_tsquery('english', ?)`,
          [query],
        )
      ).rows[0] as { undated: number; dated: number };
    // A company's name: its few site pages, then its news; a news word common among dated pages
    // only (walked newest first); a company word with more site pages than one page holds.
    const company = (await call(fx, 'GET', '/data/companies/c00005')).body.data.name as string;
    const cases = [company, 'acquires', 'accounting'];
    const [site, news, sites] = await Promise.all(cases.map(counts));
    expect(site.undated >= 1 && site.undated < 20 && site.dated >= 1).toBe(true);
    expect(news.undated === 0 && news.dated >= 100).toBe(true);
    expect(sites.undated > 20 && sites.dated >= 1).toBe(true);
    for (const query of cases) {
      const web = await call(fx, 'POST', '/data/search/web', { query, count: 20 });
      expect(web.status).toBe(200);
      expect(web.body.data.results.map((r: { url: string }) => r.url)).toEqual(await everyMatchSorted(query, 20));
    }
  });
});

describe('prices', () => {
  it("bills the plan's own price, and the default for a workspace without a plan", async () => {
    const plan = `priced-${randomUUID().slice(0, 8)}`;
    const starter = await stack.db('plans').where({ name: 'starter' }).first();
    await stack.db('plans').insert({ ...starter, name: plan, data_prices: JSON.stringify({ ...starter.data_prices, web_search: 0.0123 }) });
    const custom = await workspaceWithKey(stack.db, { plan });
    const web = await call(custom, 'POST', '/data/search/web', { query: 'engineering', count: 1 });
    expect(web.status).toBe(200);
    expect(await costsOf(web.requestId)).toEqual([expect.objectContaining({ action: 'search_web', usd: '0.0123' })]);
    const planless = await workspaceWithKey(stack.db, { plan: null });
    const people = await call(planless, 'POST', '/data/people/search', { search: 'engineer', limit: 1 });
    expect(await costsOf(people.requestId)).toEqual([expect.objectContaining({ action: 'search_people', usd: '0.0200' })]);
  });
});

describe('people search totals, kept per people revision', () => {
  it('a total counted once serves the next pages; a write to people makes the next call count again', async () => {
    const fx = await workspaceWithKey(stack.db);
    const body = { search: 'engineer', location: 'London', limit: 2 };
    const first = await call(fx, 'POST', '/data/people/search', body);
    const total: number = first.body.data.total;
    expect(total).toBeGreaterThan(2);
    const revision = async () => Number((await stack.db('people_revision').first('revision')).revision);
    const rev = await revision();
    // Kept under the current revision (other tests' filters may be kept beside it).
    expect(Number((await stack.db('people_search_totals').where({ revision: rev, total }).count({ n: '*' }))[0].n)).toBeGreaterThan(0);

    // The next page reads the kept total (marked here to tell it from a fresh count).
    await stack
      .db('people_search_totals')
      .where({ revision: rev, total })
      .update({ total: total + 1000 });
    const second = await call(fx, 'POST', '/data/people/search', { ...body, offset: 2 });
    expect(second.body.data.total).toBe(total + 1000);
    expect(second.body.meta.total).toBe(total + 1000);

    // A person added to the people database (as a live search stores one) bumps the revision: counted again.
    const [sample] = second.body.data.results;
    const profile = (await peopleRepository(stack.db).profiles([sample.person_id])).get(sample.person_id)!;
    const copy = { ...profile, id: `test:${randomUUID()}` };
    await stack.db.transaction((trx) => peopleRepository(trx).upsert([{ row: personRow(copy), profile: copy }]));
    expect(await revision()).toBeGreaterThan(rev);
    const third = await call(fx, 'POST', '/data/people/search', body);
    expect(third.body.data.total).toBe(total + 1);
    // Counting under the new revision dropped the totals of older ones.
    expect(
      Number(
        (
          await stack
            .db('people_search_totals')
            .where('revision', '<', await revision())
            .count({ n: '*' })
        )[0].n,
      ),
    ).toBe(0);
    expect(third.body.data.results.map((p: { person_id: string }) => p.person_id)).toHaveLength(2);

    await stack.db.transaction(async (trx) => {
      await trx('people_profiles').where({ id: copy.id }).delete();
      await trx('people').where({ id: copy.id }).delete();
    });
    expect((await call(fx, 'POST', '/data/people/search', body)).body.data.total).toBe(total);
  });
});

describe('search totals whatever the offset', () => {
  /** The true count, read page by page until a short page (independent of how `total` is worked out). */
  async function countByPaging(fx: KeyFixture, path: string, body: object): Promise<number> {
    let count = 0;
    for (let offset = 0; ; offset += 100) {
      const page = await call(fx, 'POST', path, { ...body, limit: 100, offset });
      expect(page.status).toBe(200);
      count += page.body.data.results.length;
      if (page.body.data.results.length < 100) return count;
    }
  }

  it('people: the exact count before, at and past the end, counted afresh or kept; a search matching nobody is 0 at any offset', async () => {
    const fx = await workspaceWithKey(stack.db);
    // A filter no other test asks for, so its kept total is this test's own.
    const body = { search: 'engineer', location: 'United States' };
    const count = await countByPaging(fx, '/data/people/search', body);
    expect(count).toBeGreaterThan(2);
    expect(count).toBeLessThan(9_000);
    // Bumps the people revision: the first call below counts afresh, the rest read the kept total.
    await stack.db.raw('update people_revision set revision = revision + 1');
    for (const offset of [count + 500, count + 1, count, count - 1, 1, 0]) {
      const res = await call(fx, 'POST', '/data/people/search', { ...body, limit: 1, offset });
      expect({
        offset,
        status: res.status,
        total: res.body.data.total,
        exact: res.body.data.total_exact,
        meta: res.body.meta.total,
        n: res.body.data.results.length,
      }).toEqual({
        offset,
        status: 200,
        total: count,
        exact: true,
        meta: count,
        n: offset < count ? 1 : 0,
      });
    }
    // The probe's cases: a search that matches nobody, past its (empty) end.
    for (const offset of [0, 500, 9_999]) {
      const none = await call(fx, 'POST', '/data/people/search', { search: 'zqxjv', offset });
      expect({ offset, total: none.body.data.total, meta: none.body.meta.total, results: none.body.data.results }).toEqual({
        offset,
        total: 0,
        meta: 0,
        results: [],
      });
    }
  });

  it('people: a count that reached the cap is a lower bound, said by total_exact: false', async () => {
    const filter = { text: 'engineer', titlePhrase: null, skills: [], metros: [], countries: [], locationLike: null, company: null };
    const people = peopleDataRepository(stack.db);
    const exact = await people.search(filter, 1, 0);
    expect(exact.totalExact).toBe(true);
    expect(exact.total).toBeLessThan(PEOPLE_TOTAL_CAP);
    // As if the count had stopped at the cap (the test corpus is smaller than it).
    const { revision } = await stack.db('people_revision').first('revision');
    await stack
      .db('people_search_totals')
      .insert({ filter_key: peopleFilterKey(filter), revision, total: PEOPLE_TOTAL_CAP })
      .onConflict('filter_key')
      .merge();
    const capped = await people.search(filter, 1, 0);
    expect({ total: capped.total, totalExact: capped.totalExact }).toEqual({ total: PEOPLE_TOTAL_CAP, totalExact: false });
    await stack
      .db('people_search_totals')
      .where({ filter_key: peopleFilterKey(filter) })
      .delete();
  });

  it('companies: the exact count before, at and past the end', async () => {
    const fx = await workspaceWithKey(stack.db);
    const body = { search: 'software' };
    const count = await countByPaging(fx, '/data/companies/search', body);
    expect(count).toBeGreaterThan(2);
    for (const offset of [count + 500, count, count - 1, 0]) {
      const res = await call(fx, 'POST', '/data/companies/search', { ...body, limit: 1, offset });
      expect({ offset, total: res.body.data.total, meta: res.body.meta.total, n: res.body.data.results.length }).toEqual({
        offset,
        total: count,
        meta: count,
        n: offset < count ? 1 : 0,
      });
    }
  });
});

describe('vendors (workspace credentials, fakes)', () => {
  it('answers from People Data Labs and Brave, with their source', async () => {
    const fx = await vendorWorkspace();
    const people = await call(fx, 'POST', '/data/people/search', { search: 'backend', location: 'san francisco', limit: 5 });
    expect(people.status).toBe(200);
    expect(people.body.data).toMatchObject({ source: 'peopledatalabs', total: 1, results: [{ person_id: 'pdl-ada-0001', first_name: 'Ada' }] });
    expect(await costsOf(people.requestId)).toEqual([expect.objectContaining({ action: 'search_people', provider: 'peopledatalabs' })]);
    const profile = await call(fx, 'GET', '/data/people/pdl-ada-0001');
    expect(profile.body.data).toMatchObject({ id: 'pdl-ada-0001', source: 'peopledatalabs', company: 'Acme Robotics' });
    const companies = await call(fx, 'POST', '/data/companies/search', { search: 'analytics', limit: 5 });
    expect(companies.body.data).toMatchObject({ source: 'peopledatalabs', total: 2 });
    const company = await call(fx, 'GET', '/data/companies/pdl-co-acme');
    expect(company.body.data).toMatchObject({ company_id: 'pdl-co-acme', employee_count: 340, source: 'peopledatalabs' });
    const web = await call(fx, 'POST', '/data/search/web', { query: 'acme robotics', count: 2 });
    expect(web.body.data).toEqual({
      source: 'brave',
      results: [
        {
          title: 'Acme Robotics – Engineering blog',
          url: 'https://acmerobotics.example.com/blog',
          snippet: 'How Acme Robotics builds robots with TypeScript.',
          published_at: '2026-09-14T08:00:00.000Z',
        },
        {
          title: 'Acme Robotics raises Series B',
          url: 'https://news.example.org/acme-series-b',
          snippet: 'Acme Robotics raised $40M to grow its robotics team.',
          published_at: '2026-03-02T12:30:00.000Z',
        },
      ],
    });
    expect(brave.requests[0].query.get('count')).toBe('2');
    expect(pdl.calls()).toBe(4);
    expect(await costsInWorkspace(fx.workspace.id)).toHaveLength(5);
  });

  it('a key the vendor refuses is 424 provider_unavailable, not billed', async () => {
    const fx = await workspaceWithKey(stack.db);
    await createCredential(stack.db, stack.config, fx.workspace.id, { provider: 'peopledatalabs', apiKey: 'revoked-pdl-key-1', label: 'default' });
    const res = await call(fx, 'POST', '/data/people/search', { search: 'engineer' });
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 424, code: 'provider_unavailable' });
    expect(await costsInWorkspace(fx.workspace.id)).toEqual([]);
  });
});

describe('idempotency', () => {
  it('a replay answers the first response with Idempotent-Replayed and bills once; another body is 409', async () => {
    const fx = await vendorWorkspace();
    const key = `idem-${randomUUID()}`;
    const first = await call(fx, 'GET', '/data/people/pdl-ada-0001', undefined, { 'Idempotency-Key': key });
    const replay = await call(fx, 'GET', '/data/people/pdl-ada-0001', undefined, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(first.body.data);
    expect(pdl.calls('/v5/person/enrich')).toBe(1);
    expect(await costsInWorkspace(fx.workspace.id)).toEqual([{ action: 'get_person', request_id: first.requestId }]);

    const other = await call(fx, 'GET', '/data/people/pdl-bo-0002', undefined, { 'Idempotency-Key': key });
    expect({ status: other.status, code: other.body.error.code }).toEqual({ status: 409, code: 'idempotency_key_reused' });

    // The body field works too (header absent); a different body under it is 409.
    const bodyKey = `idem-${randomUUID()}`;
    const a = await call(fx, 'POST', '/data/search/web', { query: 'acme', idempotencyKey: bodyKey });
    const b = await call(fx, 'POST', '/data/search/web', { query: 'acme', idempotencyKey: bodyKey });
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.data).toEqual(a.body.data);
    expect(brave.calls()).toBe(1);
    expect((await call(fx, 'POST', '/data/search/web', { query: 'northwind', idempotencyKey: bodyKey })).status).toBe(409);
    // The header wins over the body field.
    const headerKey = `idem-${randomUUID()}`;
    await call(fx, 'POST', '/data/search/web', { query: 'acme', idempotencyKey: `idem-${randomUUID()}` }, { 'Idempotency-Key': headerKey });
    const viaHeader = await call(fx, 'POST', '/data/search/web', { query: 'acme' }, { 'Idempotency-Key': headerKey });
    expect(viaHeader.headers.get('idempotent-replayed')).toBe('true');
  });

  it('simultaneous identical calls make one upstream call and one cost event', async () => {
    const fx = await vendorWorkspace();
    pdl.mode = 'slow';
    pdl.delayMs = 400;
    const key = `idem-${randomUUID()}`;
    const body = { search: 'engineer', limit: 5 };
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(fx, 'POST', '/data/people/search', body, { 'Idempotency-Key': key })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    for (const a of answers) expect(a.body.data).toEqual(answers[0].body.data);
    expect(pdl.calls('/v5/person/search')).toBe(1);
    expect(await costsInWorkspace(fx.workspace.id)).toHaveLength(1);
  });
});

describe('upstream failures', () => {
  it.each([
    ['error', 502, 'provider_error'],
    ['hang', 502, 'provider_error'],
    ['malformed', 502, 'provider_error'],
    ['rate-limited', 429, 'network_busy'],
  ] as const)('%s → %i %s, nothing billed, and the idempotency key can be retried', async (mode, status, code) => {
    const fx = await vendorWorkspace();
    const key = `idem-${randomUUID()}`;
    pdl.mode = mode;
    const failed = await call(fx, 'GET', '/data/companies/pdl-co-acme', undefined, { 'Idempotency-Key': key });
    expect({ status: failed.status, code: failed.body.error.code }).toEqual({ status, code });
    if (mode === 'rate-limited') expect(failed.headers.get('retry-after')).toBe('7');
    expect(await costsInWorkspace(fx.workspace.id)).toEqual([]);
    pdl.mode = 'ok';
    const retried = await call(fx, 'GET', '/data/companies/pdl-co-acme', undefined, { 'Idempotency-Key': key });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await costsInWorkspace(fx.workspace.id)).toHaveLength(1);
  });

  it('Brave failing the same way bills nothing', async () => {
    const fx = await vendorWorkspace();
    brave.mode = 'error';
    const res = await call(fx, 'POST', '/data/search/web', { query: 'acme' });
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 502, code: 'provider_error' });
    expect(await costsInWorkspace(fx.workspace.id)).toEqual([]);
  });
});

describe('validation', () => {
  it('400 invalid_request listing every problem: wrong types, limits out of range, unknown fields', async () => {
    const fx = await workspaceWithKey(stack.db);
    const res = await call(fx, 'POST', '/data/people/search', { search: 42, limit: 500, offset: -1, skills: 'go', colour: 'red', idempotencyKey: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    const fields = res.body.error.details.problems.map((p: { field: string }) => p.field).sort();
    expect(fields).toEqual(['colour', 'idempotencyKey', 'limit', 'offset', 'search', 'skills']);

    const web = await call(fx, 'POST', '/data/search/web', { query: '', count: 21 });
    expect(web.body.error.details.problems.map((p: { field: string }) => p.field).sort()).toEqual(['count', 'query']);
    const companies = await call(fx, 'POST', '/data/companies/search', { limit: 0, industry: ['x'] });
    expect(companies.body.error.details.problems.map((p: { field: string }) => p.field).sort()).toEqual(['industry', 'limit', 'search']);
    const header = await call(fx, 'GET', '/data/companies/c00001', undefined, { 'Idempotency-Key': 'x' });
    expect(header.body.error.details.problems.map((p: { field: string }) => p.field)).toEqual(['Idempotency-Key']);
    expect(await costsInWorkspace(fx.workspace.id)).toEqual([]);
  });
});
