import { parseCriteria, type Criteria } from '../../src/domain/criteria';
import { createDb, type Db } from '../../src/db/knex';
import { credentialRepository } from '../../src/db/credential.repository';
import { createCredential } from '../../src/credentials/credentials.service';
import { builtinProfileData } from '../../src/providers/builtin-profile-data';
import { downstreamLimiter } from '../../src/providers/downstream-limiter';
import { peopleDataLabsProvider } from '../../src/providers/peopledatalabs';
import { ProviderError } from '../../src/providers/provider-errors';
import { createProviders, resolveSource } from '../../src/providers/resolution';
import { PDL_GOOD_KEY, startPdlFake, type PdlFake } from '../fakes/pdl-fake';
import { HUNTER_GOOD_KEY, startHunterFake } from '../fakes/hunter-fake';
import { hunterProvider } from '../../src/providers/hunter';
import { workspaceWithKey } from '../support/fixtures';
import { testConfig } from '../support/stack';

/** The provider layer on its own: the PDL adapter against its fake, the shared limiter, resolution. */
let pdl: PdlFake;
let db: Db;
beforeAll(async () => {
  pdl = await startPdlFake();
  db = createDb(testConfig().databaseUrl, 20);
});
afterAll(async () => {
  await pdl?.close();
  await db?.destroy();
});
beforeEach(() => pdl.reset());

const config = (env: NodeJS.ProcessEnv = {}) =>
  testConfig({ PEOPLEDATALABS_BASE_URL: pdl.url, PEOPLEDATALABS_API_KEY: '', PROVIDER_TIMEOUT_MS: '1000', ...env });
const adapter = (env: NodeJS.ProcessEnv = {}, apiKey = PDL_GOOD_KEY) => {
  const c = config(env);
  return peopleDataLabsProvider({ baseUrl: pdl.url, apiKey, timeoutMs: c.providerLimits.timeoutMs, limiter: downstreamLimiter(db, c) });
};
const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
};

describe('People Data Labs adapter', () => {
  it('searches people with an Elasticsearch query and maps PDL records to our summaries and profiles', async () => {
    const page = await adapter().searchPeople({ search: 'backend', location: 'san francisco', skills: ['TypeScript'], limit: 10, offset: 0 });
    expect(page.total).toBe(1);
    expect(page.results[0]).toMatchObject({
      person_id: 'pdl-ada-0001',
      first_name: 'Ada',
      last_name: 'Quinn',
      title: 'Senior Backend Engineer',
      company: 'Acme Robotics',
      network_url: 'https://linkedin.com/in/ada-quinn',
    });
    const sent = pdl.requests[0];
    expect(sent).toMatchObject({ method: 'POST', path: '/v5/person/search' });
    expect(sent.headers['x-api-key']).toBe(PDL_GOOD_KEY);
    expect(sent.body).toMatchObject({ size: 10, from: 0, query: { bool: { must: expect.any(Array) } } });

    const profile = await adapter().enrichPerson('pdl-ada-0001');
    expect(profile).toMatchObject({ id: 'pdl-ada-0001', seniority: 'senior', years_experience: 9, skills: ['Typescript', 'Postgresql', 'Kubernetes'] });
    expect(profile!.experience[0]).toMatchObject({ company: 'Acme Robotics', start: '2022-03', end: null });
    expect(pdl.requests[1].query.get('pdl_id')).toBe('pdl-ada-0001');

    expect(await adapter().enrichPerson('pdl-nobody')).toBeNull();
    expect(await adapter().searchPeople({ search: 'astronaut', limit: 5, offset: 0 })).toEqual({ results: [], total: 0 });
  });

  it("reads PDL's place and occupation: location_geo as the point, the country name as ISO code, job_onet_code as the O*NET occupation", async () => {
    const ivy = await adapter().enrichPerson('pdl-ivy-0101');
    expect(ivy).toMatchObject({
      title: 'Pharmacist',
      location: { name: 'Leeds, England, United Kingdom', locality: 'Leeds', region: 'England', country: 'GB', lat: 53.8, lon: -1.55 },
      occupation: { onet_code: '29-1051.00', title: 'Pharmacists' },
      // A pharmacist is in no role family: not in nursing for PDL's role "health".
      family: '',
    });
    // A free plan answers `location_geo: true`: the point is the centre of the city PDL names.
    const kit = await adapter().enrichPerson('pdl-kit-0103');
    expect(kit!.location).toEqual({
      name: 'Leeds, England, United Kingdom',
      locality: 'Leeds',
      region: 'England',
      country: 'GB',
      lat: 53.79648,
      lon: -1.54785,
    });
    expect(await adapter().enrichPerson('pdl-oz-0107')).toMatchObject({
      family: 'healthcare_nursing',
      occupation: { onet_code: '29-1141.00', title: 'Registered Nurses' },
    });
    // A record without location_geo or job_onet_code (the older fixtures).
    const ada = await adapter().enrichPerson('pdl-ada-0001');
    expect(ada).toMatchObject({ family: 'software_engineering', occupation: null, location: { locality: 'San Francisco', country: 'US' } });
    expect([Math.round(ada!.location.lat!), Math.round(ada!.location.lon!)]).toEqual([38, -122]);
  });

  it('searches by places and occupations as PDL filters them: the localities around a city in its country, the O*NET code', async () => {
    const byCriteria = async (input: Criteria) => {
      const parsed = parseCriteria(input);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
      return (await adapter().searchPeopleByCriteria({ criteria: parsed.criteria, limit: 25, offset: 0 })).results.map((r) => r.person_id);
    };
    // Leeds (40 km): the pharmacists in Leeds and Morley (7 km) first, the one in Manchester (58 km,
    // within twice the radius) after; not Boston's pharmacist, nor Leeds's technician or nurse.
    expect(await byCriteria({ places: ['Leeds'], occupations: ['29-1051.00'] })).toEqual(['pdl-ivy-0101', 'pdl-jon-0102', 'pdl-kit-0103', 'pdl-lou-0104']);
    expect(await byCriteria({ places: [{ name: 'Leeds', radius_km: 10 }], occupations: ['29-1051.00'] })).toEqual([
      'pdl-ivy-0101',
      'pdl-jon-0102',
      'pdl-kit-0103',
    ]);
    // A sibling in the SOC broad occupation (same first five digits) is found too: light truck
    // drivers (53-3033.00) wanted, the heavy truck drivers (53-3032.00) found by 53-303.
    expect(await byCriteria({ places: ['Dallas'], occupations: ['53-3033.00'] })).toEqual(['pdl-pam-0108', 'pdl-rex-0109']);
    expect(await byCriteria({ places: ['Boston'], occupations: ['29-1051.00'] })).toEqual(['pdl-max-0105']);
    expect(await byCriteria({ places: ['United Kingdom'], occupations: ['29-1051.00'] })).toEqual([
      'pdl-ivy-0101',
      'pdl-jon-0102',
      'pdl-kit-0103',
      'pdl-lou-0104',
    ]);
    expect(await byCriteria({ places: ['Massachusetts'], occupations: ['29-1051.00'] })).toEqual(['pdl-max-0105']);
    // Truck drivers: Dallas first, Fort Worth (49 km) after; the old metro is PDL's metro, both in it.
    expect(await byCriteria({ places: ['Dallas'], occupations: ['53-3032.00'] })).toEqual(['pdl-pam-0108', 'pdl-rex-0109']);
    expect(await byCriteria({ metro: 'dallas-fort-worth', occupations: ['53-3032.00'] })).toEqual(['pdl-pam-0108', 'pdl-rex-0109']);
    expect(await byCriteria({ places: ['Leeds'], occupations: ['53-3032.00'] })).toEqual([]);
    // The widest radius stays within PDL's limits (no 400): nobody around Frankfurt.
    expect(await byCriteria({ places: [{ name: 'Frankfurt', radius_km: 500 }], occupations: ['29-1051.00'] })).toEqual([]);
    const sent = pdl.requests.filter((r) => r.path === '/v5/person/search').map((r) => JSON.stringify(r.body.query));
    expect(sent[0]).toContain('"location_country":"united kingdom"');
    expect(sent[0]).toContain('"job_onet_code":["29-1051.00"]');
  });

  it("the fake speaks PDL's query subset: 400 for other query types and for arrays over 1000 values", async () => {
    const search = async (query: unknown) => {
      const res = await fetch(`${pdl.url}/v5/person/search`, {
        method: 'POST',
        headers: { 'X-Api-Key': PDL_GOOD_KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, size: 10 }),
      });
      const body = (await res.json()) as { data: { id: string }[] };
      return res.status === 200 ? body.data.map((p) => p.id) : res.status;
    };
    expect(await search({ geo_distance: { distance: '40km', location_geo: { lat: 53.8, lon: -1.55 } } })).toBe(400);
    expect(await search({ bool: { filter: [{ terms: { location_locality: Array.from({ length: 1001 }, (_, i) => `town ${i}`) } }] } })).toBe(400);
    expect(await search({ bool: { filter: [{ terms: { location_locality: Array.from({ length: 1000 }, (_, i) => `town ${i}`) } }] } })).toBe(404);
    // Keyword semantics: exact and case-sensitive, as PDL's lower-case values are.
    expect(await search({ term: { location_locality: 'Leeds' } })).toBe(404);
    expect(await search({ bool: { filter: [{ term: { location_locality: 'leeds' } }, { prefix: { job_onet_code: '29-1051' } }] } })).toEqual([
      'pdl-ivy-0101',
      'pdl-kit-0103',
    ]);
    expect(await search({ wildcard: { job_onet_code: '53-30??.00' } })).toEqual(['pdl-pam-0108', 'pdl-rex-0109']);
    expect(await search({ bool: { filter: [{ exists: { field: 'job_onet_code' } }, { term: { location_country: 'united states' } }] } })).toEqual([
      'pdl-max-0105',
      'pdl-pam-0108',
      'pdl-rex-0109',
    ]);
    expect(await search({ match_all: {} })).toHaveLength(10);
  });

  it('searches and enriches companies (company records come at the top level)', async () => {
    const page = await adapter().searchCompanies({ search: 'analytics', limit: 10, offset: 0 });
    expect(page.results.map((c) => c.company_id).sort()).toEqual(['pdl-co-lumen', 'pdl-co-northwind']);
    const acme = await adapter().enrichCompany('pdl-co-acme');
    expect(acme).toMatchObject({
      name: 'Acme Robotics',
      website: 'https://acmerobotics.com',
      size: '201-500',
      employee_count: 340,
      tags: ['robotics', 'automation'],
    });
  });

  it('maps upstream 429, 500, garbage, a hang and a refused key to our errors', async () => {
    pdl.mode = 'rate-limited';
    const busy = await failure(adapter().enrichPerson('pdl-ada-0001'));
    expect(busy).toMatchObject({ code: 'network_busy', status: 429, headers: { 'Retry-After': '7' } });
    pdl.mode = 'error';
    expect(await failure(adapter().searchPeople({ search: 'x', limit: 1, offset: 0 }))).toMatchObject({ code: 'provider_error', status: 502 });
    pdl.mode = 'malformed';
    expect(await failure(adapter().enrichCompany('pdl-co-acme'))).toMatchObject({ code: 'provider_error', status: 502 });
    pdl.mode = 'hang';
    const started = Date.now();
    expect(await failure(adapter({ PROVIDER_TIMEOUT_MS: '300' }).enrichPerson('pdl-ada-0001'))).toMatchObject({ code: 'provider_error' });
    expect(Date.now() - started).toBeLessThan(5000);
    pdl.mode = 'ok';
    expect(await failure(adapter({}, 'wrong-key-000').enrichPerson('pdl-ada-0001'))).toMatchObject({ code: 'provider_unavailable', status: 424 });
  });
});

describe('Hunter adapter', () => {
  it('finds an email with the email finder, answers null when Hunter has none, and maps a refused key', async () => {
    const hunter = await startHunterFake();
    try {
      const adapter = (apiKey: string) => hunterProvider({ baseUrl: hunter.url, apiKey, timeoutMs: 1000 });
      expect(await adapter(HUNTER_GOOD_KEY).findEmail({ first_name: 'Ada', last_name: 'Quinn', domain: 'acmerobotics.com' })).toEqual({
        email: 'ada.quinn@acmerobotics.com',
        score: 94,
        position: 'Senior Backend Engineer',
      });
      expect(hunter.requests[0].query.get('api_key')).toBe(HUNTER_GOOD_KEY);
      expect(await adapter(HUNTER_GOOD_KEY).findEmail({ first_name: 'No', last_name: 'Body', company: 'Acme' })).toBeNull();
      expect(hunter.requests[1].query.get('company')).toBe('Acme');
      expect(await failure(adapter('wrong-hunter-key').findEmail({ first_name: 'Ada', last_name: 'Quinn', domain: 'x.com' }))).toMatchObject({
        code: 'provider_unavailable',
      });
      hunter.mode = 'error';
      expect(await failure(adapter(HUNTER_GOOD_KEY).findEmail({ first_name: 'Ada', last_name: 'Quinn', domain: 'x.com' }))).toMatchObject({
        code: 'provider_error',
      });
    } finally {
      await hunter.close();
    }
  });
});

describe('downstream limiter', () => {
  it('never lets more enrichment calls than PEOPLEDATALABS_CONCURRENCY reach the vendor at once', async () => {
    pdl.mode = 'slow';
    pdl.delayMs = 150;
    const pdlAdapter = adapter({ PEOPLEDATALABS_CONCURRENCY: '2', PROVIDER_SLOT_WAIT_MS: '20000' });
    await Promise.all(Array.from({ length: 8 }, () => pdlAdapter.enrichPerson('pdl-bo-0002')));
    expect(pdl.calls('/v5/person/enrich')).toBe(8);
    expect(pdl.maxInFlight).toBe(2);
  });

  it('refuses with network_busy when no slot comes within the wait, and a killed holder frees its slot when the lease ends', async () => {
    pdl.mode = 'slow';
    pdl.delayMs = 800;
    const pdlAdapter = adapter({ PEOPLEDATALABS_CONCURRENCY: '1', PROVIDER_SLOT_WAIT_MS: '100' });
    const outcomes = await Promise.allSettled([pdlAdapter.enrichPerson('pdl-bo-0002'), pdlAdapter.enrichPerson('pdl-bo-0002')]);
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason as ProviderError);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ code: 'network_busy', status: 429, headers: { 'Retry-After': '1' } });
    expect(pdl.calls()).toBe(1);
  });
});

describe('QPS pacing', () => {
  it('books start times 1/QPS apart and refuses with network_busy when the next start is beyond the wait', async () => {
    // A base URL of its own: a pacing schedule no other test shares.
    const c = config({
      PEOPLEDATALABS_BASE_URL: `${pdl.url}/qps-${Date.now()}`,
      BRAVE_BASE_URL: `${pdl.url}/brave-${Date.now()}`,
      BRAVE_QPS: '4',
      PROVIDER_SLOT_WAIT_MS: '300',
    });
    const limiter = downstreamLimiter(db, c);
    const started: number[] = [];
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => limiter.paced('brave', async () => started.push(Date.now()))));
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason as ProviderError);
    // At 4 per second with 300 ms of patience: starts at 0, 250 ms (and at most one more on a slow
    // machine), the rest refused.
    expect(started.length).toBeGreaterThanOrEqual(2);
    expect(started.length).toBeLessThanOrEqual(3);
    expect(refused.length).toBe(6 - started.length);
    expect(refused[0]).toMatchObject({ code: 'network_busy', status: 429, provider: 'brave' });
    expect(Number(refused[0].headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    started.sort((a, b) => a - b);
    expect(started[1] - started[0]).toBeGreaterThanOrEqual(200);
  });
});

describe('resolution', () => {
  it('workspace credential, else server key, else built-in', async () => {
    const { workspace } = await workspaceWithKey(db);
    expect(await resolveSource(db, config(), workspace.id, 'profile_data')).toEqual({ kind: 'builtin' });
    expect(await resolveSource(db, config({ PEOPLEDATALABS_API_KEY: 'server-key-1' }), workspace.id, 'profile_data')).toMatchObject({
      kind: 'vendor',
      provider: 'peopledatalabs',
      apiKey: 'server-key-1',
      origin: 'server',
    });
    await expect(resolveSource(db, config(), workspace.id, 'contact_data')).rejects.toMatchObject({ code: 'provider_unavailable', status: 424 });
    await createCredential(db, config(), workspace.id, { provider: 'peopledatalabs', apiKey: PDL_GOOD_KEY, label: 'default' });
    expect(await credentialRepository(db).activeFor(workspace.id, 'peopledatalabs')).toBeTruthy();
    const withServerKey = config({ PEOPLEDATALABS_API_KEY: 'server-key-1' });
    expect(await resolveSource(db, withServerKey, workspace.id, 'profile_data')).toMatchObject({ apiKey: PDL_GOOD_KEY, origin: 'workspace' });
    const profileData = await createProviders(db, withServerKey).profileData(workspace.id);
    expect(profileData.source).toBe('peopledatalabs');
    expect((await profileData.searchPeople({ search: 'engineer', limit: 2, offset: 0 })).total).toBe(3);
  });

  it('the built-in source answers people and companies from our database', async () => {
    const builtin = builtinProfileData(db);
    const page = await builtin.searchPeople({ search: 'engineer', limit: 5, offset: 0 });
    expect(page.results.length).toBe(5);
    expect(page.total).toBeGreaterThan(5);
    const profile = await builtin.enrichPerson(page.results[0].person_id);
    expect(profile?.id).toBe(page.results[0].person_id);
    const companies = await builtin.searchCompanies({ search: 'software', limit: 3, offset: 0 });
    expect(companies.results.length).toBe(3);
    const company = await builtin.enrichCompany(companies.results[0].company_id);
    expect(company).toMatchObject({ company_id: companies.results[0].company_id, name: companies.results[0].name });
    expect(await builtin.enrichCompany('c99999')).toBeNull();
  });
});
