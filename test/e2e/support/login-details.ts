import type { Page } from 'playwright-core';
import { mailbox } from '../../support/post-from.js';

/** The one-time set-password link a lead-created account was emailed (SES local), waited for up to 15 s. */
export async function setPasswordLinkOf(mailboxUrl: string, email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mail = (await mailbox(mailboxUrl, email)).find((m) => /choose your password/.test(m.subject));
    const link = /Choose your password: (\S+)/.exec(mail?.body.text ?? '')?.[1];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no set-password link was mailed to ${email}`);
}

/**
 * Opens the emailed link and chooses the password (issue 29 item 4): the page signs in with it and
 * lands on the dashboard.
 */
export async function choosePasswordByLink(page: Page, link: string, password: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await page.waitForURL(new URL('/dashboard', link).href);
}
