import type { Browser } from 'playwright-core';
import { cspViolations, openApp, screenshot, signInThroughApp, startAppStack } from '../support/app-browser';
import { launchChromium } from '../support/browser';
import { createProject } from '../support/searches';
import { workspaceWithMembers } from '../support/session';
import type { TestStack } from '../support/stack';

/**
 * The web app on the embedded default (`npm run dev` without any provider key): no language
 * model, no contact data, no live profile source. The new search reads the brief with the
 * built-in reader, and the campaigns page shows the outreach that is not configured.
 */

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startAppStack({ env: { OPENAI_API_KEY: '', HUNTER_API_KEY: '', PEOPLEDATALABS_API_KEY: '', BRAVE_API_KEY: '' } });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

it('sign in → project → brief → built-in reader → edit the form (a refused value shown at its field) → launch → progress → a scored person', async () => {
  const ws = await workspaceWithMembers(stack, { credits: 3 });
  const { context, page, problems } = await openApp(browser, stack);
  await signInThroughApp(page, ws.operator.email);

  await page.getByLabel('New project name').fill('Berlin backend');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { level: 1, name: 'Berlin backend' }).waitFor();

  await page.getByLabel('Who are you looking for?').fill('Senior backend engineer in Berlin, 5+ years of TypeScript and PostgreSQL');
  await page.getByRole('button', { name: 'Read criteria' }).click();
  // Intake answered 424 llm_not_configured; the app read the brief with the built-in reader and says so.
  await page.getByTestId('reader').getByText('Read by the built-in reader').waitFor();
  expect(await page.locator('[data-chip="location"]').textContent()).toMatch(/^Location: \d+% confident$/);
  expect(await page.locator('[data-chip="job_title"]').textContent()).toMatch(/^Job title: \d+% confident$/);
  // The criteria as a form: family selected and the metro chosen from the reference lists, the rest filled in.
  expect(await page.getByLabel('Role family').inputValue()).toBe('software_engineering');
  await page.getByRole('list', { name: 'Chosen places' }).locator('li[data-place="metro:berlin"]', { hasText: 'Berlin' }).waitFor();
  expect(await page.getByLabel('Minimum years of experience').inputValue()).toBe('5');
  const skills = page.getByRole('list', { name: 'Skills', exact: true });
  await skills.getByText('TypeScript').waitFor();

  // Edits: a skill from the reference names, the target, the read budget; and a refused range.
  await page.getByLabel('Skill name', { exact: true }).fill('Docker');
  await page.getByRole('button', { name: 'Add skill', exact: true }).click();
  await skills.getByText('Docker').waitFor();
  await page.getByLabel('People to shortlist (target)').fill('5');
  await page.getByLabel('Profiles to read at most').fill('40');
  await page.getByLabel('Maximum years of experience').fill('3');
  const cost = page.getByTestId('launch-cost');
  await cost.getByText('your balance: 3 credits').waitFor();
  await page.getByRole('button', { name: 'Launch search' }).click();
  // The server's invalid_criteria problem is shown next to the field it names; nothing was launched.
  const yearsProblem = page.locator('[data-problem-for="years_experience"]');
  await yearsProblem.waitFor();
  expect(await yearsProblem.textContent()).toBe('min (5) must not be greater than max (3)');
  expect(await page.getByLabel('Maximum years of experience').getAttribute('aria-invalid')).toBe('true');
  await page.getByText('The criteria need a change before launching').waitFor();
  await screenshot(page, 'app-offline-criteria-problem');
  expect((await stack.request('GET', '/api/scans', { headers: ws.viewer.headers })).body.scans).toEqual([]);

  await page.getByLabel('Maximum years of experience').fill('');
  await page.getByRole('button', { name: 'Launch search' }).click();
  await page.waitForURL(/\/app\/searches\/[0-9a-f-]{36}$/);
  const searchId = page.url().split('/').pop()!;
  const launched = (await stack.request('GET', `/v1/searches/${searchId}`, { headers: ws.headers })).body.data;
  expect(launched.criteria).toMatchObject({ family: 'software_engineering', metro: 'berlin', years_experience: { min: 5 }, target: 5, read_budget: 40 });
  expect(launched.criteria.skills).toEqual(expect.arrayContaining(['TypeScript', 'PostgreSQL', 'Docker']));
  expect(launched.source).toBe('database');

  // Live progress, then the first scored person, with the breakdown of their score.
  await page.getByTestId('search-progress').locator('.status.complete').waitFor({ timeout: 90_000 });
  const first = page.locator('ol.people > li').first();
  await first.waitFor();
  const name = (await first.locator('button.link').textContent())!;
  expect(Number(await first.locator('.score').textContent())).toBeGreaterThan(0);
  await first.locator('button.link').click();
  await page.getByRole('region', { name: `${name}: score breakdown` }).waitFor();
  const done = (await stack.request('GET', `/v1/searches/${searchId}`, { headers: ws.headers })).body.data;
  expect(done.delivered).toBeGreaterThan(0);
  expect(await page.getByTestId('search-progress').textContent()).toContain(`${done.profiles_read} read`);
  await screenshot(page, 'app-offline-search');
  expect(cspViolations(problems)).toEqual([]);
  await context.close();
}, 180_000);

it('campaigns: create, publish, launch → the 424 and 409 answers as messages; a viewer and a frozen workspace see no write control', async () => {
  const ws = await workspaceWithMembers(stack);
  const projectId = await createProject(stack, ws.headers, 'Outreach project');
  const { context, page, problems } = await openApp(browser, stack);
  await signInThroughApp(page, ws.operator.email);
  await page.getByRole('link', { name: 'Campaigns' }).click();
  await page.getByRole('heading', { level: 1, name: 'Campaigns' }).waitFor();
  await page.getByText('No campaigns yet.').waitFor();

  const create = async (name: string, channel: 'email' | 'social', project?: string) => {
    await page.getByLabel('Campaign name').fill(name);
    await page.getByLabel('Channel').selectOption(channel);
    await page.getByLabel('Project (optional)').selectOption(project ?? '');
    await page.getByRole('button', { name: 'Create campaign' }).click();
    const item = page.locator('ul[aria-label="Campaigns"] > li', { hasText: name });
    await item.getByTestId('campaign-status').getByText('draft').waitFor();
    return item;
  };
  const email = await create('Berlin email outreach', 'email', projectId);
  await email.getByRole('link', { name: 'Outreach project' }).waitFor();

  // Launching a draft: the server's 409, as a message beside the campaign.
  await email.getByRole('button', { name: 'Launch Berlin email outreach' }).click();
  await email.getByRole('alert').getByText('Only a campaign in state awaiting_launch can be launched; this one is draft.').waitFor();
  await email.getByRole('button', { name: 'Publish Berlin email outreach' }).click();
  await email.getByTestId('campaign-status').getByText('awaiting launch').waitFor();
  expect(await email.getByRole('alert').count()).toBe(0);
  // No contact-data source: 424 emailoutreach_not_configured, said in words (an operator is sent to an admin).
  await email.getByRole('button', { name: 'Launch Berlin email outreach' }).click();
  await email.getByRole('alert').getByText('Email outreach is not set up: it needs a Hunter (contact data) credential. Ask an admin to add one.').waitFor();

  const social = await create('Social outreach', 'social');
  await social.getByRole('button', { name: 'Publish Social outreach' }).click();
  await social.getByTestId('campaign-status').getByText('awaiting launch').waitFor();
  await social.getByRole('button', { name: 'Launch Social outreach' }).click();
  await social.getByRole('alert').getByText('Social outreach is not available').waitFor();
  await screenshot(page, 'app-campaigns');

  const rows = (await stack.request('GET', '/api/campaigns', { headers: ws.viewer.headers })).body.campaigns;
  expect(rows.map((c: { name: string; status: string; channel: string; project_id: string | null }) => [c.name, c.channel, c.status, c.project_id])).toEqual([
    ['Social outreach', 'social', 'awaiting_launch', null],
    ['Berlin email outreach', 'email', 'awaiting_launch', projectId],
  ]);
  await context.close();

  // A viewer reads the list, without a write control.
  const viewer = await openApp(browser, stack);
  await signInThroughApp(viewer.page, ws.viewer.email, undefined, '/app/campaigns');
  await viewer.page.locator('ul[aria-label="Campaigns"] > li').nth(1).waitFor();
  expect(await viewer.page.getByRole('button', { name: 'Create campaign' }).count()).toBe(0);
  expect(await viewer.page.getByRole('button', { name: /^(Publish|Launch) / }).count()).toBe(0);
  await viewer.context.close();

  // A frozen workspace: the read-only notice, and no write control either.
  const frozen = await workspaceWithMembers(stack, { workspace: { frozen: true } });
  const admin = await openApp(browser, stack);
  await signInThroughApp(admin.page, frozen.admin.email, undefined, '/app/campaigns');
  await admin.page.getByText('This workspace is frozen: it is read-only').first().waitFor();
  expect(await admin.page.getByRole('button', { name: 'Create campaign' }).count()).toBe(0);
  await admin.context.close();
  expect(cspViolations([...problems, ...viewer.problems, ...admin.problems])).toEqual([]);
}, 120_000);
