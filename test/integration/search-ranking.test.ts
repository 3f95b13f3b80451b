import { randomUUID } from 'node:crypto';
import type { ResolvedCriteria } from '../../src/domain/criteria';
import { parseCriteria } from '../../src/domain/criteria';
import type { PersonProfile } from '../../src/domain/profile';
import { scoreProfile } from '../../src/domain/scoring';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';
import { createProject, launch, waitForSearch } from '../support/searches';

/**
 * Candidate retrieval best first (issue: "a pass reads the freshest people rather than the
 * best"): a database pass must read people in the order of the score they will get, so the read
 * budget and the early stop at the target go to the best people of the whole corpus. Checked
 * against the scorer run over every person of the test corpus, independently of the ranking SQL.
 */

let stack: TestStack;
let caller: KeyFixture;
beforeAll(async () => {
  stack = await startTestStack({ worker: true });
  caller = await workspaceWithKey(stack.db, { credits: 20 });
});
afterAll(() => stack?.stop());

/** Every person's score for the criteria, best first (the scorer over the stored profiles). */
async function corpusScores(criteria: ResolvedCriteria): Promise<{ id: string; score: number }[]> {
  const rows: { id: string; profile: PersonProfile }[] = await stack.db('people_profiles').select('id', 'profile');
  return rows.map((r) => ({ id: r.id, score: scoreProfile(r.profile, criteria).score })).sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

async function readOrder(searchId: string, pass = 1): Promise<{ person_id: string; score: number }[]> {
  return stack.db('search_people').where({ search_id: searchId, pass, status: 'scored' }).orderBy('seq').select('person_id', 'score');
}

const resolved = (c: unknown) => {
  const parsed = parseCriteria(c);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.criteria;
};

describe('a database pass reads the best people first', () => {
  it.each([
    [
      'title, seniority and skills, no place',
      { family: 'software_engineering', titles: ['Backend Engineer'], seniority: ['senior'], skills: ['Go', 'PostgreSQL'] },
    ],
    ['a title alias and a metro', { family: 'software_engineering', titles: ['Server-side Developer'], metro: 'new-york-city', years_experience: { min: 5 } }],
    ['skills only', { skills: ['Python', 'SQL', 'Tableau'] }],
  ])('%s', async (_name, base) => {
    const criteria = { ...base, target: 8, read_budget: 60, shortlist_threshold: 0, mode: 'database_only' };
    const project = await createProject(stack, caller.headers);
    const res = await launch(stack, caller.headers, project, { criteria });
    expect(res.status).toBe(201);
    const done = await waitForSearch(stack, caller.headers, res.body.data.id);
    expect(done.stop_reason).toBe('target_reached');
    const read = await readOrder(res.body.data.id);
    // Threshold 0: the first 8 read are shortlisted and the pass stops there.
    expect(read).toHaveLength(8);
    // In the order of their scores…
    const scores = read.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // …and they are the best of the whole corpus (ties may be any of the tied people).
    const best = (await corpusScores(resolved(criteria))).slice(0, 8).map((r) => r.score);
    expect(scores).toEqual(best);
  });

  it('an expansion reads its broadened criteria best first too', async () => {
    // Threshold 100: nobody fills the shortlist, so each pass reads its whole budget.
    const criteria = {
      family: 'data_science',
      titles: ['Data Scientist'],
      metro: 'london',
      target: 4,
      read_budget: 20,
      shortlist_threshold: 100,
      mode: 'database_only',
    };
    const project = await createProject(stack, caller.headers);
    const res = await launch(stack, caller.headers, project, { criteria });
    await waitForSearch(stack, caller.headers, res.body.data.id);
    const expanded = await stack.request('POST', `/v1/projects/${project}/expand`, {
      headers: { ...caller.headers, 'Idempotency-Key': `ex-${randomUUID()}` },
      body: {},
    });
    expect(expanded.status).toBeLessThan(300);
    await waitForSearch(stack, caller.headers, res.body.data.id);
    const scores = (await readOrder(res.body.data.id, 2)).map((r) => r.score);
    expect(scores.length).toBeGreaterThan(0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});
