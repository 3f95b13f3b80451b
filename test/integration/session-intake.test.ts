import { parseCriteria } from '../../src/domain/criteria';
import { extractCriteria } from '../../src/briefs/reader';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-fake';
import { startVendorFake, type VendorFake } from '../fakes/vendor-fake';
import { workspaceWithMembers } from '../support/session';
import { startTestStack, type TestStack } from '../support/stack';

/** Intake against a local OpenAI-compatible fake; the sourcing providers' fakes must see no call. */

let openai: OpenAiFake;
let vendors: VendorFake;
let stack: TestStack;
let noKeyStack: TestStack;

const GOOD = {
  family: 'Software Engineering',
  titles: ['Backend Engineer'],
  metro: 'berlin',
  industries: ['Internet'],
  years_experience: { min: 5 },
  skills: ['Python'],
  _meta: { confidence: { family: 0.9, titles: 0.95, metro: 0.8, industries: 0.5, years_experience: 0.9, skills: 0.85 } },
};

beforeAll(async () => {
  openai = await startOpenAiFake();
  vendors = await startVendorFake('server-vendor-key');
  const providers = {
    PEOPLEDATALABS_BASE_URL: vendors.url,
    BRAVE_BASE_URL: vendors.url,
    HUNTER_BASE_URL: vendors.url,
    PEOPLEDATALABS_API_KEY: 'server-vendor-key',
    BRAVE_API_KEY: 'server-vendor-key',
    HUNTER_API_KEY: 'server-vendor-key',
  };
  stack = await startTestStack({ worker: false, env: { ...providers, OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-fake-good-key' } });
  noKeyStack = await startTestStack({ worker: false, env: { ...providers, OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: '' } });
});
afterAll(async () => {
  await stack?.stop();
  await noKeyStack?.stop();
  await openai?.close();
  await vendors?.close();
});
beforeEach(() => {
  openai.reset();
  openai.answer = GOOD;
});
afterEach(() => {
  // Intake never calls a sourcing provider.
  expect(vendors.requests).toEqual([]);
});

const intake = async (s: TestStack, rawInput: unknown = 'Senior backend engineer in Berlin, 5+ years, Python') => {
  const ws = await workspaceWithMembers(s);
  return { ws, res: await s.request('POST', '/api/intake', { headers: ws.operator.headers, body: { rawInput } }) };
};

it('extracts confident criteria through one forced tool call whose schema comes from the criteria schema', async () => {
  const { res, ws } = await intake(stack);
  expect(res.status).toBe(200);
  expect(res.body.criteria).toMatchObject({
    family: 'software_engineering',
    metro: 'berlin',
    industries: ['Internet'],
    years_experience: { min: 5 },
    _meta: { confidence: { family: 0.9, metro: 0.8 } },
  });
  expect(res.body.entityCoverage).toEqual({
    location: { resolved: true, confidence: 0.8, required: true },
    job_title: { resolved: true, confidence: 0.95, required: true },
    years_experience: { resolved: true, confidence: 0.9, required: false },
    industry: { resolved: true, confidence: 0.5, required: false },
    skills: { resolved: true, confidence: 0.85, required: false },
  });
  expect(res.body.familyUnresolved).toBe(false);
  expect(res.body.familySuggestions).toEqual([]);
  expect(res.body.rawToolInput).toEqual(GOOD);
  expect(res.body.reader).toBe('llm');
  expect(res.body).not.toHaveProperty('score');
  expect(openai.chatCalls()).toBe(1);
  const call = openai.requests[0];
  expect(call.authorization).toBe('Bearer sk-fake-good-key');
  const parameters = call.body.tools[0].function.parameters;
  expect(Object.keys(parameters.properties)).toEqual(expect.arrayContaining(['family', 'metro', 'industries', 'years_experience', 'skills', '_meta']));
  expect(parameters.additionalProperties).toBe(false);
  expect(call.body.tool_choice).toEqual({ type: 'function', function: { name: call.body.tools[0].function.name } });
  // The workspace's own families are offered to the model.
  expect(call.body.messages[0].content).toContain('software_engineering');
  expect(ws.workspace.id).toBeTruthy();
});

it('an unknown family is removed and the three closest workspace families are suggested', async () => {
  openai.answer = { ...GOOD, family: 'Sofware Engineering Wizardry', _meta: { confidence: { family: 0.6 } } };
  const { res } = await intake(stack);
  expect(res.status).toBe(200);
  expect(res.body.familyUnresolved).toBe(true);
  expect(res.body.criteria).not.toHaveProperty('family');
  expect(res.body.criteria._meta.confidence).not.toHaveProperty('family');
  expect(res.body.familySuggestions).toHaveLength(3);
  expect(res.body.familySuggestions[0]).toEqual({ id: 'software_engineering', label: expect.any(String) });
  expect(res.body.rawToolInput.family).toBe('Sofware Engineering Wizardry');
});

it('a first answer that fails validation is retried once with the problems, and the second is used', async () => {
  openai.mode = 'invalid-then-valid';
  const { res } = await intake(stack);
  expect(res.status).toBe(200);
  expect(openai.chatCalls()).toBe(2);
  const retry = openai.requests[1].body.messages;
  expect(retry.at(-1).role).toBe('tool');
  expect(retry.at(-1).content).toMatch(/metro/);
  expect(retry.at(-1).content).toMatch(/years_experience\.min/);
  expect(res.body.rawToolInput).toEqual(GOOD);
});

it('two invalid answers are 502 extraction_failed', async () => {
  openai.mode = 'always-invalid';
  const { res } = await intake(stack);
  expect(res.status).toBe(502);
  expect(res.body).toEqual({ error: expect.stringMatching(/metro/), code: 'extraction_failed' });
  expect(openai.chatCalls()).toBe(2);
});

it('without any language-model key: 424 llm_not_configured, and the model is not called', async () => {
  const { res } = await intake(noKeyStack);
  expect(res.status).toBe(424);
  expect(res.body.code).toBe('llm_not_configured');
  expect(openai.chatCalls()).toBe(0);
});

it("a workspace's openai credential is used before the server key", async () => {
  const ws = await workspaceWithMembers(noKeyStack);
  expect(
    (await noKeyStack.request('POST', '/api/admin/credentials', { headers: ws.admin.headers, body: { provider: 'openai', apiKey: 'sk-workspace-key-1234' } }))
      .status,
  ).toBe(200);
  const res = await noKeyStack.request('POST', '/api/intake', { headers: ws.operator.headers, body: { rawInput: 'Backend engineer in Berlin' } });
  expect(res.status).toBe(200);
  expect(openai.requests[0].authorization).toBe('Bearer sk-workspace-key-1234');
});

it('the model server down: 502 extraction_failed', async () => {
  openai.mode = 'down';
  const { res } = await intake(stack);
  expect(res.status).toBe(502);
  expect(res.body.code).toBe('extraction_failed');
});

it('role families that cannot be loaded: 502 without a code', async () => {
  const ws = await workspaceWithMembers(stack);
  await stack.db('role_families').where({ workspace_id: ws.workspace.id }).delete();
  const res = await stack.request('POST', '/api/intake', { headers: ws.operator.headers, body: { rawInput: 'Backend engineer' } });
  expect(res.status).toBe(502);
  expect(res.body).toEqual({ error: expect.any(String) });
  expect(openai.chatCalls()).toBe(0);
});

it('rawInput missing or empty: 400', async () => {
  const { res } = await intake(stack, '   ');
  expect(res.status).toBe(400);
  expect(res.body.error).toMatch(/rawInput/);
  expect(openai.chatCalls()).toBe(0);
});

it('new workspaces are seeded with the reference role families', async () => {
  const ws = await workspaceWithMembers(stack);
  const families = await stack.db('role_families').where({ workspace_id: ws.workspace.id });
  expect(families.length).toBeGreaterThan(5);
  expect(families.map((f: { family_id: string }) => f.family_id)).toContain('software_engineering');
});

describe('the built-in reader (POST /api/intake/builtin), for the app without a language model', () => {
  const BRIEF = 'Senior backend engineer in Berlin, 5+ years of TypeScript and PostgreSQL';
  const readBuiltin = async (s: TestStack, rawInput: string) => {
    const ws = await workspaceWithMembers(s);
    return { ws, res: await s.request('POST', '/api/intake/builtin', { headers: ws.operator.headers, body: { rawInput } }) };
  };

  it("answers intake's shape with reader builtin: the jd_text reader's criteria, coverage and raw extraction; no model or provider call", async () => {
    const { res } = await readBuiltin(noKeyStack, BRIEF);
    expect(res.status).toBe(200);
    expect(res.body.reader).toBe('builtin');
    expect(res.body.criteria).toMatchObject({ family: 'software_engineering', metro: 'berlin' });
    // The same reader as the key API's jd_text: launching these criteria as they are launches what jd_text would.
    const extraction = extractCriteria(BRIEF);
    expect(res.body.rawToolInput).toEqual({ ...extraction.criteria, _meta: { confidence: extraction.confidence } });
    const { _meta, ...criteria } = res.body.criteria;
    expect(parseCriteria(criteria)).toEqual(parseCriteria(extraction.criteria));
    // A confidence for every field found, and only for those.
    expect(Object.keys(_meta.confidence).sort()).toEqual(Object.keys(criteria).sort());
    expect(res.body.entityCoverage.location).toEqual({ resolved: true, confidence: _meta.confidence.metro, required: true });
    expect(res.body.entityCoverage.job_title).toMatchObject({ resolved: true, required: true });
    expect(res.body.familyUnresolved).toBe(false);
    expect(res.body.familySuggestions).toEqual([]);
    expect(openai.chatCalls()).toBe(0);
  });

  it('a brief with nothing usable still answers: empty criteria and every chip unresolved, for the form to fill in', async () => {
    const { res } = await readBuiltin(noKeyStack, 'Lorem ipsum dolor sit amet');
    expect(res.status).toBe(200);
    expect(res.body.criteria).toEqual({ _meta: { confidence: {} } });
    expect(Object.values(res.body.entityCoverage).every((c) => !(c as { resolved: boolean }).resolved)).toBe(true);
    expect(res.body).toMatchObject({ familyUnresolved: false, familySuggestions: [], reader: 'builtin' });
  });

  it("a family the workspace does not have is left out, with the workspace's three closest families", async () => {
    const ws = await workspaceWithMembers(noKeyStack);
    await noKeyStack.db('role_families').where({ workspace_id: ws.workspace.id, family_id: 'software_engineering' }).delete();
    const res = await noKeyStack.request('POST', '/api/intake/builtin', { headers: ws.operator.headers, body: { rawInput: BRIEF } });
    expect(res.status).toBe(200);
    expect(res.body.rawToolInput.family).toBe('software_engineering');
    expect(res.body.familyUnresolved).toBe(true);
    expect(res.body.criteria).not.toHaveProperty('family');
    expect(res.body.criteria._meta.confidence).not.toHaveProperty('family');
    expect(res.body.criteria.metro).toBe('berlin');
    const workspaceFamilies = (await noKeyStack.db('role_families').where({ workspace_id: ws.workspace.id })).map((f: { family_id: string }) => f.family_id);
    expect(res.body.familySuggestions).toHaveLength(3);
    for (const s of res.body.familySuggestions) expect(workspaceFamilies).toContain(s.id);
  });

  it('answers where a language model is configured too, without calling it', async () => {
    const { res } = await readBuiltin(stack, BRIEF);
    expect(res.status).toBe(200);
    expect(res.body.reader).toBe('builtin');
    expect(openai.chatCalls()).toBe(0);
  });

  it('bad input is 400 with the problem; a viewer is 403; role families that cannot be loaded are 502', async () => {
    const ws = await workspaceWithMembers(noKeyStack);
    const read = (headers: Record<string, string>, body: unknown) => noKeyStack.request('POST', '/api/intake/builtin', { headers, body });
    for (const body of [{ rawInput: '   ' }, {}, { rawInput: 42 }, { rawInput: BRIEF, extra: true }, { rawInput: 'x'.repeat(20_001) }]) {
      const res = await read(ws.operator.headers, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/rawInput|extra/);
      expect(res.body.problems).toEqual([expect.objectContaining({ field: expect.stringMatching(/rawInput|extra/) })]);
    }
    expect((await read(ws.operator.headers, { rawInput: BRIEF })).status).toBe(200);
    const refused = await read(ws.viewer.headers, { rawInput: BRIEF });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    await noKeyStack.db('role_families').where({ workspace_id: ws.workspace.id }).delete();
    const noFamilies = await read(ws.operator.headers, { rawInput: BRIEF });
    expect([noFamilies.status, noFamilies.body]).toEqual([502, { error: expect.any(String) }]);
  });
});
