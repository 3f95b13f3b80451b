import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (installed by the test bootstrap, path in CHROMIUM_PATH), headless, driven by playwright-core. */
export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath) throw new Error('CHROMIUM_PATH is not set: the test bootstrap could not install Chromium');
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
