import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { workspaceWithKey } from '../support/fixtures';
import { topUpGrants, workspaceCredits } from '../support/billing';
import { launchChromium } from '../support/browser';
import { startTestStack, type TestStack } from '../support/stack';
import { waitFor } from '../../tools/dev/processes';

const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts');

/** The test provider's checkout page in Debian's Chromium, driven by playwright-core. */
describe('the test checkout in a real browser', () => {
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

  it('pays with the "Pay (test mode)" button and grants exactly `shortlists` credits once, also when paid from two tabs', async () => {
    const f = await workspaceWithKey(stack.db, { credits: 2 });
    const { data } = (await stack.request('POST', '/v1/billing/top-up', { headers: f.headers, body: { amount_usd: 30 } })).body;
    expect(data.shortlists).toBe(7);
    // The configured app URL is a public address; the browser opens the same path on this test server.
    const pageUrl = `${stack.url}${new URL(data.url).pathname}`;

    const consoleErrors: string[] = [];
    const [first, second] = [await browser.newPage(), await browser.newPage()];
    for (const p of [first, second]) {
      p.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
      await p.goto(pageUrl);
    }
    expect(await first.locator('#amount').textContent()).toBe('$30.00');
    expect(await first.locator('#credits').textContent()).toBe('7 shortlist credits');
    expect(await first.getByRole('button', { name: 'Pay (test mode)' }).isVisible()).toBe(true);

    await first.getByRole('button', { name: 'Pay (test mode)' }).click();
    await first.waitForSelector('#status');
    expect(await first.locator('#status').textContent()).toMatch(/Payment received: 7 shortlist credits/);

    await second.getByRole('button', { name: 'Pay (test mode)' }).click(); // the stale tab pays again
    await second.waitForSelector('#status');
    expect(await second.locator('#status').textContent()).toContain('already paid');
    expect(await second.locator('h1').textContent()).toBe('Already paid');

    await waitFor('the grant', async () => (await workspaceCredits(stack.db, f.workspace.id)) === 9, 15_000, 100);
    await new Promise((r) => setTimeout(r, 300));
    expect(await workspaceCredits(stack.db, f.workspace.id)).toBe(9);
    expect(await topUpGrants(stack.db, data.id)).toHaveLength(1);
    const balance = await stack.request('GET', '/v1/billing/balance', { headers: f.headers });
    expect(balance.body.data.credits).toBe(9);
    expect(consoleErrors).toEqual([]); // e.g. no CSP violation for the stylesheet or the form

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await first.screenshot({ path: path.join(ARTIFACTS, 'checkout-paid.png'), fullPage: true });
  }, 90_000);
});
