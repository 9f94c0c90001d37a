import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, signUp } from './support/accounts.js';
import { chromiumAvailable, collectConsoleOutput } from './support/browser.js';
import { startE2eStack, type E2eStack } from './support/stack.js';

/**
 * Two-step sign-in (issue 28 item 12) in Chromium against `npm start` (cognito-local): enrol TOTP in
 * Settings → Security with a code computed here from the secret the page shows, sign out, and sign
 * in again with the password and then the code; a wrong code is refused on the way.
 */

const WHO = { firstName: 'Tariq', lastName: 'Totp', email: 'tariq@totp.example.test', company: 'Totp Traders' };
const PASSWORD = 'Amber-Kettle-Field-58';

const codeFor = (secret: string, offsetSeconds = 0) =>
  generateSync({ secret, algorithm: 'sha1', digits: 6, period: 30, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

describe.skipIf(!chromiumAvailable)('two-step sign-in in Chromium', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack();
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  it('turns on TOTP in Settings → Security, then signs in with the password and the authenticator code', async () => {
    const appUrl = stack.app.url;
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    await signUp(page, appUrl, stack.mailboxUrl, WHO, PASSWORD);

    // Enrol: the page gives the otpauth:// link and the secret; the "app" is otplib here.
    await page.goto(`${appUrl}/dashboard/settings?tab=security`);
    await page.getByText('Two-step sign-in is off.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    const uri = new URL((await page.getByRole('link', { name: 'Open in authenticator app' }).getAttribute('href'))!);
    const secret = uri.searchParams.get('secret')!;
    await expect(page.getByText(secret, { exact: true }).isVisible()).resolves.toBe(true);
    await page.getByLabel('Code from the app', { exact: true }).fill(codeFor(secret));
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await page.getByTestId('two-step-state').getByText(/^Two-step sign-in is on/).waitFor({ timeout: 15_000 });

    // Sign out and in: Cognito now answers the password with the SOFTWARE_TOKEN_MFA challenge.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${appUrl}/`);
    await logIn(page, appUrl, WHO.email, PASSWORD);
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor({ timeout: 15_000 });
    await page.getByLabel('Authentication code', { exact: true }).fill(codeFor(secret, -300));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is not right.', { exact: false }).waitFor({ timeout: 15_000 });
    await page.getByLabel('Authentication code', { exact: true }).fill(codeFor(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${appUrl}/dashboard`, { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Welcome back, Tariq' }).waitFor();

    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBeTruthy();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // Cognito's refusal of the wrong code is an expected 400 in the console; nothing else is.
    expect(consoleOutput.filter((line) => !/400 \(Bad Request\)/.test(line))).toEqual([]);
    await page.close();
  }, 120_000);
});
