import type { Browser, Locator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailbox } from '../support/post-from.js';
import { codeMailedTo } from './support/accounts.js';
import { CHROMIUM_PATH, chromiumAvailable, collectConsoleOutput, artifactPath } from './support/browser.js';
import { startE2eStack, TARGET_HOST, type E2eStack } from './support/stack.js';

/*
 * The free-scan journey in Chromium against npm start: the lead form on the landing page, the
 * verification modal with the code read from the SES local mailbox, the scan's live progress,
 * the report, its share link (opened in a browser that never saw the site) and its PDF.
 */

const SITE = `https://${TARGET_HOST}`;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
/** The server takes a form sent within 3 s of being shown for a bot's (MIN_FILL_MS); people are slower. */
const HUMAN_FILL_MS = 3_200;

interface Visitor {
  firstName: string;
  lastName: string;
  businessName: string;
  email: string;
  mobileNumber: string;
}

function leadForm(page: Page): Locator {
  return page.getByRole('region', { name: 'Get Your Free Security Report' });
}

async function fillLeadForm(page: Page, visitor: Visitor): Promise<Locator> {
  const form = leadForm(page);
  await form.scrollIntoViewIfNeeded();
  const shownAt = Date.now();
  await form.getByLabel('First Name').fill(visitor.firstName);
  await form.getByLabel('Last Name').fill(visitor.lastName);
  await form.getByLabel('Business Name').fill(visitor.businessName);
  await form.getByLabel('Website URL').fill(SITE);
  await form.getByLabel('Business Email').fill(visitor.email);
  await form.getByLabel('Mobile Number').fill(visitor.mobileNumber);
  await form.getByRole('checkbox', { name: /authorise a security scan/ }).check();
  await form.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check();
  await page.waitForTimeout(Math.max(0, HUMAN_FILL_MS - (Date.now() - shownAt)));
  return form;
}

async function latestCode(mailboxUrl: string, email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const mails = await mailbox(mailboxUrl, email);
    const code = /is: (\d{6})/.exec(mails.filter((m) => /verification code/i.test(m.subject)).at(-1)?.body.text ?? '')?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no verification code was mailed to ${email}`);
}

describe.skipIf(!chromiumAvailable)('the free-scan journey in Chromium', () => {
  let stack: E2eStack;
  let appUrl: string;
  /** The report the first test reaches, for the share and PDF tests. */
  let reportUrl = '';

  beforeAll(async () => {
    stack = await startE2eStack();
    appUrl = stack.app.url;
    await stack.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: appUrl });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  it('scans at once (passive) for an email at the site, shows the progress panel and the success panel, and reaches the completed report; the code mailed to the address runs the full scan', async () => {
    // Prepare
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    await page.goto(`${appUrl}/`);
    const submit = leadForm(page).getByRole('button', { name: 'Verify Domain & Start Security Scan' });
    const disabledBeforeConsent = await submit.isDisabled();
    const form = await fillLeadForm(page, {
      firstName: 'Olivia',
      lastName: 'Owner',
      businessName: 'Example Shop',
      email: `owner@${TARGET_HOST}`,
      mobileNumber: '0412 345 678',
    });

    // Act
    await submit.click();
    // DECISIONS "Scan modes" [attacker]: the address is not proven yet, so no account yet and a code instead.
    const success = form.getByRole('heading', { name: `Passive scan completed. We emailed a code to owner@${TARGET_HOST}: type it on the report to run the full scan.` });
    // The progress panel, unless a quick passive scan of the loopback target is over before the page
    // looks (each check's live state is held by the lead form's component test).
    await form.getByText(`Scanning ${TARGET_HOST}`).or(success).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: artifactPath('lead-progress.png') });
    await success.waitFor({ timeout: 60_000 });
    await page.screenshot({ path: artifactPath('lead-success.png') });
    const session = await page.evaluate('[sessionStorage.getItem("submittedWebUrl"), sessionStorage.getItem("currentAuditId")]');
    await form.getByRole('link', { name: 'View Security Report' }).click();
    await page.getByTestId('audit-status').filter({ hasText: /^completed$/ }).waitFor({ timeout: 30_000 });
    reportUrl = page.url();

    // Assess
    expect(disabledBeforeConsent).toBe(true);
    expect(reportUrl).toMatch(new RegExp(`^${appUrl}/results/${UUID}$`));
    expect(session).toEqual([SITE, reportUrl.split('/').at(-1)]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`${SITE}/`);
    await expect(page.getByTestId('risk-score').textContent()).resolves.toMatch(/^\d{1,3}\/100$/);
    await expect(page.getByTestId('grade').textContent()).resolves.toMatch(/^[ABCDF]$/);
    for (const counter of ['Total Issues', 'Critical Issues', 'Open Ports', 'Subdomains']) {
      await expect(page.getByRole('term').filter({ hasText: new RegExp(`^${counter}$`) }).isVisible()).resolves.toBe(true);
    }
    // The report's details load after the score (issue 29 item 15): waited for, not read at once.
    await page.getByRole('heading', { name: 'Recommendations' }).waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'Password Breaches' }).waitFor({ timeout: 15_000 });
    // The code mailed to the address, typed on the report: the full scan runs as a new report (issue 29 item 6) the page goes to, and only now is the account created.
    const panel = page.getByTestId('confirm-address-panel');
    await expect(panel.getByRole('heading').textContent()).resolves.toBe(`We emailed a code to owner@${TARGET_HOST}: type it to run the full scan`);
    expect((await mailbox(stack.mailboxUrl, `owner@${TARGET_HOST}`)).map((mail) => mail.subject)).not.toContain('Your Rampart account: choose your password');
    await panel.getByLabel('Verification code').fill(await codeMailedTo(stack.mailboxUrl, `owner@${TARGET_HOST}`, /verification code/));
    await panel.getByRole('button', { name: 'Confirm and run the full scan' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/results/') && url.href !== reportUrl, { timeout: 10_000 });
    await page.getByText('Full scan', { exact: true }).first().waitFor({ timeout: 30_000 });
    await page.getByTestId('audit-status').filter({ hasText: /^completed$/ }).waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('scan-mode').getByRole('heading').first().textContent()).resolves.toMatch(/^Full scan/);
    await expect(page.getByTestId('confirm-address-panel').count()).resolves.toBe(0);
    const welcome = await mailbox(stack.mailboxUrl, `owner@${TARGET_HOST}`);
    expect(welcome.map((mail) => mail.subject)).toContain('Your Rampart account: choose your password');
    await page.screenshot({ path: artifactPath('results-completed.png'), fullPage: true });
    expect(consoleOutput).toEqual([]);
    await page.close();
  }, 120_000);

  it('expands a vulnerability, shares the report (copied for 2 s) and opens the link in a fresh browser', async () => {
    // Prepare
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    await page.goto(reportUrl);
    await page.getByTestId('audit-status').filter({ hasText: /^completed$/ }).waitFor();
    const firstFinding = page.getByRole('region', { name: /^Issues to fix/ }).getByRole('button', { expanded: false }).first();
    const hasFindings = (await firstFinding.count()) > 0;
    if (hasFindings) await firstFinding.click();

    // Act
    await page.getByRole('button', { name: 'Share Report' }).click();
    const link = page.getByLabel('Share link');
    await link.waitFor();
    const shareUrl = await link.inputValue();
    await page.getByRole('button', { name: 'Copy Link' }).click();
    const copiedShown = await page.getByText('Copied to clipboard!').waitFor({ timeout: 1_500 }).then(() => true);
    const clipboard = await page.evaluate('navigator.clipboard.readText()');
    await page.screenshot({ path: artifactPath('results-shared-link.png') });
    await page.getByText('Copied to clipboard!').waitFor({ state: 'detached', timeout: 3_000 });

    const fresh: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
    const freshPage = await (await fresh.newContext()).newPage();
    const freshConsole = collectConsoleOutput(freshPage);
    await freshPage.goto(shareUrl);
    await freshPage.getByText('Shared security assessment').waitFor();
    const expiresIn = await freshPage.getByTestId('expires-in').textContent();
    const banner = await freshPage.getByTestId('expiry-banner').textContent();
    const shareButtons = await freshPage.getByRole('button', { name: /Share/ }).count();
    const cta = await freshPage.getByRole('link', { name: 'Get Your Free Security Report' }).getAttribute('href');
    await freshPage.screenshot({ path: artifactPath('shared-report.png'), fullPage: true });
    await freshPage.goto(`${appUrl}/share/AAAAAAAAAAAAAAAAAAAAAA`);
    await freshPage.getByRole('heading', { name: 'Share Link Invalid' }).waitFor();
    const invalidText = await freshPage.getByRole('alert').textContent();
    await freshPage.screenshot({ path: artifactPath('shared-invalid.png') });
    await fresh.close();

    // Assess
    if (hasFindings) await expect(page.getByText('How to fix').first().isVisible()).resolves.toBe(true);
    expect(shareUrl).toMatch(new RegExp(`^${appUrl}/share/[A-Za-z0-9_-]{22}$`));
    expect(copiedShown).toBe(true);
    expect(clipboard).toBe(shareUrl);
    expect(expiresIn).toMatch(/^Expires in 2[34]h \d{1,2}m$/);
    expect(banner).toContain('This shared report link expires on');
    expect(shareButtons).toBe(0);
    expect(cta).toBe('/#audit-form');
    expect(invalidText).toContain('Shared audit not found or expired');
    expect(invalidText).toContain('The link has expired (shared links work for 24 hours)');
    expect(consoleOutput).toEqual([]);
    expect(freshConsole.filter((line) => !line.includes('404'))).toEqual([]);
    await page.close();
  }, 60_000);

  it('downloads the PDF report from the results page', async () => {
    // Prepare
    const page = await stack.browser.context.newPage();
    await page.goto(reportUrl);
    const pdfLink = page.getByRole('link', { name: 'Download PDF Report' });
    await pdfLink.waitFor();

    // Act
    const href = await pdfLink.getAttribute('href');
    const response = await page.request.get(new URL(href ?? '', appUrl).toString());
    const bytes = await response.body();

    // Assess
    expect(href).toMatch(new RegExp(`^/reports/${UUID}\\.pdf$`));
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(5_000);
    await page.close();
  }, 60_000);

  it('verifies an email at another domain with the mailed code, then scans', async () => {
    // Prepare
    const email = 'consultant@gmail.test';
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    await page.goto(`${appUrl}/`);
    const form = await fillLeadForm(page, {
      firstName: 'Ada',
      lastName: 'Consultant',
      businessName: 'Example Shop',
      email,
      mobileNumber: '+61 412 345 679',
    });

    // Act
    await form.getByRole('button', { name: 'Verify Domain & Start Security Scan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify your email address' });
    const codeInput = dialog.getByLabel('Verification code');
    await codeInput.waitFor();
    const countdown = await dialog.getByTestId('code-countdown').textContent();
    const resendDisabled = await dialog.getByRole('button', { name: 'Resend Code' }).isDisabled();
    await page.screenshot({ path: artifactPath('verification-modal.png') });
    const code = await latestCode(stack.mailboxUrl, email);
    await codeInput.fill(code);
    await dialog.getByRole('button', { name: 'Verify Code' }).click();
    await dialog.getByText('Email verified!').waitFor();
    await page.screenshot({ path: artifactPath('verification-success.png') });
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });
    // Issue 29 item 9: the finished scan opens its report (the live checks: lead-form.test.tsx).
    await page.waitForURL(new RegExp(`^${appUrl}/results/${UUID}$`), { timeout: 60_000 });

    // Assess
    expect(countdown).toMatch(/^(10:00|9:5\d)$/);
    expect(resendDisabled).toBe(true);
    await page.getByTestId('audit-status').filter({ hasText: /^completed$/ }).waitFor({ timeout: 30_000 });
    expect(consoleOutput.filter((line) => !line.includes('403'))).toEqual([]);
    await page.close();
  }, 120_000);

  it('counts down the attempts for a wrong code and stops after the third', async () => {
    // Prepare
    const email = 'guesser@gmail.test';
    const page = await stack.browser.context.newPage();
    await page.goto(`${appUrl}/`);
    const form = await fillLeadForm(page, {
      firstName: 'Gus',
      lastName: 'Guesser',
      businessName: 'Example Shop',
      email,
      mobileNumber: '0412 345 670',
    });
    await form.getByRole('button', { name: 'Verify Domain & Start Security Scan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Verify your email address' });
    await dialog.getByLabel('Verification code').waitFor();
    const real = await latestCode(stack.mailboxUrl, email);
    const wrong = String((Number(real) + 1) % 1_000_000).padStart(6, '0');

    // Act
    const seen: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await dialog.getByLabel('Verification code').fill(wrong);
      await dialog.getByRole('button', { name: 'Verify Code' }).click();
      const shown = attempt < 3 ? dialog.getByText(/attempts? remaining/) : dialog.getByRole('button', { name: 'Try Again' });
      await shown.waitFor();
      if (attempt < 3) await dialog.getByText(`${3 - attempt} attempt`).waitFor();
      seen.push((await dialog.getByRole('alert').textContent()) ?? '');
    }
    await page.screenshot({ path: artifactPath('verification-locked.png') });

    // Assess
    const wrongCode = (left: string) => `Verification failed: that is not the code we sent. ${left} remaining. Check the newest email from us for the 6-digit code, or ask for a new code.`;
    expect(seen).toEqual([wrongCode('2 attempts'), wrongCode('1 attempt'), expect.stringContaining('Too many incorrect attempts. Please request a new code.')]);
    await expect(dialog.getByRole('button', { name: 'Verify Code' }).count()).resolves.toBe(0);
    await page.close();
  }, 60_000);

  it('fits a 360 px wide phone: the form, the modal-free journey pages and the report', async () => {
    // Prepare
    const page = await stack.browser.context.newPage();
    await page.setViewportSize({ width: 360, height: 780 });
    const widest = () => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

    // Act
    await page.goto(`${appUrl}/`);
    await leadForm(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('mobile-lead-form.png') });
    const homeWidth = await widest();
    await page.goto(reportUrl);
    await page.getByTestId('audit-status').filter({ hasText: /^completed$/ }).waitFor();
    await page.screenshot({ path: artifactPath('mobile-results.png'), fullPage: true });
    const resultsWidth = await widest();

    // Assess
    expect(homeWidth).toBeLessThanOrEqual(360);
    expect(resultsWidth).toBeLessThanOrEqual(360);
    await page.close();
  }, 60_000);
});
