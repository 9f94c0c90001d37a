import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackServers } from '../support/loopback-servers.js';
import { proveAddress } from './support/accounts.js';
import { artifactPath, chromiumAvailable } from './support/browser.js';
import { startE2eStack, type E2eStack } from './support/stack.js';

/*
 * DECISIONS "Blocked is a result" in Chromium against npm start: a site that answers every request
 * with Cloudflare's managed challenge (a captured page, replayed on loopback) gets a report that
 * says first, in plain words, that the scanner could not see it, lists the checks not run as "Not
 * checked", grades none of the challenge page's headers, and shows Cloudflare's steps to let the
 * scanner in, naming this deployment's scanner.
 */

const HOST = 'walled.example.test';
const challenge = JSON.parse(readFileSync(new URL('../fixtures/blocks/cloudflare-managed-challenge.json', import.meta.url), 'utf8')) as {
  status: number;
  headers: Record<string, string>;
  body: string;
};

describe.skipIf(!chromiumAvailable)('a blocked site in Chromium: the report says so and how to let the scanner in', () => {
  let stack: E2eStack;
  let page: Page;
  const servers = loopbackServers();
  let sitePort = 0;

  beforeAll(async () => {
    sitePort = await servers.listen(http.createServer((_request, response) => response.writeHead(challenge.status, challenge.headers).end(challenge.body)));
    stack = await startE2eStack();
    stack.zone.add({ name: HOST, type: 'A', ttl: 60, data: '127.0.0.1' });
    page = await stack.browser.context.newPage();
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await servers.closeAll();
  }, 30_000);

  it("shows 'We could not see your site', Cloudflare's challenge, the page checks not checked, and Cloudflare's steps naming the scanner", async () => {
    // Prepare: a free-scan lead for the walled site, as the form sends it, from the owner's address proven by its code
    await proveAddress(stack.app.url, stack.mailboxUrl, 'owner@example.test', `http://${HOST}:${sitePort}/`);
    const response = await fetch(`${stack.app.url}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Wally',
        lastName: 'Owner',
        businessName: 'Walled Garden',
        webUrl: `http://${HOST}:${sitePort}/`,
        email: 'owner@example.test',
        mobileNumber: '+61412345679',
        agreedToTerms: true,
        agreedToDataCollection: true,
      }),
    });
    expect(response.status).toBe(201);
    const { auditId } = (await response.json()) as { auditId: string };

    // Act
    await page.goto(`${stack.app.url}/results/${auditId}`);
    await page.getByTestId('audit-status').filter({ hasText: /^completed$/ }).waitFor({ timeout: 60_000 });
    const panel = page.getByTestId('site-access');
    await panel.waitFor();
    await page.screenshot({ path: artifactPath('blocked-report.png'), fullPage: true });

    // Assess
    await expect(panel.getByRole('heading', { name: 'We could not see your site' }).isVisible()).resolves.toBe(true);
    const text = await panel.innerText();
    expect(text).toMatch(/Cloudflare/);
    expect(text).toMatch(/challenge/i);
    const keptOut = await panel.getByRole('list', { name: 'Checks the site kept out' }).locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-check')));
    expect(keptOut.sort()).toEqual(['exposure', 'http', 'software', 'wordpress']);
    const steps = await panel.getByRole('list', { name: 'To let the scanner in:' }).locator('li').allInnerTexts();
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.join('\n')).toMatch(/Skip/);
    expect(steps.join('\n')).toMatch(/RampartScanner/);

    // The challenge page's headers are not graded as the site's: no header finding, and no A.
    const view = (await (await fetch(`${stack.app.url}/api/audits/${auditId}`)).json()) as {
      result?: { grade?: string; coverage?: { partial?: boolean; notChecked?: { check: string; cause: string }[] }; vulnerabilities?: { id?: string }[] };
    };
    expect(view.result?.coverage?.partial).toBe(true);
    expect(view.result?.coverage?.notChecked?.filter((item) => item.cause === 'blocked').map((item) => item.check).sort()).toEqual(['exposure', 'http', 'software', 'wordpress']);
    expect(view.result?.grade).not.toBe('A');
    expect(await page.getByText('No Content Security Policy').count()).toBe(0);
  }, 120_000);
});
