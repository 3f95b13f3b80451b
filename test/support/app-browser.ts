import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort } from '../../tools/dev/processes';
import { TEST_PASSWORD } from './session';
import { startTestStack, type TestStack } from './stack';

/** Where the journeys' screenshots go (git-ignored). */
export const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts');
/** Auto-waiting locators get this long: a loaded 2-core machine runs the browser, the API and the workflows. */
export const UI_TIMEOUT_MS = 30_000;

/**
 * A test stack whose app URL is its own address: the browser's `Origin` must be the app's for
 * cookie writes (CSRF), and share and checkout links must open on this server.
 */
export async function startAppStack(opts: { worker?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<TestStack> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  return startTestStack({ ...opts, env: { ...opts.env, PORT: String(port), APP_URL: origin, API_URL: origin } });
}

export interface AppPage {
  context: BrowserContext;
  page: Page;
  /** Console errors (a CSP violation shows up here) and failed page loads. */
  problems: string[];
}

/** A fresh browser context (no cookies) at `width` px, recording console errors. */
export async function openApp(browser: Browser, stack: TestStack, width = 1280): Promise<AppPage> {
  const context = await browser.newContext({ viewport: { width, height: width > 600 ? 900 : 844 }, baseURL: stack.url });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (err) => problems.push(err.message));
  return { context, page, problems };
}

/** Signs in through the app's form and waits for the signed-in layout. */
export async function signInThroughApp(page: Page, email: string, password = TEST_PASSWORD, at = '/app/'): Promise<void> {
  await page.goto(at);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Saves a screenshot of the journey's end under test-artifacts/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Console problems other than the ones a journey provokes on purpose (refused requests are logged by Chromium). */
export const cspViolations = (problems: string[]) => problems.filter((p) => /Content Security Policy|Refused to/.test(p));
