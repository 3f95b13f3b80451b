/**
 * The typical flow with the SDK: create a project, launch a search, wait for it, page its scored
 * people and shortlist the best three. Against `npm run dev`:
 *
 *   SOURCING_API_KEY=<key> npx tsx sdk/examples/launch-and-read.ts
 *
 * (SOURCING_BASE_URL defaults to http://localhost:3000/v1.) Prints one JSON line with the result;
 * the search itself may already have shortlisted people above its threshold.
 */
import { createClient, SourcingApiError, type Person } from '../src';

async function main(): Promise<void> {
  const client = createClient();
  const project = await client.createProject('SDK example');
  // No idempotency key given: the SDK makes one, and a retry of this launch reuses it.
  const launched = await client.launchSearch(project.id, {
    criteria: { family: 'software_engineering', skills: ['TypeScript'], read_budget: 40, target: 5, shortlist_threshold: 40 },
  });
  const search = await client.waitForSearch(launched.id, { timeoutMs: 120_000 });

  const people: Person[] = [];
  for await (const person of client.people(search.id, { pageSize: 10, profile: false })) people.push(person);

  const best = people.slice(0, 3).map((p) => p.id);
  if (best.length) await client.addToShortlist(project.id, best);
  const shortlist = await client.getShortlist(project.id);

  process.stdout.write(
    `${JSON.stringify({ project_id: project.id, search_id: search.id, status: search.status, people: people.length, added: best, shortlisted: shortlist.map((m) => m.candidate_id) })}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(err instanceof SourcingApiError ? `${err.code}: ${err.message} (request ${err.requestId})\n` : `${String(err)}\n`);
  process.exit(1);
});
