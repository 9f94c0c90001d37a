import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, signUp } from './support/accounts.js';
import { artifactPath, chromiumAvailable, collectConsoleOutput, launchBrowser, type TestBrowser } from './support/browser.js';
import { BREACHED_PASSWORD, startE2eStack, TARGET_HOST, type E2eStack } from './support/stack.js';

/**
 * Issue 7's journey in Chromium against `npm start`: sign up with the code Cognito (cognito-local)
 * mailed to the SES local mailbox, add and verify a domain by DNS TXT, run a Quick Scan, find it in
 * the history and export the CSV, change the password, log out and in again, and delete the
 * account; a second user in another browser sees none of it; the demo account shows its sample data.
 */

const FIRST = { firstName: 'Olivia', lastName: 'Owner', email: 'olivia@shop.example.test', company: 'Example Shop, Pty Ltd' };
const PASSWORD = 'Tidy-Garden-Lamp-42';
const NEW_PASSWORD = 'Quiet-River-Stone-73';

describe.skipIf(!chromiumAvailable)('accounts and the dashboard in Chromium', () => {
  let stack: E2eStack;
  let appUrl: string;
  let secondBrowser: TestBrowser;
  let auditId = '';

  beforeAll(async () => {
    stack = await startE2eStack();
    appUrl = stack.app.url;
    secondBrowser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await secondBrowser?.close();
    await stack?.stop();
  }, 30_000);

  it('guards the dashboard: the login page with the way back', async () => {
    const page = await stack.browser.context.newPage();
    await page.goto(`${appUrl}/dashboard/history`);
    await page.waitForURL(`${appUrl}/auth/login?returnUrl=%2Fdashboard%2Fhistory`);
    await page.getByRole('heading', { name: 'Client Login' }).waitFor();
    await page.close();
  });

  it('signs up (refusing a breached password) with the mailed code and lands on the welcome state', async () => {
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    await page.goto(`${appUrl}/auth/signup`);
    await page.getByLabel('First name', { exact: true }).fill(FIRST.firstName);
    await page.getByLabel('Last name', { exact: true }).fill(FIRST.lastName);
    await page.getByLabel('Email', { exact: true }).fill(FIRST.email);
    await page.getByLabel('Company', { exact: true }).fill(FIRST.company);
    await page.getByLabel('Password', { exact: true }).fill(BREACHED_PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(BREACHED_PASSWORD);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText(/appeared in a data breach/).waitFor();

    await signUp(page, appUrl, stack.mailboxUrl, FIRST, PASSWORD);

    await page.getByRole('heading', { name: 'Welcome back, Olivia' }).waitFor();
    await page.getByRole('heading', { name: /^Welcome to / }).waitFor();
    await expect(page.getByTestId('user-name').textContent()).resolves.toBe('Olivia Owner');
    await expect(page.getByText('Example Shop, Pty Ltd').isVisible()).resolves.toBe(true);
    await expect(page.getByText('0 / 3 scans used').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: artifactPath('dashboard-welcome.png'), fullPage: true });
    expect(consoleOutput).toEqual([]);
    await page.close();
  }, 90_000);

  it("restores the session on the landing page: the header's link is 'Dashboard'", async () => {
    const page = await stack.browser.context.newPage();
    await page.goto(`${appUrl}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${appUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome back, Olivia' }).waitFor();
    await page.close();
  });

  it('adds a domain, verifies it by DNS TXT, runs a Quick Scan and finds it in the history and the CSV', async () => {
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    await page.goto(`${appUrl}/dashboard/settings?tab=domains`);
    await page.getByRole('textbox', { name: /domain/i }).fill(TARGET_HOST);
    await page.getByRole('button', { name: /^Add/ }).click();
    await page.getByText('Pending').first().waitFor();
    const txt = (await page.getByText(/^rampart-verification=/).first().textContent())!.trim();
    stack.zone.add({ name: TARGET_HOST, type: 'TXT', ttl: 60, data: txt });
    await page.getByRole('button', { name: 'Check verification' }).click();
    await page.getByText('Verified', { exact: true }).first().waitFor({ timeout: 15_000 });

    await page.goto(`${appUrl}/dashboard`);
    await page.getByRole('button', { name: 'New Security Scan' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: new RegExp(TARGET_HOST.replace(/\./g, '\\.')) }).check();
    await dialog.getByRole('button', { name: 'Start Instant Scan' }).click();
    await page.waitForURL(/\/results\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    auditId = page.url().split('/').at(-1)!;
    await page.getByTestId('audit-status').filter({ hasText: /^completed$/ }).waitFor({ timeout: 90_000 });

    await page.goto(`${appUrl}/dashboard/history`);
    const row = page.getByRole('row').filter({ hasText: TARGET_HOST });
    await row.first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Export CSV/ }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split(/\r?\n/);

    expect(download.suggestedFilename()).toMatch(/^audit-history-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(lines[0]).toBe('Date,Domain,Tier,Status,Risk Score,Issues,Duration');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${TARGET_HOST},`);
    expect(lines[1]).toMatch(/,completed,\d{1,3},\d+,\d+$/);
    await expect(page.getByText('1 / 3 scans used').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: artifactPath('dashboard-history.png'), fullPage: true });
    expect(consoleOutput).toEqual([]);
    await page.close();
  }, 150_000);

  it('a second user in another browser sees none of the first user’s data', async () => {
    const page = await secondBrowser.context.newPage();
    await signUp(page, appUrl, stack.mailboxUrl, { firstName: 'Sam', lastName: 'Second', email: 'sam@other.example.test', company: 'Other Co' }, PASSWORD);
    await page.getByRole('heading', { name: 'Welcome back, Sam' }).waitFor();
    await page.goto(`${appUrl}/dashboard/history`);
    await page.getByText('No audits found').waitFor();
    await page.goto(`${appUrl}/dashboard/settings?tab=domains`);
    await page.getByRole('textbox', { name: /domain/i }).waitFor();
    await expect(page.getByText(TARGET_HOST).count()).resolves.toBe(0);
    // The API with this user's own token (as Amplify stored it): nothing of the first user's.
    const token = (await page.evaluate(
      `Object.entries(localStorage).find(([key]) => key.endsWith('.idToken'))?.[1] ?? ''`,
    )) as string;
    const call = (method: string, path: string) =>
      fetch(`${appUrl}${path}`, { method, headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, body: r.status === 204 ? null : await r.json() }));
    expect(token).not.toBe('');
    expect(await call('GET', '/api/me/audits')).toMatchObject({ status: 200, body: { audits: [] } });
    expect(await call('GET', '/api/me/domains')).toMatchObject({ status: 200, body: { domains: [] } });
    expect((await call('POST', `/api/me/domains/${TARGET_HOST}/verify`)).status).toBe(404);
    expect((await call('DELETE', `/api/me/domains/${TARGET_HOST}`)).status).toBe(404);
    await page.close();
  }, 90_000);

  it('mirrors a sign-out in another tab, changes the password, logs out and in again', async () => {
    const page = await stack.browser.context.newPage();
    const other = await stack.browser.context.newPage();
    await page.goto(`${appUrl}/dashboard/settings?tab=security`);
    await other.goto(`${appUrl}/dashboard`);
    await other.getByRole('heading', { name: 'Welcome back, Olivia' }).waitFor();

    await page.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByRole('status').filter({ hasText: /password/i }).waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${appUrl}/`);
    // The other tab follows in the app (a history change, no page load): its address is polled rather than waited on as a navigation.
    await expect.poll(() => other.url(), { timeout: 30_000 }).toMatch(/\/auth\/login\?returnUrl=%2Fdashboard/);

    await logIn(page, appUrl, FIRST.email, PASSWORD);
    await page.getByRole('alert').waitFor();
    await logIn(page, appUrl, FIRST.email, NEW_PASSWORD);
    await page.waitForURL(`${appUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome back, Olivia' }).waitFor();
    await page.close();
    await other.close();
  }, 90_000);

  it('shows the demo account its sample data, marked as demo', async () => {
    const page = await secondBrowser.context.newPage();
    await page.goto(`${appUrl}/dashboard`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${appUrl}/`);
    await page.goto(`${appUrl}/auth/login`);
    await page.getByRole('button', { name: 'Use the demo account' }).click();
    await page.waitForURL(`${appUrl}/dashboard`);
    await page.getByText('Demo account — sample data').waitFor();
    await page.goto(`${appUrl}/dashboard/history`);
    await page.getByRole('row').nth(5).waitFor();
    await expect(page.getByRole('row').count()).resolves.toBe(6); // header + 5 sample audits
    await page.screenshot({ path: artifactPath('dashboard-demo.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('deletes the account: signed out, and its password no longer works', async () => {
    const page = await stack.browser.context.newPage();
    await page.goto(`${appUrl}/dashboard/settings?tab=security`);
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByRole('button', { name: 'Yes, delete my account' }).click();
    await page.waitForURL(`${appUrl}/`);
    await logIn(page, appUrl, FIRST.email, NEW_PASSWORD);
    await page.getByRole('alert').waitFor();
    expect(auditId).not.toBe('');
    await page.close();
  }, 60_000);
});
