import { randomUUID } from 'node:crypto';
import type { TestStack } from './stack';
import { waitFor } from '../../tools/dev/processes';

export const softwareCriteria = { family: 'software_engineering', read_budget: 60, target: 10, shortlist_threshold: 50 };

export async function createProject(stack: TestStack, headers: Record<string, string>, name = 'Search project'): Promise<string> {
  const res = await stack.request('POST', '/v1/projects', { headers, body: { name } });
  if (res.status !== 201) throw new Error(`project create failed: ${res.text}`);
  return res.body.data.id;
}

export async function launch(stack: TestStack, headers: Record<string, string>, projectId: string, body: unknown, key = `test-${randomUUID()}`) {
  return stack.request('POST', `/v1/projects/${projectId}/searches`, { headers: { ...headers, 'Idempotency-Key': key }, body });
}

/** Polls GET /searches/{id} until the status is one of `until`. */
export async function waitForSearch(stack: TestStack, headers: Record<string, string>, searchId: string, until = ['complete', 'failed'], timeoutMs = 60_000) {
  let last: any;
  await waitFor(
    `search ${searchId} to reach ${until.join('/')}`,
    async () => {
      last = (await stack.request('GET', `/v1/searches/${searchId}`, { headers })).body.data;
      return until.includes(last.status);
    },
    timeoutMs,
    150,
  );
  return last;
}

/**
 * A project with one complete search of `budget` scored people (scores vary; nobody reaches the
 * threshold) and then exactly `listed` of them put on the shortlist through the API.
 */
export async function projectWithScoredPeople(stack: TestStack, headers: Record<string, string>, opts: { listed: number; budget?: number; name?: string }) {
  const projectId = await createProject(stack, headers, opts.name ?? `Shortlist ${randomUUID().slice(0, 6)}`);
  const criteria = {
    family: 'software_engineering',
    skills: ['TypeScript', 'PostgreSQL', 'GAAP', 'Phlebotomy', 'Contract Negotiation'],
    read_budget: opts.budget ?? 40,
    target: 200,
    shortlist_threshold: 100,
  };
  const res = await launch(stack, headers, projectId, { criteria });
  const search = await waitForSearch(stack, headers, res.body.data.id);
  const people: { id: string; name: string; score: number }[] = (
    await stack.request('GET', `/v1/searches/${search.id}/people?limit=500&profile=false`, { headers })
  ).body.data.people;
  const current = new Set<string>(
    (await stack.request('GET', `/v1/projects/${projectId}/shortlist`, { headers })).body.data.map((m: { candidate_id: string }) => m.candidate_id),
  );
  const toAdd = people
    .filter((p) => !current.has(p.id))
    .slice(0, Math.max(0, opts.listed - current.size))
    .map((p) => p.id);
  if (toAdd.length) await stack.request('POST', `/v1/projects/${projectId}/shortlist/members`, { headers, body: { candidate_ids: toAdd } });
  return { projectId, search, people };
}
