import { randomUUID } from 'node:crypto';
import type { TestStack } from './stack';
import { waitFor } from '../../src/dev/processes';

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
