import { creditLedgerRepository } from '../../src/db/credit-ledger.repository';
import { projectRepository } from '../../src/db/project.repository';
import { startVendorFake, type VendorFake } from '../fakes/vendor-fake';
import { sessionRoutes } from '../../api/session/session.routes';
import { redoclyErrors } from '../support/openapi-lint';
import { workspaceWithMembers } from '../support/session';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let hunter: VendorFake;
beforeAll(async () => {
  hunter = await startVendorFake('hunter-key-for-campaigns');
  stack = await startTestStack({ worker: false, env: { HUNTER_BASE_URL: hunter.url, HUNTER_API_KEY: '' } });
});
afterAll(async () => {
  await stack?.stop();
  await hunter?.close();
});

const CRITERIA = { family: 'software_engineering', metro: 'berlin' };

describe('scans', () => {
  it('launches with the key API rules: one credit, idempotent replay, reused key with another body is 409, list shows it', async () => {
    const ws = await workspaceWithMembers(stack, { credits: 1 });
    const project = await projectRepository(stack.db).create(ws.workspace.id, 'Scans');
    const launch = (key: string | undefined, criteria: unknown = CRITERIA) =>
      stack.request('POST', '/api/scans', {
        headers: { ...ws.operator.headers, ...(key ? { 'Idempotency-Key': key } : {}) },
        body: { project_id: project.id, criteria },
      });

    expect((await launch(undefined)).body).toEqual({
      error: expect.stringMatching(/Idempotency-Key/),
      code: 'idempotency_key_required',
      problems: [{ field: 'Idempotency-Key', message: expect.any(String) }],
    });
    const first = await launch('scan-key-0001');
    expect(first.status).toBe(201);
    expect(first.body.scan).toMatchObject({ id: expect.any(String), project_id: project.id, status: 'queued', reused: false });
    const replay = await launch('scan-key-0001');
    expect(replay.status).toBe(200);
    expect(replay.body.scan).toMatchObject({ id: first.body.scan.id, reused: true });
    expect((await launch('scan-key-0001', { family: 'data_science' })).status).toBe(409);
    expect(await creditLedgerRepository(stack.db).balance(ws.workspace.id, 'workspace')).toBe(0);
    const broke = await launch('scan-key-0002');
    expect(broke.status).toBe(402);
    expect(broke.body.code).toBe('shortlist_allocation_exhausted');
    const invalid = await launch('scan-key-0003', { family: 'wizardry', skills: ['TypeScript', 'Spellcasting'], years_experience: { min: 9, max: 3 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('invalid_criteria');
    // Every problem by field, so the app can show each one next to its input.
    expect(invalid.body.problems).toEqual([
      { field: 'criteria.family', message: expect.stringMatching(/unknown role family "wizardry"/) },
      { field: 'criteria.years_experience.min', message: 'min (9) must not be greater than max (3)' },
      { field: 'criteria.skills.1', message: expect.stringMatching(/unknown skill "Spellcasting"/) },
    ]);

    const list = await stack.request('GET', '/api/scans', { headers: ws.viewer.headers });
    expect(list.status).toBe(200);
    expect(list.body.scans.map((s: { id: string }) => s.id)).toEqual([first.body.scan.id]);
    expect(list.body.scans[0]).toMatchObject({ profiles_read: 0, delivered: 0, shortlisted: 0 });
    // Another workspace's project is not found.
    const other = await workspaceWithMembers(stack);
    const foreign = await stack.request('POST', '/api/scans', {
      headers: { ...other.operator.headers, 'Idempotency-Key': 'scan-key-0004' },
      body: { project_id: project.id, criteria: CRITERIA },
    });
    expect(foreign.status).toBe(404);
  });
});

describe('campaigns', () => {
  it('draft → awaiting_launch → launched; 409 from other states; email needs a hunter source; social is not configured', async () => {
    const ws = await workspaceWithMembers(stack);
    const h = ws.operator.headers;
    const create = async (channel: string) =>
      (await stack.request('POST', '/api/campaigns', { headers: h, body: { name: `${channel} outreach`, channel } })).body.campaign;
    const email = await create('email');
    expect(email).toMatchObject({ status: 'draft', channel: 'email', published_at: null });
    const act = (id: string, action: string) => stack.request('POST', `/api/campaigns/${id}/${action}`, { headers: h });

    expect((await act(email.id, 'launch')).status).toBe(409); // still a draft
    const published = await act(email.id, 'publish');
    expect(published.body.campaign).toMatchObject({ status: 'awaiting_launch', published_at: expect.any(String) });
    expect((await act(email.id, 'publish')).status).toBe(409);
    const noHunter = await act(email.id, 'launch');
    expect([noHunter.status, noHunter.body.code]).toEqual([424, 'emailoutreach_not_configured']);

    expect(
      (await stack.request('POST', '/api/admin/credentials', { headers: ws.admin.headers, body: { provider: 'hunter', apiKey: 'hunter-key-for-campaigns' } }))
        .status,
    ).toBe(200);
    const launched = await act(email.id, 'launch');
    expect(launched.status).toBe(200);
    expect(launched.body.campaign).toMatchObject({ status: 'launched', launched_at: expect.any(String) });
    expect((await act(email.id, 'launch')).status).toBe(409);

    const social = await create('social');
    await act(social.id, 'publish');
    const socialLaunch = await act(social.id, 'launch');
    expect([socialLaunch.status, socialLaunch.body.code]).toEqual([424, 'socialoutreach_not_configured']);
    expect((await stack.db('campaigns').where({ id: social.id }).first()).status).toBe('awaiting_launch');

    const list = await stack.request('GET', '/api/campaigns', { headers: ws.viewer.headers });
    expect(list.body.campaigns.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      [social.id, 'awaiting_launch'],
      [email.id, 'launched'],
    ]);
    expect((await stack.request('POST', '/api/campaigns', { headers: h, body: { name: '', channel: 'fax' } })).status).toBe(400);
  });
});

it('GET /api/openapi.json documents every session route with the cookie security scheme, generated from the route schemas', async () => {
  const res = await stack.request('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  expect(redoclyErrors(res.text)).toEqual([]);
  expect(Object.values(res.body.paths).flatMap((p) => Object.values(p as object)).length).toBe(sessionRoutes.length);
  // Scans take the key API's launch body (one schema): criteria or jd_text, with the project.
  expect(res.body.components.schemas.CreateScan.properties).toEqual(
    expect.objectContaining({ criteria: expect.anything(), jd_text: expect.anything(), project_id: expect.anything() }),
  );
  expect(res.body.paths['/api/scans'].post.parameters).toEqual([expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true })]);
  expect(res.body.paths['/api/scans'].post.responses['400'].description).toMatch(/idempotency_key_required.*invalid_criteria/);
  expect(res.body.paths['/api/me'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Me' });
  expect(res.body.components.securitySchemes.sessionCookie).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'sid' }));
  expect(res.body.paths['/api/admin/credentials'].post.requestBody.content['application/json'].schema.properties.provider.enum).toEqual([
    'peopledatalabs',
    'brave',
    'openai',
    'hunter',
  ]);
  expect(res.body.paths['/api/me'].get.security).toEqual([{ sessionCookie: [] }]);
  expect(res.body.paths['/api/campaigns/{id}/launch'].post['x-role']).toBe('operator');
  // The built-in reader: intake's body and answer schemas (one declaration each), operator role.
  const builtin = res.body.paths['/api/intake/builtin'].post;
  expect(builtin['x-role']).toBe('operator');
  expect(builtin.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/IntakeResult' });
  expect(builtin.requestBody.content['application/json'].schema).toEqual(res.body.paths['/api/intake'].post.requestBody.content['application/json'].schema);
  expect(res.body.components.schemas.IntakeResult.properties.reader.enum).toEqual(['llm', 'builtin']);
  expect(res.body.components.schemas.SessionError.properties.problems.type).toBe('array');
});
