import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-fake';
import { cspViolations, openApp, screenshot, signInThroughApp, startAppStack } from '../support/app-browser';
import { workspaceCredits } from '../support/billing';
import { launchChromium } from '../support/browser';
import { startChildWorker } from '../support/child-worker';
import { makeTestCert, startHttpsReceiver, type HttpsReceiver, type TestCert } from '../support/https-receiver';
import { workspaceWithMembers } from '../support/session';
import type { TestStack } from '../support/stack';

/**
 * The admin pages of the web app in Debian's Chromium: webhooks delivered to a real HTTPS
 * receiver on 127.0.0.1 (by a child worker that trusts its self-signed certificate), the test
 * checkout, provider credentials verified against a local OpenAI-compatible fake, and usage.
 */

const ENV = { WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' };
let cert: TestCert;
let receiver: HttpsReceiver;
let openai: OpenAiFake;
let stack: TestStack;
let worker: ChildProcess;
let browser: Browser;

beforeAll(async () => {
  cert = makeTestCert();
  receiver = await startHttpsReceiver(cert);
  openai = await startOpenAiFake();
  stack = await startAppStack({ worker: false, env: { ...ENV, OPENAI_BASE_URL: openai.url } });
  worker = await startChildWorker(stack, { ...ENV, NODE_EXTRA_CA_CERTS: cert.certFile, OPENAI_BASE_URL: openai.url });
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  worker?.kill('SIGKILL');
  await stack?.stop();
  await receiver?.close();
  await openai?.close();
});

it('an admin creates a webhook (the secret shown once), sends a test, redelivers it and turns the endpoint off and on', async () => {
  const ws = await workspaceWithMembers(stack);
  const { page, context, problems } = await openApp(browser, stack);
  await signInThroughApp(page, ws.admin.email, undefined, '/app/webhooks');
  const url = `${receiver.origin}/app-hook`;
  await page.getByLabel('Endpoint URL (https)').fill(url);
  await page.getByRole('button', { name: 'Create webhook' }).click();
  const secret = (await page.getByTestId('webhook-secret').textContent())!;
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole('link', { name: url }).waitFor();

  // Shown once: after a reload only its last four characters remain.
  await page.reload();
  await page.getByRole('link', { name: url }).waitFor();
  expect(await page.getByTestId('webhook-secret').count()).toBe(0);
  expect(await page.content()).not.toContain(secret);
  await page.getByText(`secret …${secret.slice(-4)}`).waitFor();

  await page.getByRole('link', { name: url }).click();
  await page.getByRole('heading', { level: 1, name: url }).waitFor();
  await page.getByRole('button', { name: 'Send a test event' }).click();
  const delivery = page.getByRole('list', { name: 'Deliveries' }).locator(':scope > li').first();
  await delivery.getByText('delivered').waitFor();
  expect(await delivery.getByTestId('delivery-code').textContent()).toBe('200');
  expect(await delivery.getByTestId('delivery-attempts').textContent()).toBe('1 attempt');
  const [first] = await receiver.waitFor('/app-hook', 1);
  expect(first.json.type).toBe('webhook.test');

  await delivery.getByRole('button', { name: 'Redeliver' }).click();
  await delivery.getByTestId('delivery-attempts').getByText('2 attempts').waitFor();
  const both = await receiver.waitFor('/app-hook', 2);
  expect(both[1].json.id).toBe(first.json.id); // the same event, sent again
  await delivery.getByRole('button', { name: 'Attempts' }).click();
  const attempts = delivery.getByRole('table', { name: 'Attempts' }).locator('tbody tr');
  await attempts.nth(1).waitFor();
  expect(await attempts.allTextContents()).toEqual([expect.stringMatching(/^1scheduled200/), expect.stringMatching(/^2redeliver200/)]);

  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByTestId('webhook-state').getByText('Disabled').waitFor();
  await page.getByRole('button', { name: 'Enable' }).click();
  await page.getByTestId('webhook-state').getByText('Enabled').waitFor();
  await screenshot(page, 'app-webhook');
  expect(cspViolations(problems)).toEqual([]);
  await context.close();
}, 120_000);

it('a top-up paid through the test checkout raises the balance; the usage page charts credits and requests', async () => {
  const ws = await workspaceWithMembers(stack, { credits: 2 });
  const { page, context, problems } = await openApp(browser, stack);
  await signInThroughApp(page, ws.admin.email, undefined, '/app/billing');
  expect(await page.getByTestId('balance').textContent()).toBe('2');
  await page.getByLabel('Top-up amount (USD)').fill('30');
  await page.getByRole('button', { name: 'Buy credits' }).click();
  // The provider's checkout page, then back to the app.
  await page.waitForURL(/\/checkout\//);
  await page.getByRole('button', { name: 'Pay (test mode)' }).click();
  await page.locator('#status').waitFor();
  await page.goto('/app/billing');
  await page.getByTestId('balance').getByText('9').waitFor();
  expect(await workspaceCredits(stack.db, ws.workspace.id)).toBe(9);
  await page.getByRole('list', { name: 'Top-ups' }).getByText('paid').waitFor();
  await page.getByRole('cell', { name: '+7' }).waitFor(); // the ledger's grant
  await screenshot(page, 'app-billing');

  await page.getByRole('link', { name: 'Usage' }).click();
  await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
  await page.getByTestId('usage-chart').locator('canvas').waitFor();
  expect(await page.getByRole('table', { name: 'Per day' }).locator('tbody tr').count()).toBeGreaterThan(0);
  await screenshot(page, 'app-usage');
  expect(cspViolations(problems)).toEqual([]);
  await context.close();
}, 120_000);

it('an admin adds, verifies, rotates and deletes a provider credential; the key itself never comes back', async () => {
  const ws = await workspaceWithMembers(stack);
  const { page, context, problems } = await openApp(browser, stack, 390);
  await signInThroughApp(page, ws.admin.email, undefined, '/app/credentials');
  await page.getByLabel('Provider').selectOption('openai');
  await page.getByLabel('API key', { exact: true }).fill('sk-fake-good-key');
  await page.getByRole('button', { name: 'Save credential' }).click();
  const row = page.getByRole('table', { name: 'Active credentials' }).locator('tbody tr');
  await row.getByText('sk-f…-key').waitFor();
  await page.getByRole('button', { name: 'Verify openai default' }).click();
  await row.getByText(/^yes, /).waitFor();

  await page.getByRole('button', { name: 'Rotate openai default' }).click();
  await page.getByLabel('New API key').fill('sk-wrong-key-0000');
  await page.getByRole('button', { name: 'Save new key' }).click();
  await row.getByText('sk-w…0000').waitFor();
  expect(await row.count()).toBe(1); // the old key was retired by the rotation
  await page.getByRole('button', { name: 'Verify openai default' }).click();
  await row.locator('.warn').waitFor();
  expect(await page.content()).not.toContain('sk-wrong-key-0000');
  await screenshot(page, 'app-credentials-390px');

  await page.getByRole('button', { name: 'Delete openai default' }).click();
  await page.getByText('No credentials: the server-wide keys are used.').waitFor();
  expect(cspViolations(problems)).toEqual([]);
  await context.close();
}, 120_000);
