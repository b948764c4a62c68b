import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type BrowserContext } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/**
 * The `skip` option of a suite that needs Chromium: false when it is installed; in CI a missing Chromium throws rather
 * than skips; elsewhere the suite skips, saying so on stderr and naming the package to install.
 */
export function chromiumSkip(what: string): false | string {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI !== undefined) throw new Error(`${CHROMIUM} is missing in CI: apt-get install chromium`);
  process.stderr.write(`SKIPPING ${what}: ${CHROMIUM} is missing (apt-get install chromium)\n`);
  return `${CHROMIUM} missing: apt-get install chromium`;
}

export interface Chromium {
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** The system Chromium as it must run here (as root, with no network), on a fresh profile. */
export async function launchChromium(): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'sitestack-chromium-'));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    return {
      context,
      async close() {
        await context.close();
        removeProfile();
      },
    };
  } catch (error) {
    removeProfile();
    throw error;
  }
}

/**
 * Chromium for the tests of one suite: launched in the suite's `before` hook (before the hooks registered after this
 * call) and closed in its `after` hook. `context` can be read only from the tests.
 */
export function chromiumForSuite(): { readonly context: BrowserContext } {
  let browser: Chromium | undefined;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  return {
    get context() {
      if (browser === undefined) throw new Error('the suite Chromium launches in the before hook: read it from a test');
      return browser.context;
    },
  };
}
