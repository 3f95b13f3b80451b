import { distanceKm } from '../../src/reference/gazetteer';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { createProject, launch, waitForSearch } from '../support/searches';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * Lookalike searches (criteria `like`, DESIGN.md §13) on the built-in corpus: the examples'
 * occupation, places and the rest become the search's criteria, a similarity signal ranks, and
 * nobody the project already has is delivered again.
 */

let stack: TestStack;
let caller: KeyFixture;
let projectId: string;
let first: any;

const get = (path: string) => stack.request('GET', path, { headers: caller.headers });
const peopleOf = async (searchId: string) => (await get(`/v1/searches/${searchId}/people?limit=100`)).body.data.people as any[];

beforeAll(async () => {
  stack = await startTestStack();
  caller = await workspaceWithKey(stack.db, { credits: 10 });
  projectId = await createProject(stack, caller.headers, 'Lookalikes');
  const res = await launch(stack, caller.headers, projectId, {
    criteria: {
      family: 'software_engineering',
      titles: ['Backend Engineer'],
      metro: 'san-francisco-bay-area',
      read_budget: 8,
      target: 8,
      shortlist_threshold: 0,
    },
  });
  first = await waitForSearch(stack, caller.headers, res.body.data.id);
}, 120_000);
afterAll(() => stack.stop());

it('derives its criteria from three people and ranks people of their occupation and place first, never one the project has', async () => {
  const seen = await peopleOf(first.id);
  expect(seen.length).toBeGreaterThan(5);
  // Three backend engineers around San Francisco from the first search.
  const examples = seen.filter((p) => p.profile?.occupation?.onet_code === '15-1252.00').slice(0, 3);
  expect(examples).toHaveLength(3);
  const res = await launch(stack, caller.headers, projectId, {
    criteria: { like: examples.map((p) => p.id), read_budget: 40, target: 20, shortlist_threshold: 0 },
  });
  expect(res.status).toBe(201);
  const criteria = res.body.data.criteria;
  expect(criteria.like).toEqual(examples.map((p) => p.id));
  expect(criteria.occupations[0]).toBe('15-1252.00');
  expect(criteria.family).toBe('software_engineering');
  expect(criteria.places.length).toBeGreaterThan(0);
  expect(criteria.likeness).toMatchObject({ examples: 3, occupations: ['15-1252.00'] });

  const search = await waitForSearch(stack, caller.headers, res.body.data.id);
  expect(search.status).toBe('complete');
  const people = await peopleOf(search.id);
  expect(people.length).toBeGreaterThan(3);
  // Nobody the first search delivered comes again.
  const before = new Set(seen.map((p) => p.profile?.id ?? p.name));
  expect(people.filter((p) => before.has(p.profile?.id ?? '')).map((p) => p.name)).toEqual([]);
  // The best are of the examples' occupation, near where they are, and say how alike they are.
  const top = people.slice(0, 3);
  for (const p of top) {
    expect(p.profile.occupation.onet_code).toBe('15-1252.00');
    const l = p.profile.location;
    expect(criteria.places.some((pl: any) => distanceKm(pl.lat, pl.lon, l.lat, l.lon) <= 2 * pl.radius_km)).toBe(true);
    expect(p.score_breakdown.find((b: any) => b.criterion === 'similarity').reason).toMatch(/^like 3 examples/);
  }
}, 180_000);

it('refuses candidates that are not the workspace’s, with a clear 400', async () => {
  const other = await workspaceWithKey(stack.db, { credits: 2 });
  const otherProject = await createProject(stack, other.headers, 'Elsewhere');
  const [someone] = await peopleOf(first.id);
  const res = await launch(stack, other.headers, otherProject, { criteria: { like: [someone.id] } });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('invalid_criteria');
  expect(res.body.error.message).toContain(`like: no candidate ${someone.id}`);
  const bad = await launch(stack, caller.headers, projectId, { criteria: { like: ['not-a-uuid'] } });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body.error)).toContain('like');
});
