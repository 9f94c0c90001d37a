import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium (`apt-get install -y chromium`); Playwright's own browser downloads are not used here.
 * CHROMIUM_PATH points elsewhere on a machine that keeps it in another place.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const chromiumAvailable = existsSync(CHROMIUM_PATH);

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh profile, removed again on close. */
export async function launchBrowser(): Promise<TestBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'rampart-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Everything the page printed to its console (CSP violations are console errors) and its uncaught
 * exceptions. A production bundle prints nothing, so tests expect an empty list.
 */
export function collectConsoleOutput(page: Page): string[] {
  const output: string[] = [];
  page.on('console', (message) => {
    // The product's own performance line (SPEC §7/§9: written to the console when a page is hidden) is not noise.
    if (message.type() === 'info' && message.text().startsWith('Performance score ')) return;
    output.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => output.push(`pageerror: ${error.message}`));
  return output;
}

/**
 * Where the e2e screenshots go: kept out of git, left on disk for CI to keep as artifacts
 * (`E2E_ARTIFACTS_DIR`, default test-results/e2e).
 */
export function artifactPath(fileName: string): string {
  const dir = resolve(process.env.E2E_ARTIFACTS_DIR ?? 'test-results/e2e');
  mkdirSync(dir, { recursive: true });
  return join(dir, fileName);
}
