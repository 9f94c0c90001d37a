import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackServers } from '../support/loopback-servers.js';
import { artifactPath, chromiumAvailable, collectConsoleOutput } from './support/browser.js';
import { type E2eStack, startE2eStack } from './support/stack.js';

/**
 * The Wazuh API tester (issue 10 "Proof") in Chromium against `npm start`: the page calls a loopback
 * stand-in that answers as Wazuh's API reference documents (`{data:{affected_items, total_affected_items,
 * total_failed_items, failed_items}, message, error}`; `{title, detail}` errors) with CORS headers,
 * once each for 200, 401, 403 and 404. A second stand-in sends no CORS headers: the browser cannot
 * read it, and the signed-in relay (SCAN_ALLOW_PRIVATE_TARGETS=1, as the e2e stack starts npm start) can.
 */

const GOOD = 'good-token';
const NO_GROUPS = 'agents-only-token';

const agents = [
  { id: '001', name: 'rampart-shop.example.test', ip: '203.0.113.10', status: 'active', group: ['shop-example-test'] },
  { id: '002', name: 'rampart-shop.example.test-2', ip: '203.0.113.11', status: 'disconnected', group: ['shop-example-test'] },
  { id: '003', name: 'rampart-blog.example.test', ip: '203.0.113.12', status: 'active', group: ['blog-example-test', 'default'] },
  { id: '004', name: 'rampart-extra.example.test', ip: '203.0.113.13', status: 'never_connected', group: ['default'] },
];
const list = (items: unknown[]) => ({
  data: { affected_items: items, total_affected_items: items.length, total_failed_items: 0, failed_items: [] },
  message: 'All selected agents information was returned',
  error: 0,
});

/** Wazuh's API as far as the tester asks it, on loopback. */
function wazuhStandIn(cors: boolean, seen: { url: string; authorization?: string }[]) {
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (cors) {
      headers['access-control-allow-origin'] = request.headers.origin ?? '*';
      headers['access-control-allow-headers'] = 'authorization, accept';
      headers['access-control-allow-methods'] = 'GET, OPTIONS';
    }
    if (request.method === 'OPTIONS') {
      response.writeHead(204, headers);
      return response.end();
    }
    seen.push({ url: request.url ?? '', authorization: request.headers.authorization });
    const json = (status: number, body: unknown) => {
      response.writeHead(status, headers);
      response.end(JSON.stringify(body));
    };
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token !== GOOD && token !== NO_GROUPS) return json(401, { title: 'Unauthorized', detail: 'Invalid credentials' });
    switch (request.url) {
      case '/':
        return json(200, { data: { title: 'Wazuh API REST', api_version: '4.9.0', revision: 40900, hostname: 'wazuh-manager' }, error: 0 });
      case '/agents':
        return json(200, list(agents));
      case '/groups':
        if (token === NO_GROUPS) {
          return json(403, { title: 'Permission Denied', detail: 'Permission denied: Resource type: *:*', remediation: 'Please, make sure you have permissions to execute the current request.', error: 4000 });
        }
        return json(200, list([{ name: 'shop-example-test', count: 2 }, { name: 'default', count: 2 }]));
      default:
        return json(404, { title: 'Not Found', detail: '404: Not Found' });
    }
  });
}

describe.skipIf(!chromiumAvailable)('the Wazuh API tester in Chromium', () => {
  let stack: E2eStack;
  const servers = loopbackServers();
  const corsSeen: { url: string; authorization?: string }[] = [];
  const plainSeen: { url: string; authorization?: string }[] = [];
  let corsManager = '';
  let plainManager = '';

  beforeAll(async () => {
    stack = await startE2eStack();
    corsManager = `http://127.0.0.1:${await servers.listen(wazuhStandIn(true, corsSeen))}`;
    plainManager = `http://127.0.0.1:${await servers.listen(wazuhStandIn(false, plainSeen))}`;
  }, 180_000);

  afterAll(async () => {
    await servers.closeAll();
    await stack?.stop();
  }, 30_000);

  async function runTest(page: Page, endpoint: string, token: string, testType: string) {
    await page.getByLabel('Wazuh API endpoint', { exact: true }).fill(endpoint);
    await page.getByLabel('API token', { exact: true }).fill(token);
    await page.getByLabel('Test type', { exact: true }).selectOption(testType);
    const previous = page.getByLabel('Test result', { exact: true });
    const before = (await previous.count()) > 0 ? await previous.getAttribute('data-timestamp') : null;
    await page.getByRole('button', { name: 'Test API' }).click();
    // A new result carries a new timestamp: never read the previous one.
    const result = page.locator(before ? `[aria-label="Test result"]:not([data-timestamp="${before}"])` : '[aria-label="Test result"]');
    await result.waitFor();
    const title = await result.locator('p').first().textContent();
    const terms = await result.getByRole('term').allTextContents();
    const values = await result.getByRole('definition').allTextContents();
    return { title, ...Object.fromEntries(terms.map((term, i) => [term, values[i]])) } as Record<string, string>;
  }

  it('lists the first 3 agents of a 200 answer, served with a CSP that lets this page alone reach the manager', async () => {
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    const response = await page.goto(`${stack.app.url}/wazuh-test`);
    const csp = response!.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("connect-src 'self' https: http://127.0.0.1:* http://localhost:*");
    const home = await fetch(`${stack.app.url}/`);
    expect(home.headers.get('content-security-policy')).toContain("connect-src 'self' https://*.amazonaws.com;");

    await page.getByRole('heading', { name: 'Wazuh API Tester' }).waitFor();
    await expect(page.getByLabel('Wazuh API endpoint', { exact: true }).inputValue()).resolves.toBe('https://your-wazuh-manager:55000');
    const before = corsSeen.length;
    const shown = await runTest(page, `${corsManager}/`, GOOD, 'agents');
    expect(shown).toMatchObject({ title: 'API Test Successful', Status: '200', Endpoint: `${corsManager}/agents` });
    expect(corsSeen.slice(before)).toEqual([{ url: '/agents', authorization: `Bearer ${GOOD}` }]);
    await page.getByRole('heading', { name: 'Agents (3 of 4 shown)' }).waitFor();
    const rows = await page.getByRole('region', { name: /^Agents/ }).getByRole('row').allTextContents();
    expect(rows.slice(1)).toEqual([
      'rampart-shop.example.test203.0.113.10activeshop-example-test',
      'rampart-shop.example.test-2203.0.113.11disconnectedshop-example-test',
      'rampart-blog.example.test203.0.113.12activeblog-example-test, default',
    ]);
    const raw = JSON.parse((await page.getByTestId('wazuh-raw-response').textContent()) ?? '') as unknown;
    expect(raw).toEqual(list(agents));
    await page.screenshot({ path: artifactPath('wazuh-test-200.png'), fullPage: true });
    expect(consoleOutput).toEqual([]);
    await page.close();
  });

  it.each([
    ['401 for a bad token', '', 'wrong-token', 'server-info', 401, 'Unauthorized: Invalid credentials', '401: Bad token'],
    ['403 for a token without groups:read', '', NO_GROUPS, 'groups', 403, 'Permission Denied: Permission denied: Resource type: *:*', '403: No permissions'],
    ['404 for a wrong base path', '/wrong-prefix', GOOD, 'agents', 404, 'Not Found: 404: Not Found', '404: Endpoint not found'],
  ])("shows 'API Test Failed' with %s and the matching explanation", async (_what, prefix, token, testType, status, message, explanation) => {
    const page = await stack.browser.context.newPage();
    await page.goto(`${stack.app.url}/wazuh-test`);
    const shown = await runTest(page, `${corsManager}${prefix}`, token, testType);
    expect(shown).toMatchObject({ title: 'API Test Failed', Status: String(status), Message: message });
    expect(shown.Endpoint).toMatch(new RegExp(`^${corsManager}${prefix}/`));
    const highlighted = await page.getByRole('region', { name: 'Analysis' }).locator('li.font-semibold').allTextContents();
    expect(highlighted).toHaveLength(1);
    expect(highlighted[0]).toMatch(new RegExp(`^${explanation}`));
    await expect(page.getByRole('region', { name: /^Agents/ }).count()).resolves.toBe(0);
    await page.screenshot({ path: artifactPath(`wazuh-test-${status}.png`), fullPage: true });
    await page.close();
  });

  it("cannot read a manager without CORS from the browser, and reads it through Rampart's relay once signed in", async () => {
    const page = await stack.browser.context.newPage();
    await page.goto(`${stack.app.url}/auth/login`);
    await page.getByRole('button', { name: 'Use the demo account' }).click();
    await page.waitForURL(`${stack.app.url}/dashboard`);
    await page.goto(`${stack.app.url}/wazuh-test`);

    const direct = await runTest(page, plainManager, GOOD, 'agents');
    expect(direct).toMatchObject({ title: 'API Test Failed', Status: 'No answer' });
    expect(direct.Message).toMatch(/CORS/);

    const before = plainSeen.length;
    await page.getByLabel('Send through Rampart (for managers without CORS)', { exact: true }).check();
    const relayed = await runTest(page, plainManager, GOOD, 'agents');
    expect(relayed).toMatchObject({ title: 'API Test Successful', Status: '200', Endpoint: `${plainManager}/agents` });
    expect(plainSeen.slice(before)).toEqual([{ url: '/agents', authorization: `Bearer ${GOOD}` }]);
    await page.getByRole('heading', { name: 'Agents (3 of 4 shown)' }).waitFor();
    await page.screenshot({ path: artifactPath('wazuh-test-relay.png'), fullPage: true });
    await page.close();
  }, 60_000);
});
