import createClient from 'openapi-fetch';
import type { paths } from '../../sdk/src/schema';

/**
 * A small client program written only against the types openapi-typescript generated from
 * /v1/openapi.json (sdk/src/schema.d.ts): no `any`, no casts. It launches a search, pages its people and
 * reads the shortlist. test/integration/openapi.test.ts type-checks it and runs it.
 */
export async function launchPageAndReadShortlist(baseUrl: string, apiKey: string, idempotencyKey: string) {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });

  const project = await client.POST('/projects', { body: { name: 'Typed client' } });
  if (!project.data) throw new Error(`create_project failed: ${project.error?.error.code}`);
  const projectId = project.data.data.id;

  const launched = await client.POST('/projects/{projectId}/searches', {
    params: { path: { projectId }, header: { 'Idempotency-Key': idempotencyKey } },
    body: { criteria: { family: 'software_engineering', read_budget: 40, target: 5, shortlist_threshold: 40 } },
  });
  if (!launched.data) throw new Error(`launch_search failed: ${launched.error?.error.code}`);
  const searchId = launched.data.data.id;

  let status = launched.data.data.status;
  for (let i = 0; i < 400 && status !== 'complete' && status !== 'failed'; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const search = await client.GET('/searches/{searchId}', { params: { path: { searchId } } });
    if (!search.data) throw new Error(`get_search failed: ${search.error?.error.code}`);
    status = search.data.data.status;
  }

  const people: { id: string; score: number }[] = [];
  for (let offset = 0; ; offset += 10) {
    const page = await client.GET('/searches/{searchId}/people', { params: { path: { searchId }, query: { limit: 10, offset, profile: false } } });
    if (!page.data) throw new Error(`list_search_people failed: ${page.error?.error.code}`);
    if (page.data.data.people.length === 0) break;
    people.push(...page.data.data.people.map((p) => ({ id: p.id, score: p.score })));
  }

  const shortlist = await client.GET('/projects/{projectId}/shortlist', { params: { path: { projectId } } });
  if (!shortlist.data) throw new Error(`get_shortlist failed: ${shortlist.error?.error.code}`);
  return { searchId, status, people, shortlisted: shortlist.data.data.map((m) => m.candidate_id), total: shortlist.data.meta.total };
}
