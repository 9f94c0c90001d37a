import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../support/pdf-text.js';
import { mailbox } from '../support/post-from.js';
import { firstSignIn, leadWithAccount, signUp } from './support/accounts.js';
import { accessibilityViolations } from './support/axe.js';
import { chromiumAvailable, collectConsoleOutput, launchBrowser, type TestBrowser } from './support/browser.js';
import { startE2eStack, TARGET_HOST, type E2eStack } from './support/stack.js';

/**
 * Issue 22 item 3 (IT providers) in Chromium against `npm start`: a lead-created client (its
 * organisation named after the lead's business) invites its IT provider from Settings → Team; the
 * provider's owner, signed up on their own, accepts the mailed link; on their own dashboard "Your
 * clients" lists the client with its grade, they set their report branding, open the client (the
 * switcher follows) and download the client's PDF report, which carries the provider's name.
 */

const CLIENT_EMAIL = 'owner@example.test';
const CLIENT_PASSWORD = 'Steady-Harbour-Light-58';
const CLIENT_NAME = 'Example Shop';
const PROVIDER = { firstName: 'Mia', lastName: 'Provider', email: 'mia@acme-it.example.test', company: 'Acme IT Services' };
const PROVIDER_PASSWORD = 'Amber-Kettle-Window-19';
const BRAND_NAME = 'Acme Managed Security';
const INVITATION_LINK = /(https?:\/\/\S+\/invitations\/accept\?token=(inv_[A-Za-z0-9_-]{43}))/;

async function invitationLinkMailedTo(mailboxUrl: string, email: string): Promise<{ subject: string; text: string; link: string }> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mail = (await mailbox(mailboxUrl, email)).find((m) => /IT provider/.test(m.subject));
    const match = INVITATION_LINK.exec(mail?.body.text ?? '');
    if (mail && match?.[1]) return { subject: mail.subject, text: mail.body.text ?? '', link: match[1] };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no provider invitation was mailed to ${email}`);
}

describe.skipIf(!chromiumAvailable)('an IT provider in Chromium: linked by its client, switches to it, downloads a branded PDF', () => {
  let stack: E2eStack;
  let appUrl: string;
  let providerBrowser: TestBrowser;
  let client: Page;
  let provider: Page;
  let providerConsole: string[];

  beforeAll(async () => {
    stack = await startE2eStack();
    appUrl = stack.app.url;
    providerBrowser = await launchBrowser();
    await leadWithAccount(appUrl, stack.mailboxUrl, TARGET_HOST, CLIENT_EMAIL, CLIENT_NAME);
    client = await stack.browser.context.newPage();
    provider = await providerBrowser.context.newPage();
    providerConsole = collectConsoleOutput(provider);
  }, 180_000);

  afterAll(async () => {
    await providerBrowser?.close();
    await stack?.stop();
  }, 30_000);

  it('the client signs in and invites its IT provider from Settings → Team', async () => {
    await firstSignIn(client, stack.mailboxUrl, CLIENT_EMAIL, CLIENT_PASSWORD);

    // A domain of the client's, for the provider's overview.
    await client.goto(`${appUrl}/dashboard/settings?tab=domains`);
    await client.getByRole('textbox', { name: /domain/i }).fill(TARGET_HOST);
    await client.getByRole('button', { name: 'Add Domain' }).click();
    await client.getByRole('listitem', { name: TARGET_HOST }).getByText('Pending').waitFor();

    await client.goto(`${appUrl}/dashboard/settings?tab=team`);
    await client.getByRole('heading', { name: 'Members' }).waitFor();
    await client.getByLabel('Email address', { exact: true }).fill(PROVIDER.email);
    await client.getByLabel('Role', { exact: true }).selectOption('provider');
    await client.getByRole('button', { name: 'Send invitation' }).click();
    await client.getByText(`Invitation sent to ${PROVIDER.email}.`).waitFor();
    await client.getByText(/^IT provider · expires /).waitFor();
  }, 90_000);

  it('the provider signs up, accepts the mailed link, and sees the client in "Your clients"', async () => {
    const invitation = await invitationLinkMailedTo(stack.mailboxUrl, PROVIDER.email);
    // The lead's business names the client's organisation (the lead's profile carries it): quoted in
    // the body, never in the subject (issue 28 finding 5).
    expect(invitation.subject).toBe('You are asked to be an IT provider on Rampart');
    expect(invitation.text).toContain(`the organisation “${CLIENT_NAME}”`);

    await signUp(provider, appUrl, stack.mailboxUrl, PROVIDER, PROVIDER_PASSWORD);
    await provider.goto(invitation.link);
    await provider.getByRole('button', { name: 'Accept invitation' }).click();
    await provider.waitForURL(`${appUrl}/dashboard`);

    const switcher = provider.getByLabel('Organisation', { exact: true });
    await switcher.selectOption({ label: `${PROVIDER.company} (yours)` });
    const clients = provider.getByRole('region', { name: 'Your clients' });
    await clients.waitFor();
    await clients.getByText(CLIENT_NAME, { exact: false }).first().waitFor();
    // The domain with the grade of the client's completed lead scan.
    const row = clients.getByRole('row').filter({ hasText: TARGET_HOST });
    await row.waitFor();
    await expect(row.getByRole('cell').nth(1).textContent()).resolves.toMatch(/^[A-F]$/);
    // The overview with its clients and the branding form passes axe (WCAG 2.1 AA), as every page of the suite does.
    expect(await accessibilityViolations(provider)).toEqual([]);
  }, 90_000);

  it('sets its report branding, opens the client with one click, and downloads the client’s PDF with its name', async () => {
    const clients = provider.getByRole('region', { name: 'Your clients' });
    await clients.getByLabel('Name on reports', { exact: true }).fill(BRAND_NAME);
    await clients.getByRole('button', { name: 'Save branding' }).click();
    await clients.getByText('Branding saved').waitFor();

    await clients.getByRole('button', { name: `Open ${CLIENT_NAME}` }).click();
    const switcher = provider.getByLabel('Organisation', { exact: true });
    await expect.poll(async () => (await switcher.locator('option:checked').textContent()) ?? '').toBe(`${CLIENT_NAME} (admin)`);
    await provider.getByRole('heading', { name: 'Recent audits' }).waitFor();
    await provider.getByRole('link', { name: TARGET_HOST }).first().click();
    const pdfLink = provider.getByRole('link', { name: 'Download PDF Report' });
    await pdfLink.waitFor();

    const response = await provider.request.get(new URL((await pdfLink.getAttribute('href')) ?? '', appUrl).toString());
    const pdf = await readPdf(new Uint8Array(await response.body()));

    expect(response.status()).toBe(200);
    expect(pdf.text).toContain(`${BRAND_NAME} security report: ${TARGET_HOST}`);
    expect(pdf.text).toContain('Prepared by');
    expect(providerConsole).toEqual([]);
  }, 90_000);

  it('on a 360 px phone the client report keeps its grade and score and fits the screen; the dashboard folds its menu away; axe finds nothing', async () => {
    // Prepare: the client report as the desktop shows it (the previous step opened it).
    const onDesktop = { grade: await provider.getByTestId('grade').textContent(), score: await provider.getByTestId('risk-score').textContent() };
    const widest = async () => (await provider.evaluate('document.documentElement.scrollWidth')) as number;

    // Act: the same page reflowed (a reload would drop the client chosen in the switcher: it is this tab's), then the dashboard.
    await provider.setViewportSize({ width: 360, height: 780 });
    await provider.getByTestId('grade').waitFor();
    const onPhone = { grade: await provider.getByTestId('grade').textContent(), score: await provider.getByTestId('risk-score').textContent() };
    const reportWidth = await widest();
    const reportViolations = await accessibilityViolations(provider);
    await provider.goto(`${appUrl}/dashboard`);
    const menu = provider.getByRole('button', { name: 'Menu' });
    await menu.waitFor();
    const navHidden = !(await provider.getByRole('navigation', { name: 'Dashboard' }).isVisible());
    await menu.click();
    await provider.getByRole('navigation', { name: 'Dashboard' }).waitFor();
    const dashboardWidth = await widest();

    // Assess
    expect(onDesktop.grade).toMatch(/^[A-F]$/);
    expect(onPhone).toEqual(onDesktop);
    expect([reportWidth, dashboardWidth].map((width) => width <= 360)).toEqual([true, true]);
    expect(navHidden).toBe(true);
    expect(reportViolations).toEqual([]);
    expect(await accessibilityViolations(provider)).toEqual([]);
    expect(providerConsole).toEqual([]);
  }, 90_000);
});
