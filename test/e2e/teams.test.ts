import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailbox } from '../support/post-from.js';
import { codeMailedTo, firstSignIn, leadWithAccount } from './support/accounts.js';
import { accessibilityViolations } from './support/axe.js';
import { chromiumAvailable, collectConsoleOutput, launchBrowser, type TestBrowser } from './support/browser.js';
import { startE2eStack, TARGET_HOST, type E2eStack } from './support/stack.js';

/**
 * Issue 22 item 2 (Teams) in Chromium against `npm start`: a lead-created account (its free scan
 * completed) chooses its password with the emailed one-time link, opens Settings → Team and invites a
 * second address as a viewer; the invitation arrives in the SES local mailbox; the invitee opens its
 * link signed out, creates an account with the mailed code, comes back and accepts; with the
 * sidebar's organisation switcher they move between their own organisation and the owner's, where
 * they read the audits and domains under a "View only" note and are shown no write controls; the
 * API refuses their write with the header (403 forbidden_role). axe (WCAG 2.1 AA, as
 * accessibility.test.ts runs it) checks Settings → Team and the accept page, signed out and in.
 */

const OWNER_EMAIL = 'owner@example.test';
const OWNER_PASSWORD = 'Steady-Harbour-Light-58';
/** The organisation's name is its owner's company, which the owner fills in under Settings → Profile. */
const ORG_NAME = 'Example Shop Pty Ltd';
const INVITEE = { firstName: 'Vera', lastName: 'Viewer', email: 'vera@viewer.example.test', company: 'Vera Consulting' };
const INVITEE_PASSWORD = 'Amber-Kettle-Window-19';
const PROFILE_SAVED = 'Your profile has been saved.';
const INVITATION_LINK = /(https?:\/\/\S+\/invitations\/accept\?token=(inv_[A-Za-z0-9_-]{43}))/;

/** The invitation mailed to `email` (SES local), waited for up to 15 s. */
async function invitationMailedTo(mailboxUrl: string, email: string): Promise<{ subject: string; text: string; link: string; token: string }> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mail = (await mailbox(mailboxUrl, email)).find((m) => /invited/i.test(m.subject));
    const match = INVITATION_LINK.exec(mail?.body.text ?? '');
    if (mail && match?.[1] && match[2]) return { subject: mail.subject, text: mail.body.text ?? '', link: match[1], token: match[2] };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no invitation was mailed to ${email}`);
}

/** The signed-in user's ID token as Amplify stored it (localStorage when remembered, else sessionStorage: the set-password page's sign-in). */
async function idTokenOf(page: Page): Promise<string> {
  return (await page.evaluate(`[...Object.entries(localStorage), ...Object.entries(sessionStorage)].find(([key]) => key.endsWith('.idToken'))?.[1] ?? ''`)) as string;
}

describe.skipIf(!chromiumAvailable)('teams in Chromium: invite, accept, a viewer’s read-only dashboard', () => {
  let stack: E2eStack;
  let appUrl: string;
  let inviteeBrowser: TestBrowser;
  let owner: Page;
  let invitee: Page;
  let ownerConsole: string[];
  let inviteeConsole: string[];
  let invitation: { subject: string; text: string; link: string; token: string };

  beforeAll(async () => {
    stack = await startE2eStack();
    appUrl = stack.app.url;
    inviteeBrowser = await launchBrowser();
    // The lead form's 'create an account' choice: an account with a completed free scan, its set-password link mailed.
    await leadWithAccount(appUrl, stack.mailboxUrl, TARGET_HOST, OWNER_EMAIL, 'Example Shop');
    owner = await stack.browser.context.newPage();
    ownerConsole = collectConsoleOutput(owner);
    invitee = await inviteeBrowser.context.newPage();
    inviteeConsole = collectConsoleOutput(invitee);
  }, 180_000);

  afterAll(async () => {
    await inviteeBrowser?.close();
    await stack?.stop();
  }, 30_000);

  it('the owner signs in, names the organisation, adds a domain, and invites a viewer from Settings → Team (axe: no violation)', async () => {
    await firstSignIn(owner, stack.mailboxUrl, OWNER_EMAIL, OWNER_PASSWORD);

    // The company names the organisation (in the invitation and the invitee's switcher); a
    // lead-created profile starts with the lead's names and business, renamed here.
    await owner.goto(`${appUrl}/dashboard/settings?tab=profile`);
    await owner.getByLabel('First name', { exact: true }).fill('Olivia');
    await owner.getByLabel('Last name', { exact: true }).fill('Owner');
    await owner.getByLabel('Company', { exact: true }).fill(ORG_NAME);
    await owner.getByRole('button', { name: 'Save Changes' }).click();
    await owner.getByText(PROFILE_SAVED).waitFor();

    // A domain in the organisation, for the viewer to read.
    await owner.getByRole('tab', { name: 'Domains' }).click();
    await owner.getByRole('textbox', { name: /domain/i }).fill(TARGET_HOST);
    await owner.getByRole('button', { name: 'Add Domain' }).click();
    await owner.getByRole('listitem', { name: TARGET_HOST }).getByText('Pending').waitFor();

    await owner.getByRole('tab', { name: 'Team' }).click();
    await owner.waitForURL(`${appUrl}/dashboard/settings?tab=team`);
    await owner.getByRole('heading', { name: 'Members' }).waitFor();
    await owner.getByText(OWNER_EMAIL).first().waitFor();
    await owner.getByText('No pending invitations.').waitFor();
    expect(await accessibilityViolations(owner)).toEqual([]);

    await owner.getByLabel('Email address', { exact: true }).fill(INVITEE.email);
    await owner.getByLabel('Role', { exact: true }).selectOption('viewer');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(`Invitation sent to ${INVITEE.email}.`).waitFor();
    await owner.getByRole('button', { name: `Revoke the invitation of ${INVITEE.email}` }).waitFor();
    await expect(owner.getByText(/^Viewer · expires /).count()).resolves.toBe(1);
    // With a pending invitation listed, the tab passes axe too.
    expect(await accessibilityViolations(owner)).toEqual([]);
  }, 90_000);

  it('mails the invitee a link to the accept page, naming the organisation quoted in the body (never in the subject: issue 28)', async () => {
    invitation = await invitationMailedTo(stack.mailboxUrl, INVITEE.email);
    expect(invitation.subject).toBe('You are invited to join an organisation on Rampart');
    expect(invitation.text).toContain(`“${ORG_NAME}”`);
    expect(new URL(invitation.link).pathname).toBe('/invitations/accept');
  }, 30_000);

  it('the invitee opens the link signed out, creates an account with the mailed code, comes back and accepts (axe on both states)', async () => {
    const acceptPath = `/invitations/accept?token=${invitation.token}`;
    await invitee.goto(`${appUrl}${acceptPath}`);
    await invitee.getByRole('heading', { name: 'You are invited to an organisation' }).waitFor();
    await invitee.getByRole('link', { name: 'Create an account' }).waitFor();
    expect(await accessibilityViolations(invitee)).toEqual([]);

    await invitee.getByRole('link', { name: 'Create an account' }).click();
    await invitee.waitForURL(`${appUrl}/auth/signup?returnUrl=${encodeURIComponent(acceptPath)}`);
    await invitee.getByLabel('First name', { exact: true }).fill(INVITEE.firstName);
    await invitee.getByLabel('Last name', { exact: true }).fill(INVITEE.lastName);
    await invitee.getByLabel('Email', { exact: true }).fill(INVITEE.email);
    await invitee.getByLabel('Company', { exact: true }).fill(INVITEE.company);
    await invitee.getByLabel('Password', { exact: true }).fill(INVITEE_PASSWORD);
    await invitee.getByLabel('Confirm password', { exact: true }).fill(INVITEE_PASSWORD);
    await invitee.getByRole('checkbox').check();
    await invitee.getByRole('button', { name: 'Create Account' }).click();
    await invitee.getByRole('heading', { name: 'Confirm your email' }).waitFor({ timeout: 15_000 });
    await invitee.getByLabel('Confirmation code', { exact: true }).fill(await codeMailedTo(stack.mailboxUrl, INVITEE.email, /verification code|confirm/i));
    await invitee.getByRole('button', { name: 'Confirm' }).click();

    await invitee.waitForURL(`${appUrl}${acceptPath}`, { timeout: 15_000 });
    const accept = invitee.getByRole('button', { name: 'Accept invitation' });
    await accept.waitFor();
    expect(await accessibilityViolations(invitee)).toEqual([]);
    await accept.click();
    await invitee.waitForURL(`${appUrl}/dashboard`);
    await invitee.getByRole('note').filter({ hasText: 'View only' }).waitFor();
  }, 90_000);

  it("switches between the invitee's own organisation and the owner's with the switcher: the owner's is read-only", async () => {
    const switcher = invitee.getByLabel('Organisation', { exact: true });
    const viewOnly = invitee.getByRole('note').filter({ hasText: 'View only' });
    await expect(switcher.locator('option').allTextContents()).resolves.toEqual(expect.arrayContaining([`${INVITEE.company} (yours)`, `${ORG_NAME} (viewer)`]));

    // Their own (empty) organisation: no note, and they may scan.
    await switcher.selectOption({ label: `${INVITEE.company} (yours)` });
    await invitee.getByRole('heading', { name: /^Welcome to / }).waitFor();
    await invitee.getByRole('button', { name: 'New Security Scan' }).first().waitFor();
    await expect(viewOnly.count()).resolves.toBe(0);

    // The owner's organisation: its audit, read-only.
    await switcher.selectOption({ label: `${ORG_NAME} (viewer)` });
    await viewOnly.waitFor();
    await expect(viewOnly.textContent()).resolves.toContain('View only: you are a viewer in this organisation.');
    await invitee.getByRole('heading', { name: 'Recent audits' }).waitFor();
    await invitee.getByRole('link', { name: TARGET_HOST }).first().waitFor();
    await expect(invitee.getByText('You are monitoring 1 domain.').count()).resolves.toBe(1);
    await expect(invitee.getByRole('button', { name: 'New Security Scan' }).count()).resolves.toBe(0);

    await invitee.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Audit History' }).click();
    await invitee.getByRole('row').filter({ hasText: TARGET_HOST }).first().waitFor();
    await expect(invitee.getByRole('button', { name: 'New Security Scan' }).count()).resolves.toBe(0);
    await viewOnly.waitFor();

    await invitee.goto(`${appUrl}/dashboard/settings?tab=domains`);
    await viewOnly.waitFor();
    await invitee.getByRole('listitem', { name: TARGET_HOST }).waitFor();
    await expect(invitee.getByRole('button', { name: 'Add Domain' }).count()).resolves.toBe(0);
    await expect(invitee.getByRole('textbox', { name: /domain/i }).count()).resolves.toBe(0);
    await expect(invitee.getByRole('button', { name: 'Check verification' }).count()).resolves.toBe(0);
    await expect(invitee.getByRole('button', { name: /delete/i }).count()).resolves.toBe(0);
    await expect(invitee.getByRole('tab', { name: 'API' }).count()).resolves.toBe(0);
    await expect(invitee.getByRole('tab', { name: 'Alert destinations' }).count()).resolves.toBe(0);

    // Settings → Team as a viewer: the members with their roles, no invite form, the way to leave.
    await invitee.getByRole('tab', { name: 'Team' }).click();
    await invitee.getByText('You are a viewer in this organisation.', { exact: true }).waitFor();
    await invitee.getByText(OWNER_EMAIL).first().waitFor();
    await expect(invitee.getByRole('button', { name: 'Send invitation' }).count()).resolves.toBe(0);
    await expect(invitee.getByRole('button', { name: `Remove ${INVITEE.email}` }).count()).resolves.toBe(0);
    await invitee.getByRole('button', { name: 'Leave organisation' }).waitFor();
    expect(await accessibilityViolations(invitee)).toEqual([]);
  }, 90_000);

  it("refuses the viewer's write through the API with the header (403 forbidden_role), while the read succeeds", async () => {
    const token = await idTokenOf(invitee);
    expect(token).not.toBe('');
    const ownerToken = await idTokenOf(owner);
    const ownerMe = (await (await fetch(`${appUrl}/api/me`, { headers: { authorization: `Bearer ${ownerToken}` } })).json()) as { organisation?: { id?: string } };
    const orgId = ownerMe.organisation?.id ?? '';
    expect(orgId).not.toBe('');
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${appUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'x-rampart-org': orgId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    const read = await call('GET', '/api/me/domains');
    const write = await call('POST', '/api/me/domains', { domain: 'viewer-added.example.test' });
    const scan = await call('POST', '/api/me/scans', { domain: TARGET_HOST });
    expect(read.status).toBe(200);
    expect((read.body.domains as { domain: string }[]).map((d) => d.domain)).toEqual([TARGET_HOST]);
    expect([write.status, write.body.error]).toEqual([403, 'forbidden_role']);
    expect([scan.status, scan.body.error]).toEqual([403, 'forbidden_role']);
    expect(((await call('GET', '/api/me/domains')).body.domains as unknown[]).length).toBe(1);
  }, 30_000);

  it('printed nothing to either console', () => {
    expect(ownerConsole).toEqual([]);
    expect(inviteeConsole).toEqual([]);
  });
});
