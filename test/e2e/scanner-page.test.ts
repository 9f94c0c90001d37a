import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, chromiumAvailable, collectConsoleOutput } from './support/browser.js';
import { startE2eStack, TARGET_HOST, type E2eStack } from './support/stack.js';

/*
 * DECISIONS "Scanner identity" in Chromium against npm start: the public /scanner page shows the
 * scanner's user agent and abuse address; a site owner opts example.test out on that page (the TXT
 * record published in the zone the stack scans through); then a visitor's free scan of the site
 * from the landing form is refused, with the reason.
 */

/** The server takes a form sent within 3 s of being shown for a bot's (MIN_FILL_MS); people are slower. */
const HUMAN_FILL_MS = 3_200;

describe.skipIf(!chromiumAvailable)('/scanner in Chromium: who the scanner is, and an owner’s opt-out', () => {
  let stack: E2eStack;
  let appUrl: string;
  let page: Page;
  let consoleOutput: string[];

  beforeAll(async () => {
    stack = await startE2eStack();
    appUrl = stack.app.url;
    page = await stack.browser.context.newPage();
    consoleOutput = collectConsoleOutput(page);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  it('shows the user agent, that the addresses are not fixed, and the abuse address, reached from the footer', async () => {
    // Act
    await page.goto(`${appUrl}/`);
    await page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Our scanner' }).click();
    await page.getByRole('heading', { level: 1, name: 'The Rampart scanner' }).waitFor();

    // Assess
    const info = (await (await fetch(`${appUrl}/api/scanner`)).json()) as { userAgent: string; abuseEmail: string };
    expect(info.userAgent).toMatch(/^RampartScanner\/1\.0 \(\+http:\/\/\S+\/scanner\)$/);
    expect(new URL(page.url()).pathname).toBe('/scanner');
    expect((await page.getByTestId('scanner-user-agent').textContent())?.trim()).toBe(info.userAgent);
    expect(await page.getByTestId('scanner-addresses').textContent()).toMatch(/^Addresses that are not fixed/);
    expect((await page.getByTestId('scanner-abuse-email').textContent())?.trim()).toBe('abuse@rampart.example');
    expect(await page.getByTestId('scanner-politeness').textContent()).toContain('At most 4 requests in flight at once to one site');
    await page.screenshot({ path: artifactPath('scanner-page.png'), fullPage: true });
  });

  it('opts a domain out on the page (domain → TXT record → check), and a later free scan of it is refused with the reason', async () => {
    // Prepare: the owner asks on the page and publishes the record it shows.
    await page.goto(`${appUrl}/scanner`);
    await page.getByLabel('Your domain').fill(`https://${TARGET_HOST}/`);
    await page.getByRole('button', { name: 'Get opt-out instructions' }).click();
    const instructions = page.getByTestId('opt-out-instructions');
    await instructions.waitFor();
    const name = (await page.getByTestId('opt-out-record-name').textContent())!.trim();
    const value = (await page.getByTestId('opt-out-record-value').textContent())!.trim();
    expect(name).toBe('_rampart-scanner-opt-out.example.test');
    expect(value).toMatch(/^rampart-scanner-opt-out=[A-Za-z0-9_-]{22}$/);
    stack.zone.add({ name, type: 'TXT', ttl: 60, data: value });

    // Act: the check, then a visitor's free scan from the landing form.
    await page.getByRole('button', { name: 'Check and opt out' }).click();
    const done = page.getByTestId('opt-out-done');
    await done.waitFor({ timeout: 20_000 });
    expect(await done.textContent()).toMatch(/^example\.test is opted out since \d{1,2} \w+ \d{4}: Rampart will not scan it or its subdomains for anyone\.$/);

    await page.goto(`${appUrl}/`);
    const form = page.getByRole('region', { name: 'Get Your Free Security Report' });
    await form.scrollIntoViewIfNeeded();
    const shownAt = Date.now();
    await form.getByLabel('First Name').fill('Olivia');
    await form.getByLabel('Last Name').fill('Owner');
    await form.getByLabel('Business Name').fill('Example Shop');
    await form.getByLabel('Website URL').fill(`https://${TARGET_HOST}`);
    await form.getByLabel('Business Email').fill('owner@example.test');
    await form.getByLabel('Mobile Number').fill('0412 345 671');
    await form.getByRole('checkbox', { name: /authorise a security scan/ }).check();
    await form.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check();
    await page.waitForTimeout(Math.max(0, HUMAN_FILL_MS - (Date.now() - shownAt)));
    await form.getByRole('button', { name: 'Verify Domain & Start Security Scan' }).click();

    // Assess
    const refusal = form.getByRole('alert').filter({ hasText: 'asked not to be scanned' });
    await refusal.waitFor({ timeout: 15_000 });
    const text = (await refusal.textContent()) ?? '';
    await page.screenshot({ path: artifactPath('scanner-opt-out-refused.png'), fullPage: true });
    expect(text).toMatch(/example\.test's owner asked not to be scanned by Rampart on \d{1,2} \w+ \d{4}\./);
    expect(text).toContain('/scanner');
    expect(consoleOutput.filter((line) => !line.includes('403'))).toEqual([]);
  }, 90_000);
});
