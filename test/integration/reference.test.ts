import { INDUSTRIES, ROLE_FAMILIES } from '../../src/reference/taxonomy';
import { parseCriteria } from '../../src/domain/criteria';
import { keyFor, workspaceWithKey } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';
import { workspaceWithMembers } from '../support/session';

let stack: TestStack;
let headers: Record<string, string>;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  const fixture = await workspaceWithKey(stack.db);
  // Reference reads need any valid key, whatever its scopes.
  headers = (await keyFor(stack.db, fixture.workspace, { scopes: ['usage:read'] })).headers;
});
afterAll(() => stack.stop());

describe('GET /v1/reference/criteria', () => {
  it('describes every criteria field with type, bounds, allowed values and a valid example', async () => {
    const res = await stack.request('GET', '/v1/reference/criteria', { headers });
    expect(res.status).toBe(200);
    const { fields, example } = res.body.data;
    const names = (Array.isArray(fields) ? fields.map((f: { name: string }) => f.name) : Object.keys(fields)).sort();
    expect(names).toEqual(
      [
        'exclude_companies',
        'family',
        'industries',
        'like',
        'locations',
        'metro',
        'mode',
        'must_have_skills',
        'occupations',
        'places',
        'read_budget',
        'seniority',
        'shortlist_threshold',
        'skills',
        'target',
        'titles',
        'years_experience',
      ].sort(),
    );
    expect(JSON.stringify(res.body.data)).toContain(ROLE_FAMILIES[0].id);
    expect(JSON.stringify(res.body.data)).toContain('/reference/industries');
    expect(parseCriteria(example).ok).toBe(true);
  });
});

describe('GET /v1/reference/industries', () => {
  it('matches case-insensitively, prefix matches first, at most 200', async () => {
    const all = await stack.request('GET', '/v1/reference/industries', { headers });
    expect(all.body.data).toHaveLength(Math.min(200, INDUSTRIES.length));
    expect(all.body.meta.total).toBe(all.body.data.length);
    const soft = await stack.request('GET', '/v1/reference/industries?q=SOFT', { headers });
    expect(soft.body.data).toContain('Software Development');
    expect(soft.body.data.every((i: string) => i.toLowerCase().includes('soft'))).toBe(true);
    const none = await stack.request('GET', '/v1/reference/industries?q=zzzz', { headers });
    expect(none.body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('needs a key', async () => {
    expect((await stack.request('GET', '/v1/reference/industries')).body.error.code).toBe('missing_api_key');
  });
});

describe('GET /v1/reference/places', () => {
  it('finds places anywhere by the start of a name, most populous first, up to 20', async () => {
    const res = await stack.request('GET', '/v1/reference/places?q=leed', { headers });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ name: 'Leeds, England, United Kingdom', kind: 'city', country: 'GB' });
    expect(res.body.data[0].id).toMatch(/^geonames:\d+$/);
    const springfield = (await stack.request('GET', '/v1/reference/places?q=Springfield', { headers })).body.data;
    expect(springfield.length).toBeGreaterThan(3);
    const populations = springfield.map((p: { population: number }) => p.population);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
    // Regions, countries, accents and short forms.
    expect((await stack.request('GET', '/v1/reference/places?q=bavaria', { headers })).body.data[0]).toMatchObject({ kind: 'region', country: 'DE' });
    expect((await stack.request('GET', '/v1/reference/places?q=Sao%20Paulo', { headers })).body.data[0].name).toMatch(/^São Paulo/);
    expect((await stack.request('GET', '/v1/reference/places?q=UK', { headers })).body.data.map((p: { kind: string }) => p.kind)).toContain('country');
    const many = (await stack.request('GET', '/v1/reference/places?q=s', { headers })).body;
    expect(many.data).toHaveLength(20);
    expect(many.meta.total).toBe(20);
  });

  it('takes a found id back in criteria places', async () => {
    const [leeds] = (await stack.request('GET', '/v1/reference/places?q=Leeds', { headers })).body.data;
    const parsed = parseCriteria({ titles: ['Web Designer'], places: [{ id: leeds.id, radius_km: 25 }] });
    expect(parsed.ok && parsed.criteria.places).toEqual([{ id: leeds.id, name: leeds.name, kind: 'city', lat: leeds.lat, lon: leeds.lon, radius_km: 25 }]);
  });

  it('names places by id, in the order asked, leaving unknown ids out', async () => {
    const [leeds] = (await stack.request('GET', '/v1/reference/places?q=Leeds', { headers })).body.data;
    const [bavaria] = (await stack.request('GET', '/v1/reference/places?q=Bavaria', { headers })).body.data;
    const res = await stack.request('GET', `/v1/reference/places?ids=${bavaria.id},geonames:0,${leeds.id}`, { headers });
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual([bavaria.name, leeds.name]);
    const many = Array.from({ length: 21 }, () => leeds.id).join(',');
    expect((await stack.request('GET', `/v1/reference/places?ids=${many}`, { headers })).status).toBe(400);
  });

  it('answers a clear 400 without q or ids, and needs a key', async () => {
    const res = await stack.request('GET', '/v1/reference/places', { headers });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect((await stack.request('GET', '/v1/reference/places?q=Leeds&ids=geonames:1', { headers })).status).toBe(400);
    expect((await stack.request('GET', '/v1/reference/places?q=x')).body.error.code).toBe('missing_api_key');
  });

  it('serves the app through the session', async () => {
    const members = await workspaceWithMembers(stack);
    const res = await stack.request('GET', '/api/v1/reference/places?q=Lyon', { headers: members.viewer.headers });
    expect(res.status).toBe(200);
    expect(res.body.data[0].name).toMatch(/^Lyon, /);
  });
});

describe('GET /v1/reference/occupations', () => {
  it('finds O*NET-SOC occupations by words of a title or by code, with their family or null', async () => {
    const pharmacists = (await stack.request('GET', '/v1/reference/occupations?q=pharmacist', { headers })).body.data;
    expect(pharmacists[0]).toEqual({ code: '29-1051.00', title: 'Pharmacists', family: null });
    const devs = (await stack.request('GET', '/v1/reference/occupations?q=software%20developer', { headers })).body.data;
    expect(devs[0]).toMatchObject({ code: '15-1252.00', family: 'software_engineering' });
    const byCode = (await stack.request('GET', '/v1/reference/occupations?q=53-3032', { headers })).body.data;
    expect(byCode.map((o: { code: string }) => o.code)).toContain('53-3032.00');
    const all = (await stack.request('GET', '/v1/reference/occupations', { headers })).body;
    expect(all.data).toHaveLength(200);
    expect((await stack.request('GET', '/v1/reference/occupations?q=zzqx', { headers })).body).toMatchObject({ data: [], meta: { total: 0 } });
  });
});
