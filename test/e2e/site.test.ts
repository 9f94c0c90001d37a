import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_CSP } from '../../lib/site/security-headers.js';
import { CHROMIUM_PATH, chromiumAvailable, collectConsoleOutput, artifactPath } from './support/browser.js';
import { postLead, startE2eStack, TARGET_HOST, type E2eStack } from './support/stack.js';

const BOT_USER_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1)';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

if (!chromiumAvailable) {
  console.warn(`e2e: browser tests skipped: ${CHROMIUM_PATH} is missing (install it with: apt-get install -y chromium)`);
}

describe.skipIf(!chromiumAvailable)('the site in Chromium against npm start', () => {
  let stack: E2eStack;
  let appUrl: string;

  beforeAll(async () => {
    stack = await startE2eStack();
    appUrl = stack.app.url;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  it('serves the home page with the product name, the site CSP and a silent console', async () => {
    // Prepare
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);

    // Act
    const response = await page.goto(`${appUrl}/`);
    await page.getByRole('heading', { level: 1, name: 'Find the holes in your website before attackers do' }).waitFor();

    // Assess
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(SITE_CSP);
    expect(await page.title()).toContain('Rampart');
    await expect(page.getByRole('link', { name: 'Client Login' }).first().getAttribute('href')).resolves.toBe('/auth');
    await page.screenshot({ path: artifactPath('home.png'), fullPage: true });
    expect(consoleOutput).toEqual([]);
    await page.close();
  }, 60_000);

  it('scans a posted lead and shows the finished report with the dns check and the resolved address', async () => {
    // Act (and assess the API's answer at once, so a refused lead fails here, not as a timeout below)
    const { status: postStatus, body } = await postLead(appUrl);
    expect([200, 201], `POST /api/leads answered ${postStatus}: ${JSON.stringify(body)}`).toContain(postStatus);
    expect(body.auditId).toMatch(UUID_V4);
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    await page.goto(`${appUrl}/results/${body.auditId}`);
    const status = page.getByTestId('audit-status');
    await status.filter({ hasText: /^completed$/ }).waitFor({ timeout: 60_000 });

    // Assess
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`http://${TARGET_HOST}/`);
    // A finished report folds the raw measurements away under 'Technical details'.
    await page.getByText('Technical details: every check').click();
    await expect(page.getByRole('rowheader', { name: 'dns', exact: true }).isVisible()).resolves.toBe(true);
    const dnsRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'dns', exact: true }) });
    await expect(dnsRow.getByText('127.0.0.1', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('risk-score').textContent()).resolves.toMatch(/^\d{1,3}\/100$/);
    await page.screenshot({ path: artifactPath('results.png'), fullPage: true });
    expect(consoleOutput).toEqual([]);
    await page.close();
  }, 90_000);

  it("shows 'Audit not found' for a well-formed audit id that names no audit", async () => {
    // Prepare
    const page = await stack.browser.context.newPage();

    // Act
    const response = await page.goto(`${appUrl}/results/${randomUUID()}`);
    const heading = page.getByRole('heading', { level: 1, name: 'Audit not found' });
    await heading.waitFor();

    // Assess
    expect(response?.status()).toBe(200);
    await expect(heading.isVisible()).resolves.toBe(true);
    await expect(page.getByText('Failed to load audit results').count()).resolves.toBe(0);
    await page.close();
  }, 30_000);

  it('sends /reports/{auditId} to the results page (DECISIONS "/reports")', async () => {
    // Prepare
    const page = await stack.browser.context.newPage();
    const auditId = randomUUID();

    // Act
    await page.goto(`${appUrl}/reports/${auditId}`);
    await page.getByRole('heading', { level: 1, name: 'Audit not found' }).waitFor();

    // Assess
    expect(new URL(page.url()).pathname).toBe(`/results/${auditId}`);
    await page.close();
  }, 30_000);

  it("shows 'Invalid audit ID' for a malformed id and a 404 page for an unknown route", async () => {
    // Prepare
    const page = await stack.browser.context.newPage();

    // Act
    await page.goto(`${appUrl}/results/not-an-id`);
    const invalid = page.getByRole('heading', { level: 1, name: 'Invalid audit ID' });
    await invalid.waitFor();
    await page.goto(`${appUrl}/no-such-page`);
    const notFound = page.getByRole('heading', { level: 1, name: 'Page not found' });
    await notFound.waitFor();

    // Assess
    await expect(notFound.isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).resolves.toBe('/');
    await page.close();
  }, 30_000);

  it('gives a bot user agent the static crawler page with prices, styled without breaking the CSP', async () => {
    // Prepare
    const page = await stack.browser.context.newPage();
    await page.setExtraHTTPHeaders({ 'user-agent': BOT_USER_AGENT });
    const consoleOutput = collectConsoleOutput(page);

    // Act
    const fetched = await fetch(`${appUrl}/`, { headers: { 'user-agent': BOT_USER_AGENT } });
    const html = await fetched.text();
    await page.goto(`${appUrl}/`);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();

    // Assess
    expect(fetched.status).toBe(200);
    expect(html).toContain('Basic Audit');
    expect(html).toContain('A$249');
    expect(html).toContain('Monitor Plus');
    expect(html).not.toContain('id="root"');
    await expect(heading.textContent()).resolves.toContain('Rampart');
    // The stylesheet applied: the cards are laid out as a grid, which only crawler.css says.
    // (A string, as the test code is compiled without the DOM library.)
    await expect(page.evaluate("getComputedStyle(document.querySelector('ul.cards')).display")).resolves.toBe('grid');
    await page.screenshot({ path: artifactPath('crawler.png'), fullPage: true });
    expect(consoleOutput).toEqual([]);
    await page.close();
  }, 30_000);
});
