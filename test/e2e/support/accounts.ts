import type { Page } from 'playwright-core';
import { mailbox } from '../../support/post-from.js';

/** Browser steps the account journeys share: sign up with the mailed code, sign in. */

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
}

/** The newest 6-digit code mailed to `email` under a subject matching `subject`. */
export async function codeMailedTo(mailboxUrl: string, email: string, subject: RegExp): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mails = (await mailbox(mailboxUrl, email)).filter((mail) => subject.test(mail.subject));
    const code = /\b(\d{6})\b/.exec(mails.at(-1)?.body.text ?? '')?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no code matching ${subject} was mailed to ${email}`);
}

export async function signUp(page: Page, appUrl: string, mailboxUrl: string, who: Person, password: string) {
  await page.goto(`${appUrl}/auth/signup`);
  await page.getByLabel('First name', { exact: true }).fill(who.firstName);
  await page.getByLabel('Last name', { exact: true }).fill(who.lastName);
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Company', { exact: true }).fill(who.company);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password', { exact: true }).fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: 'Confirm your email' }).waitFor({ timeout: 15_000 });
  const code = await codeMailedTo(mailboxUrl, who.email, /verification code|confirm/i);
  await page.getByLabel('Confirmation code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL(`${appUrl}/dashboard`, { timeout: 15_000 });
}

export async function logIn(page: Page, appUrl: string, email: string, password: string) {
  await page.goto(`${appUrl}/auth/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Remember me', { exact: true }).check();
  await page.getByRole('button', { name: 'Sign In' }).click();
}

