import fs from 'node:fs';
import { startWorker, type WorkerHandle } from '../../activities/worker-process';
import { createLogger } from '../../src/logger';
import { waitFor } from '../../tools/dev/processes';
import { workspaceWithKey, type KeyFixture } from '../support/fixtures';
import { createProject, launch, waitForSearch } from '../support/searches';
import { startTestStack, workflowBundlePath, type TestStack } from '../support/stack';

/**
 * The calibration workflow end to end on the built-in corpus (DESIGN.md §13): ratings consistent
 * with a preference the criteria do not state move the people who have it up; contradicting
 * ratings cancel; ratings sent while no worker runs are all learned from once one is back; and
 * nothing learned by one search reaches another.
 */

let stack: TestStack;
let restarted: WorkerHandle | null = null;
beforeAll(async () => {
  stack = await startTestStack({ env: { CALIBRATION_QUIET_SECONDS: '1' } });
});
afterAll(async () => {
  await restarted?.shutdown();
  await stack.stop();
});

// A high threshold, so re-scoring moves people off the list and the list changes.
const criteria = { family: 'software_engineering', read_budget: 80, target: 10, shortlist_threshold: 90 };

interface Person {
  id: string;
  score: number;
  score_breakdown: { criterion: string; reason: string }[];
  profile: { industry: string; seniority: string; occupation?: { onet_code: string } };
}

const get = (f: KeyFixture, path: string) => stack.request('GET', `/v1${path}`, { headers: f.headers });
const peopleOf = async (f: KeyFixture, searchId: string): Promise<Person[]> => (await get(f, `/searches/${searchId}/people?limit=500`)).body.data.people;
const rate = (f: KeyFixture, searchId: string, ratings: { candidate_id: string; verdict: 'good' | 'bad' }[]) =>
  stack.request('POST', `/v1/searches/${searchId}/feedback`, { headers: f.headers, body: { ratings } });

async function completedSearch(f: KeyFixture, projectId?: string, body = criteria) {
  const project = projectId ?? (await createProject(stack, f.headers));
  return waitForSearch(stack, f.headers, (await launch(stack, f.headers, project, { criteria: body })).body.data.id);
}

/** Waits until the search learned from `ratings` ratings and its calibration pass ended. */
async function calibrated(f: KeyFixture, searchId: string, ratings: number, timeoutMs = 90_000) {
  let record: any;
  await waitFor(
    `calibration of ${ratings} ratings`,
    async () => {
      record = (await get(f, `/searches/${searchId}`)).body.data;
      return record.calibration?.ratings === ratings && record.status === 'complete' && record.last_pass?.kind === 'calibration';
    },
    timeoutMs,
    200,
  );
  return record;
}

const shareIn = (people: Person[], industry: string, n: number) => people.slice(0, n).filter((p) => p.profile.industry === industry).length / n;

describe('calibration', () => {
  it('moves people with the preferred industry up, reads on under it, and keeps it to its own search', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 5 });
    const project = await createProject(stack, f.headers);
    const control = await completedSearch(f, project);
    const controlPeople = await peopleOf(f, control.id);
    const search = await completedSearch(f, project);
    const before = await peopleOf(f, search.id);
    const balance = (await get(f, '/billing/balance')).body.data;

    // The hidden preference: an industry common among the people read but rare at the top.
    const counts = new Map<string, number>();
    for (const p of before) counts.set(p.profile.industry, (counts.get(p.profile.industry) ?? 0) + 1);
    const industry = [...counts.entries()].sort((a, b) => b[1] - a[1]).find(([i, n]) => n >= 5 && shareIn(before, i, 10) <= 0.3)![0];
    // What a recruiter sees first, and a few more people of the industry further down.
    const seen = [
      ...before.slice(0, 16),
      ...before
        .slice(16)
        .filter((p) => p.profile.industry === industry)
        .slice(0, 4),
    ];
    const res = await rate(
      f,
      search.id,
      seen.map((p) => ({ candidate_id: p.id, verdict: p.profile.industry === industry ? 'good' : 'bad' })),
    );
    expect(res.status).toBe(200);

    const record = await calibrated(f, search.id, seen.length);
    expect(record.calibration.preferred[0]).toMatchObject({ kind: 'industry', value: industry });
    expect(record.calibration.share).toBeGreaterThan(0.05);
    expect(record).toMatchObject({ passes: 2, last_pass: { pass: 2, kind: 'calibration', status: 'complete' } });
    expect(record.delivered).toBeGreaterThan(search.delivered); // read on
    const after = await peopleOf(f, search.id);
    expect(shareIn(after, industry, 10)).toBeGreaterThan(shareIn(before, industry, 10));
    expect(shareIn(after, industry, 10)).toBeGreaterThanOrEqual(0.8);
    const liked = after.find((p) => p.profile.industry === industry && !seen.some((s) => s.id === p.id))!;
    expect(liked.score_breakdown.find((c) => c.criterion === 'calibration')!.reason).toMatch(
      new RegExp(`^like \\d+ (person|people) you rated good: .*${industry}`),
    );

    // Its events: the re-score's list change (source feedback) and the pass's completion. No credit.
    const events = await stack.db('outbox_events').whereRaw("data->>'search_id' = ?", [search.id]).select('type', 'data');
    expect(events.filter((e) => e.type === 'search.completed')).toHaveLength(2);
    const changes = events.filter((e) => e.type === 'shortlist.changed' && e.data.source === 'feedback');
    expect(changes.map((e) => e.data.kind)).toContain('rescored');
    expect((await get(f, '/billing/balance')).body.data).toEqual(balance);
    const shortlist = (await get(f, `/projects/${project}/shortlist`)).body.data;
    expect(shortlist.length).toBeGreaterThan(0);

    // The other search of the project learned nothing.
    expect((await get(f, `/searches/${control.id}`)).body.data.calibration).toBeNull();
    expect(await peopleOf(f, control.id)).toEqual(controlPeople);
    // Nothing new to learn: the workflow ended, the next rating starts it again.
    const handle = stack.temporal.client.workflow.getHandle(`calibration-${search.id}`);
    await waitFor('calibration workflow ended', async () => (await handle.describe()).status.name === 'COMPLETED', 30_000, 200);
  });

  it('cancels contradicting ratings: people alike rated both ways teach nothing, scores stay', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 5 });
    // Everyone the read budget allows, for people alike.
    const search = await completedSearch(f, undefined, { ...criteria, target: 200, shortlist_threshold: 70 });
    const before = await peopleOf(f, search.id);
    // Pairs alike in industry, level and occupation: one rated good, the other not a fit. (Alike in
    // industry alone, a pair still differs in level or occupation, which a draw of the corpus can
    // make look telling.)
    const groups = new Map<string, Person[]>();
    for (const p of before) {
      const key = [p.profile.industry, p.profile.seniority, p.profile.occupation?.onet_code].join('|');
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    const pairs = [...groups.values()].flatMap((g) => Array.from({ length: Math.floor(g.length / 2) }, (_, i) => g.slice(2 * i, 2 * i + 2))).slice(0, 10);
    expect(pairs.length).toBeGreaterThanOrEqual(4);
    const ratings = pairs.flatMap(([a, b]) => [
      { candidate_id: a.id, verdict: 'good' as const },
      { candidate_id: b.id, verdict: 'bad' as const },
    ]);
    expect((await rate(f, search.id, ratings)).status).toBe(200);

    const record = await calibrated(f, search.id, ratings.length);
    expect(record.calibration.share).toBeLessThan(0.05);
    const industries = [...record.calibration.preferred, ...record.calibration.avoided].filter((x: { kind: string }) => x.kind === 'industry');
    for (const v of industries) expect(Math.abs(v.weight)).toBeLessThan(0.25);
    const after = new Map((await peopleOf(f, search.id)).map((p) => [p.id, p.score]));
    const moved = before.map((p) => Math.abs(after.get(p.id)! - p.score));
    expect(Math.max(...moved)).toBeLessThanOrEqual(3);
  });

  it('learns from every rating sent while no worker ran, once one is back', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 5 });
    const search = await completedSearch(f);
    const people = await peopleOf(f, search.id);
    await stack.worker!.shutdown();
    for (let batch = 0; batch < 3; batch++) {
      const ratings = people.slice(batch * 3, batch * 3 + 3).map((p, i) => ({ candidate_id: p.id, verdict: i === 0 ? ('good' as const) : ('bad' as const) }));
      expect((await rate(f, search.id, ratings)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
    }
    await new Promise((r) => setTimeout(r, 2500)); // well past the quiet period: nobody to learn
    expect((await get(f, `/searches/${search.id}`)).body.data.calibration).toBeNull();

    restarted = await startWorker({
      config: stack.config,
      db: stack.db,
      logger: createLogger('warn', 'test'),
      workflowBundle: { code: fs.readFileSync(workflowBundlePath(), 'utf8') },
    });
    const record = await calibrated(f, search.id, 9);
    expect(record.calibration).toMatchObject({ ratings: 9, good: 3, bad: 6 });
  });
});
