import { runCli } from '../../src/cli/main';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { projectWithScoredPeople } from '../support/searches';
import { request, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let caller: KeyFixture;
beforeAll(async () => {
  stack = await startTestStack();
  caller = await workspaceWithKey(stack.db, { credits: 5 });
});
afterAll(() => stack.stop());

async function sharedProject(target: number) {
  const { projectId, search } = await projectWithScoredPeople(stack, caller.headers, { listed: target, budget: 20, name: 'Staff Engineers <Q4> & "friends"' });
  const link = (await stack.request('GET', `/v1/projects/${projectId}/share-link`, { headers: caller.headers })).body.data;
  const members = (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers: caller.headers })).body.data;
  return { projectId, search, link, members, path: new URL(link.url).pathname, token: new URL(link.url).pathname.split('/').pop()! };
}

describe('the public share page', () => {
  it('shows the project, count and members, with noindex, no-referrer and a strict CSP', async () => {
    const { path, members, projectId, search } = await sharedProject(3);
    const res = await request(stack.url, 'GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|script-src/);
    expect(res.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.text).toContain('Staff Engineers &lt;Q4&gt; &amp; &quot;friends&quot;');
    expect(res.text).toContain('3 people');
    for (const m of members) {
      expect(res.text).toContain(m.name.replace(/'/g, '&#39;'));
      expect(res.text).toContain(`href="${m.network_url}"`);
      expect(res.text).toContain(`>${m.score}<`);
    }
    // No internal ids beyond candidate ids.
    expect(res.text).not.toContain(projectId);
    expect(res.text).not.toContain(caller.workspace.id);
    expect(res.text).not.toContain(search.id);
  });

  it('links a profile only when its address is http(s): javascript: and data: addresses become no link', async () => {
    const { path, members } = await sharedProject(3);
    const [hostile, data, plain] = members as { candidate_id: string; network_url: string }[];
    const setUrl = (candidateId: string, url: string) =>
      stack
        .db('search_people')
        .where({ candidate_id: candidateId })
        .update({ summary: stack.db.raw(`jsonb_set(summary, '{network_url}', to_jsonb(?::text))`, [url]) });
    await setUrl(hostile.candidate_id, 'javascript:alert(document.domain)');
    await setUrl(data.candidate_id, 'data:text/html,<script>alert(1)</script>');
    const res = await request(stack.url, 'GET', path);
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/<a href="(?:javascript|data):/i);
    expect(res.text).not.toContain('alert(');
    // The other member keeps its link.
    expect(res.text).toContain(`href="${plain.network_url}"`);
    expect(res.text.match(/>Profile<\/a>/g)).toHaveLength(1);
  });

  it('shows a clear empty state', async () => {
    const { path } = await sharedProject(0);
    const res = await request(stack.url, 'GET', path);
    expect(res.status).toBe(200);
    expect(res.text).toContain('No one is on this shortlist yet');
  });

  it('serves the same data as JSON at /api/shares/{token}, live', async () => {
    const { token, members, projectId } = await sharedProject(2);
    const res = await request(stack.url, 'GET', `/api/shares/${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      project_name: 'Staff Engineers <Q4> & "friends"',
      shortlisted: 2,
      members: members.map(({ search_id: _s, source: _src, ...rest }: Record<string, unknown>) => rest),
    });
    await stack.request('DELETE', `/v1/projects/${projectId}/shortlist/members/${members[0].candidate_id}`, { headers: caller.headers });
    expect((await request(stack.url, 'GET', `/api/shares/${token}`)).body.shortlisted).toBe(1);
  });

  it('answers 404 for an unknown token and 410 once an operator expires the link', async () => {
    const { token, path, projectId } = await sharedProject(1);
    expect((await request(stack.url, 'GET', '/share/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    const unknown = await request(stack.url, 'GET', '/api/shares/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'Share link not found' }]);
    expect((await request(stack.url, 'GET', `/api/shares/${token.slice(0, -1)}x`)).status).toBe(404);

    const out: string[] = [];
    expect(
      await runCli(
        ['shares', 'expire', projectId, '--json'],
        (l) => out.push(l),
        () => undefined,
      ),
    ).toBe(0);
    expect(JSON.parse(out[0])).toEqual({ project_id: projectId, share_expires_at: expect.any(String) });
    expect((await request(stack.url, 'GET', path)).status).toBe(410);
    expect((await request(stack.url, 'GET', `/api/shares/${token}`)).body).toEqual({ error: 'This share link has expired' });

    expect(
      await runCli(
        ['shares', 'expire', projectId, '--at', '2999-01-01T00:00:00Z'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(0);
    expect((await request(stack.url, 'GET', path)).status).toBe(200);
    expect(
      await runCli(
        ['shares', 'expire', projectId, '--at', 'tomorrow'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(2);
  });
});
