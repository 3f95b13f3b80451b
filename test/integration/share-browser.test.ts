import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { workspaceWithKey } from '../support/fixtures';
import { projectWithScoredPeople } from '../support/searches';
import { launchChromium } from '../support/browser';
import { startTestStack, type TestStack } from '../support/stack';

const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts');

/** Debian's Chromium, driven by playwright-core (installed by the test bootstrap). */
describe('the share page in a real browser', () => {
  let stack: TestStack;
  let browser: Browser;
  beforeAll(async () => {
    stack = await startTestStack();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows the members, and a member added through the API appears on reload', async () => {
    const fixture = await workspaceWithKey(stack.db, { credits: 3 });
    const { projectId, search } = await projectWithScoredPeople(stack, fixture.headers, { listed: 2, budget: 20, name: 'Browser check' });
    const { url } = (await stack.request('GET', `/v1/projects/${projectId}/share-link`, { headers: fixture.headers })).body.data;
    // The configured app URL is a public address; the browser opens the same path on this test server.
    const pageUrl = `${stack.url}${new URL(url).pathname}`;

    const page = await browser.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await page.goto(pageUrl);
    expect(await page.locator('h1').textContent()).toBe('Browser check');
    expect(await page.locator('#members li').count()).toBe(2);
    expect(await page.locator('#count').textContent()).toBe('2 people');

    const people = (await stack.request('GET', `/v1/searches/${search.id}/people?profile=false&limit=50`, { headers: fixture.headers })).body.data.people;
    const listed = new Set(await page.locator('#members li').evaluateAll((els) => els.map((e) => e.getAttribute('data-candidate-id'))));
    const newcomer = people.find((p: { id: string }) => !listed.has(p.id));
    await stack.request('POST', `/v1/projects/${projectId}/shortlist/members`, { headers: fixture.headers, body: { candidate_ids: [newcomer.id] } });

    await page.reload();
    expect(await page.locator('#members li').count()).toBe(3);
    expect(await page.locator(`li[data-candidate-id="${newcomer.id}"] .name`).textContent()).toBe(newcomer.name);
    const profileLink = page.locator(`li[data-candidate-id="${newcomer.id}"] a`);
    expect(await profileLink.getAttribute('href')).toMatch(/^https:\/\/network\.example\/in\//);
    expect(consoleErrors).toEqual([]); // e.g. no CSP violation for the stylesheet

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const shot = path.join(ARTIFACTS, 'share-page.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(fs.statSync(shot).size).toBeGreaterThan(5_000);
  }, 90_000);

  it('renders the API reference at /docs with Scalar from our own host, within its CSP', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    const foreign: string[] = [];
    page.on('request', (r) => !r.url().startsWith(stack.url) && !r.url().startsWith('data:') && !r.url().startsWith('blob:') && foreign.push(r.url()));
    await page.goto(`${stack.url}/docs`);
    // Scalar renders /v1/openapi.json client-side: the title and the tags of the operations.
    await page.getByRole('heading', { name: 'Candidate Sourcing API' }).first().waitFor({ timeout: 30_000 });
    for (const tag of ['Projects', 'Searches', 'Shortlist', 'Webhooks']) await page.getByText(tag, { exact: true }).first().waitFor({ timeout: 10_000 });
    expect(problems.filter((p) => /Content Security Policy|Refused/.test(p))).toEqual([]);
    expect(foreign).toEqual([]);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-page.png') });
  }, 60_000);
});
