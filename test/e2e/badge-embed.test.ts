import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BADGE_DEFAULTS, badgeAltText, badgeDimensions, badgeEmbedCode } from '../../lambdas/domain/badge.js';
import { demoDomains } from '../../lambdas/domain/demo-account.js';
import { loopbackServers } from '../support/loopback-servers.js';
import { artifactPath, CHROMIUM_PATH, chromiumAvailable, collectConsoleOutput } from './support/browser.js';
import { type E2eStack, startE2eStack } from './support/stack.js';

/**
 * The badge on a customer's site (issue 8 "Proof": copy the embed code into a page served on
 * loopback and see the badge load): another origin's page holds exactly the embed code the
 * dashboard gives, Chromium loads the image from `npm start` across origins, and the link goes to
 * the verify page. The demo account (npm start's default) has an eligible domain: Monitor Plus and
 * a completed scan three days old scoring 95.
 */

/** What the page's <img> elements tell once loaded (the tests' tsconfig has no DOM library). */
interface LoadedImage {
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
}

if (!chromiumAvailable) {
  console.warn(`e2e: browser tests skipped: ${CHROMIUM_PATH} is missing (install it with: apt-get install -y chromium)`);
}

describe.skipIf(!chromiumAvailable)('the badge embedded on another site', () => {
  let stack: E2eStack;
  const servers = loopbackServers();
  let customerSite: string;
  const [eligibleDomain] = demoDomains('Rampart');
  const unknownDomain = 'never-scanned.example.test';

  beforeAll(async () => {
    stack = await startE2eStack();
    const page = [eligibleDomain, unknownDomain]
      .map((domain, i) => `<p>${badgeEmbedCode({ siteUrl: stack.app.url, domain, productName: 'Rampart', ...BADGE_DEFAULTS, ...(i === 1 ? { style: 'compact' as const } : {}) })}</p>`)
      .join('');
    const port = await servers.listen(
      createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(`<!doctype html><html lang="en"><head><title>A customer's shop</title></head><body><h1>Shop</h1>${page}</body></html>`);
      }),
    );
    customerSite = `http://127.0.0.1:${port}/`;
  }, 180_000);

  afterAll(async () => {
    await servers.closeAll();
    await stack?.stop();
  }, 30_000);

  it('loads the badge image across origins at its stated size, linking to the verify page', async () => {
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    const badgeResponses: { url: string; status: number; type: string | undefined }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/badge/')) badgeResponses.push({ url: response.url(), status: response.status(), type: response.headers()['content-type'] });
    });

    await page.goto(customerSite);
    const images = page.getByRole('img', { name: badgeAltText('Rampart') });
    await expect.poll(() => images.evaluateAll((all) => (all as unknown as LoadedImage[]).map((img) => img.complete && img.naturalWidth > 0))).toEqual([true, true]);

    const detailed = badgeDimensions('detailed', 'medium');
    const compact = badgeDimensions('compact', 'medium');
    expect(await images.evaluateAll((all) => (all as unknown as LoadedImage[]).map((img) => [img.naturalWidth, img.naturalHeight]))).toEqual([
      [detailed.width, detailed.height],
      [compact.width, compact.height],
    ]);
    expect(badgeResponses.map((r) => [new URL(r.url).pathname, r.status, r.type]).sort()).toEqual([
      [`/badge/${unknownDomain}.svg`, 200, 'image/svg+xml'],
      [`/badge/${eligibleDomain}.svg`, 200, 'image/svg+xml'],
    ]);
    await expect(page.getByRole('link').first().getAttribute('href')).resolves.toBe(`${stack.app.url}/verify/${eligibleDomain}`);
    await page.screenshot({ path: artifactPath('badge-embedded.png'), fullPage: true });
    expect(consoleOutput).toEqual([]);
    await page.close();
  }, 60_000);

  it('serves the eligible domain the seal and the unknown one the neutral badge', async () => {
    const [eligible, unknown] = await Promise.all(
      [eligibleDomain, unknownDomain].map((domain) => fetch(`${stack.app.url}/badge/${domain}.svg`).then((r) => r.text())),
    );
    expect(eligible).toContain('Protected by Rampart');
    expect(eligible).toContain('Score 95/100');
    expect(unknown).toContain('Security status: not verified');
    expect(unknown).not.toContain('Protected by');
  });
});
