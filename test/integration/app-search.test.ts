import type { Browser } from 'playwright-core';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-fake';
import { cspViolations, openApp, screenshot, signInThroughApp, startAppStack } from '../support/app-browser';
import { launchChromium } from '../support/browser';
import { createProject, launch, softwareCriteria, waitForSearch } from '../support/searches';
import { workspaceWithMembers } from '../support/session';
import type { TestStack } from '../support/stack';

/**
 * The web app at /app in Debian's Chromium (playwright-core), against the real stack: API and
 * worker in this process, Postgres, Temporal, and a local OpenAI-compatible fake for intake.
 */

let openai: OpenAiFake;
let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  openai = await startOpenAiFake();
  openai.answer = {
    family: 'Software Engineering',
    titles: ['Backend Engineer'],
    skills: ['TypeScript', 'PostgreSQL'],
    _meta: { confidence: { family: 0.9, titles: 0.95, skills: 0.85 } },
  };
  stack = await startAppStack({ env: { OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-fake-good-key' } });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await openai?.close();
});

it('sign in → project → intake → launch → live progress → a person → shortlist → the share link without a session', async () => {
  const ws = await workspaceWithMembers(stack, { credits: 5 });
  const { context, page, problems } = await openApp(browser, stack);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
  await signInThroughApp(page, ws.operator.email);

  await page.getByLabel('New project name').fill('Backend hiring');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { level: 1, name: 'Backend hiring' }).waitFor();
  // An empty shortlist warns before the link is shared.
  await page.getByText('The shortlist is empty').waitFor();

  await page.getByLabel('Who are you looking for?').fill('Senior backend engineer, TypeScript and PostgreSQL');
  await page.getByRole('button', { name: 'Read criteria' }).click();
  const titleChip = page.locator('[data-chip="job_title"]');
  await titleChip.waitFor();
  expect(await titleChip.textContent()).toBe('Job title: 95% confident');
  expect(await page.getByTestId('reader').textContent()).toMatch(/^Read by the language model/);
  expect(await page.locator('[data-chip="location"]').textContent()).toBe('Location: missing (required)');
  expect(await page.getByLabel('Job titles (comma-separated)').inputValue()).toBe('Backend Engineer');
  await page.getByLabel('People to shortlist (target)').fill('5');
  await page.getByLabel('Profiles to read at most').fill('40');
  const cost = page.getByTestId('launch-cost');
  await cost.getByText('your balance: 5 credits').waitFor();
  expect(await cost.textContent()).toContain('Launching uses 1 shortlist credit');

  let navigations = 0;
  await page.getByRole('button', { name: 'Launch search' }).click();
  await page.waitForURL(/\/app\/searches\/[0-9a-f-]{36}$/);
  page.on('framenavigated', (f) => f === page.mainFrame() && navigations++);
  const searchId = page.url().split('/').pop()!;
  // The workflow's progress arrives by polling: the page reaches "complete" without a reload.
  await page.getByTestId('search-progress').locator('.status.complete').waitFor({ timeout: 90_000 });
  expect(navigations).toBe(0);
  const done = (await stack.request('GET', `/v1/searches/${searchId}`, { headers: ws.headers })).body.data;
  expect(done.status).toBe('complete');
  expect(await page.getByTestId('search-progress').textContent()).toContain(`${done.profiles_read} read`);
  expect(done.criteria).toMatchObject({ family: 'software_engineering', titles: ['Backend Engineer'], target: 5, read_budget: 40 });

  // People, best first, with the score breakdown and its reasons.
  await screenshot(page, 'app-search-progress');
  const people = page.locator('ol.people > li');
  await people.first().waitFor();
  const first = people.first();
  const name = (await first.locator('button.link').textContent())!;
  const topScore = Number(await first.locator('.score').textContent());
  await first.locator('button.link').click();
  const breakdown = page.getByRole('region', { name: `${name}: score breakdown` });
  await breakdown.waitFor();
  expect(await breakdown.locator('tbody tr').count()).toBeGreaterThan(0);
  expect((await breakdown.locator('tbody tr td').last().textContent())!.length).toBeGreaterThan(0);

  // The minimum score filter: only people at or above it remain.
  await page.getByLabel('Minimum score').fill(String(topScore));
  await page.waitForFunction(
    (min) => [...(globalThis as any).document.querySelectorAll('ol.people .score')].every((el: any) => Number(el.textContent) >= min),
    topScore,
  );

  // The search reached its target: the people it delivered are on the shortlist already.
  await first.getByText('On the shortlist').waitFor();
  const searchUrl = page.url();

  // Shortlist editing: remove them on the project page, add them back from the search.
  await page.getByRole('link', { name: '← Project' }).click();
  const shortlist = page.getByRole('list', { name: 'Shortlisted people' });
  await shortlist.getByText(name).waitFor();
  const listed = await shortlist.locator(':scope > li').count();
  expect(listed).toBe(done.shortlisted);
  await page.getByRole('button', { name: `Remove ${name} from the shortlist` }).click();
  await page.getByText(`${listed - 1} ${listed - 1 === 1 ? 'person' : 'people'} on the shortlist.`).waitFor();
  expect(await shortlist.getByText(name).count()).toBe(0);
  await page.goto(searchUrl);
  await page.getByRole('button', { name: `Add ${name} to the shortlist` }).click();
  await page.locator('ol.people > li', { hasText: name }).getByText('On the shortlist').waitFor();

  await page.getByRole('link', { name: '← Project' }).click();
  await shortlist.getByText(name).waitFor();
  await page.getByText(`${listed} people on the shortlist.`).waitFor();
  expect(await page.getByText('The shortlist is empty').count()).toBe(0);
  const shareUrl = await page.getByTestId('share-url').inputValue();
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.getByText('Copied.').waitFor();
  expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(shareUrl);
  await screenshot(page, 'app-search');

  // The share link in a second context: no session, no cookie.
  const anonymous = await browser.newContext();
  const sharePage = await anonymous.newPage();
  expect((await anonymous.cookies()).length).toBe(0);
  await sharePage.goto(shareUrl);
  expect(await sharePage.locator('h1').textContent()).toBe('Backend hiring');
  expect(await sharePage.locator('#members li .name').allTextContents()).toHaveLength(listed);
  expect(await sharePage.locator('#members li .name').allTextContents()).toContain(name);
  await screenshot(sharePage, 'app-share-link');
  await anonymous.close();

  expect(cspViolations(problems)).toEqual([]);
  await context.close();
}, 180_000);

it('a viewer sees no write buttons and a forced write is refused; the pages fit 390 px', async () => {
  const ws = await workspaceWithMembers(stack, { credits: 2 });
  const projectId = await createProject(stack, ws.headers, 'Viewed project');
  const searched = await launch(stack, ws.headers, projectId, { criteria: { ...softwareCriteria, read_budget: 20 } });
  await waitForSearch(stack, ws.headers, searched.body.data.id);

  const { context, page, problems } = await openApp(browser, stack, 390);
  await signInThroughApp(page, ws.viewer.email);
  expect(await page.getByTestId('role').textContent()).toBe('viewer');
  await page.getByRole('link', { name: 'Viewed project' }).click();
  await page.getByRole('heading', { level: 1, name: 'Viewed project' }).waitFor();
  await page.getByRole('heading', { name: 'Shortlist' }).waitFor();
  await page.getByTestId('share-url').waitFor();
  expect(await page.getByRole('button', { name: 'Create project' }).count()).toBe(0);
  expect(await page.getByRole('heading', { name: 'New search' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Read criteria' }).count()).toBe(0);

  await page.goto(`/app/searches/${searched.body.data.id}`);
  await page.getByRole('list', { name: 'People, best score first' }).locator('li').first().waitFor();
  expect(await page.getByRole('button', { name: /to the shortlist$/ }).count()).toBe(0);
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'app-viewer-390px');

  await page.goto('/app/webhooks');
  await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  expect(await page.getByRole('button', { name: 'Create webhook' }).count()).toBe(0);
  await page.goto('/app/billing');
  await page.getByTestId('balance').waitFor();
  expect(await page.getByRole('button', { name: 'Buy credits' }).count()).toBe(0);

  // The buttons are hidden, and the server refuses the write anyway.
  const forced = await page.evaluate(async (id) => {
    const res = await fetch(`/api/v1/projects/${id}/shortlist/members`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ candidate_ids: [crypto.randomUUID()] }),
    });
    return { status: res.status, body: await res.json() };
  }, projectId);
  expect(forced).toEqual({ status: 403, body: { error: 'This needs the operator role; you are viewer', code: 'forbidden' } });

  // A 5xx shows its message and a Retry button (after the query's own two retries): here the
  // browser answers the usage request with a 500 until the button is pressed.
  let failing = true;
  await page.route('**/api/v1/usage', (route) =>
    failing ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Database hiccup' }) }) : route.continue(),
  );
  await page.getByRole('link', { name: 'Usage' }).click();
  await page.getByText('Database hiccup').waitFor();
  failing = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await page.getByTestId('usage-chart').waitFor();

  // The session ends (cookie gone): the next request's 401 brings back the sign-in form.
  await context.clearCookies();
  await page.getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  expect(cspViolations(problems)).toEqual([]);
  await context.close();
}, 120_000);

it('a frozen workspace shows the banner, hides every write and refuses a forced one', async () => {
  const ws = await workspaceWithMembers(stack, { credits: 2, workspace: { frozen: true } });
  const { context, page, problems } = await openApp(browser, stack);
  await signInThroughApp(page, ws.admin.email);
  await page.getByText('This workspace is frozen: everything is read-only.').waitFor();
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  await page.getByText('This workspace is frozen: it is read-only').first().waitFor();
  expect(await page.getByRole('button', { name: 'Create project' }).count()).toBe(0);
  await page.goto('/app/webhooks');
  await page.getByText('This workspace is frozen: it is read-only').first().waitFor();
  expect(await page.getByRole('button', { name: 'Create webhook' }).count()).toBe(0);
  const forced = await page.evaluate(async () => {
    const res = await fetch('/api/v1/projects', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'x' }) });
    return { status: res.status, body: await res.json() };
  });
  expect(forced).toEqual({ status: 403, body: { error: 'This workspace is frozen', code: 'frozen' } });
  await screenshot(page, 'app-frozen');
  expect(cspViolations(problems)).toEqual([]);
  await context.close();
}, 90_000);

it('watch this search: a cadence, the status with its next run, pause and resume, stop watching', async () => {
  const ws = await workspaceWithMembers(stack, { credits: 2 });
  const projectId = await createProject(stack, ws.headers);
  const search = await waitForSearch(stack, ws.headers, (await launch(stack, ws.headers, projectId, { criteria: softwareCriteria })).body.data.id);
  const { context, page, problems } = await openApp(browser, stack);
  await signInThroughApp(page, ws.operator.email, undefined, `/app/searches/${search.id}`);
  const watch = page.getByTestId('watch-search');
  await watch.getByLabel('Run it').selectOption('week');
  await watch.getByRole('button', { name: 'Watch this search' }).click();
  const status = watch.getByTestId('monitor-status');
  await status.getByText(/^Watching every week; next run /).waitFor();
  const [monitor] = (await stack.request('GET', `/v1/projects/${projectId}/monitors`, { headers: ws.headers })).body.data;
  expect(monitor).toMatchObject({ search_id: search.id, every: 'week', status: 'active' });
  await screenshot(page, 'app-watch-search');

  await watch.getByRole('button', { name: 'Pause' }).click();
  await status.getByText(/^Paused\./).waitFor();
  expect((await stack.request('GET', `/v1/monitors/${monitor.id}`, { headers: ws.headers })).body.data).toMatchObject({
    status: 'paused',
    paused_reason: 'manual',
  });
  await watch.getByRole('button', { name: 'Resume' }).click();
  await status.getByText(/^Watching every week/).waitFor();
  await watch.getByLabel('Run it').selectOption('day');
  await status.getByText(/^Watching every day/).waitFor();
  await watch.getByRole('button', { name: 'Stop watching' }).click();
  await watch.getByRole('button', { name: 'Watch this search' }).waitFor();
  expect((await stack.request('GET', `/v1/monitors/${monitor.id}`, { headers: ws.headers })).status).toBe(404);
  expect(cspViolations(problems)).toEqual([]);
  await context.close();
}, 90_000);

it('rates a person from the search page and starts "more like these" from two picked people', async () => {
  const ws = await workspaceWithMembers(stack, { credits: 3 });
  const projectId = await createProject(stack, ws.headers);
  const search = await waitForSearch(stack, ws.headers, (await launch(stack, ws.headers, projectId, { criteria: softwareCriteria })).body.data.id);
  const people = (await stack.request('GET', `/v1/searches/${search.id}/people?limit=2`, { headers: ws.headers })).body.data.people;
  expect(people).toHaveLength(2);
  const { context, page, problems } = await openApp(browser, stack);
  await signInThroughApp(page, ws.operator.email, undefined, `/app/searches/${search.id}`);

  // A rating goes to the search's feedback (the calibration follows on its own).
  await page.getByRole('button', { name: `Good fit: ${people[0].name}` }).click();
  await page.getByRole('button', { name: `Good fit: ${people[0].name}`, pressed: true }).waitFor();
  const rated = (await stack.request('GET', `/v1/searches/${search.id}/feedback`, { headers: ws.headers })).body.data;
  expect(rated).toMatchObject([{ candidate_id: people[0].id, verdict: 'good' }]);

  for (const p of people) await page.getByLabel(`Pick ${p.name} as an example`).check();
  await page.getByRole('button', { name: 'More like these (2)' }).click();
  await page.waitForURL((url) => /\/app\/searches\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(search.id));
  const lookalikeId = new URL(page.url()).pathname.split('/').pop()!;
  const lookalike = (await stack.request('GET', `/v1/searches/${lookalikeId}`, { headers: ws.headers })).body.data;
  expect(lookalike.project_id).toBe(projectId);
  expect(lookalike.criteria.like).toEqual(people.map((p: { id: string }) => p.id));
  expect(cspViolations(problems)).toEqual([]);
  await context.close();
}, 90_000);
