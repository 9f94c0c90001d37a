import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAgentReport } from '../../lambdas/agents/report-generator.js';
import { AGENT_VERSION, OSQUERY_VERSION, type AgentRegistrationResponse } from '../../lambdas/domain/agents.contract.js';
import { demoCredentials, demoDomains } from '../../lambdas/domain/demo-account.js';
import { artifactPath, chromiumAvailable, collectConsoleOutput } from './support/browser.js';
import { type E2eStack, startE2eStack } from './support/stack.js';

/**
 * Issue 10 "Proof" in Chromium against `npm start`: the demo account's Install Agent tab shows the
 * install commands with the customer's enrollment secret (the secret the page shows is the one the
 * API accepts: the test registers a machine with it, as the installer does), a report from the
 * report generator posted with the agent's own token appears on the Agent List with its grade, and
 * the walkthrough follows the registration and the first report.
 */

const HOSTNAME = 'e2e-build-server';

describe.skipIf(!chromiumAvailable)('Local Security Agents in Chromium', () => {
  let stack: E2eStack;
  const [domain] = demoDomains('Rampart');
  const demo = demoCredentials('Rampart');

  beforeAll(async () => {
    stack = await startE2eStack();
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  it("shows the commands with the customer's secret, and a machine registered and reported with it appears on the Agent List", async () => {
    const page = await stack.browser.context.newPage();
    const consoleOutput = collectConsoleOutput(page);
    await page.goto(`${stack.app.url}/auth/login`);
    await page.getByRole('button', { name: 'Use the demo account' }).click();
    await page.waitForURL(`${stack.app.url}/dashboard`);

    await page.goto(`${stack.app.url}/dashboard/agents?tab=install`);
    await page.getByLabel('Domain', { exact: true }).selectOption(domain);
    const commands = page.getByRole('region', { name: 'Command line' });
    const [windows, unix, secret] = await commands.locator('dd code').allTextContents();
    const file = domain.replace(/\./g, '-');
    expect(windows).toBe(`.\\${file}-osquery-installer.bat --client-domain ${domain}`);
    expect(unix).toBe(`sudo sh ./${file}-osquery-installer.sh --client-domain ${domain}`);
    expect(secret).toMatch(/^\S{20,}$/);
    await expect(page.getByRole('region', { name: 'Enrollment secret' }).locator('code').textContent()).resolves.toBe(secret);

    // The Linux card's download: saved under the domain's name, carrying this secret and domain.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('listitem', { name: 'Linux installer' }).getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${file}-osquery-installer.sh`);
    const script = await readFile((await download.path())!, 'utf8');
    expect(script.startsWith('#!/bin/sh')).toBe(true);
    expect(script).toContain(secret!);
    expect(script).toContain(domain);
    // The download started the walkthrough; start it again to follow this install from here.
    await page.getByRole('button', { name: 'Start again' }).click();

    await page.getByRole('button', { name: 'I have started the installer' }).click();
    await page.getByText('Waiting for the installer to start as administrator').waitFor();

    // What the installer does once osquery runs: register with the secret, then the agent reports with its own token.
    const registration = await fetch(`${stack.app.url}/api/agents/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret!}` },
      body: JSON.stringify({
        email: demo.email,
        domain,
        hostname: HOSTNAME,
        os: 'linux',
        osquery_version: OSQUERY_VERSION,
        agent_version: AGENT_VERSION,
        timestamp: new Date().toISOString(),
      }),
    });
    expect(registration.status).toBe(201);
    const { agent_id: agentId, agent_token: agentToken } = (await registration.json()) as AgentRegistrationResponse;
    const { report } = generateAgentReport({ platform: 'linux', seed: 'e2e-agents', agentId, clientDomain: domain, timestamp: new Date(), hostname: HOSTNAME, problems: ['vulnerable-packages', 'firewall-off'] });
    const posted = await fetch(`${stack.app.url}/api/agents/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agentToken}` },
      body: JSON.stringify(report),
    });
    expect(posted.status).toBe(200);

    // The walkthrough polls every 5 s: registration, then the first report.
    await page.getByText(`Agent installed on ${HOSTNAME}`, { exact: false }).waitFor({ timeout: 15_000 });
    await page.getByText(/^First report received/).waitFor({ timeout: 15_000 });
    await expect(page.locator('[data-step]').evaluateAll((steps) => steps.map((step) => step.getAttribute('data-status')))).resolves.toEqual(Array(6).fill('completed'));

    await page.getByRole('tab', { name: 'Agent List' }).click();
    const row = page.getByRole('row').filter({ hasText: HOSTNAME });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[0]).toBe(`${HOSTNAME} Active`);
    expect(cells[2]).toMatch(/Ubuntu/);
    expect(cells[4]).toMatch(/^[A-F]$/);
    expect(Number(cells[5])).toBeLessThan(100);
    expect(cells[6]).toMatch(/\d+ vulnerabilit(y|ies), \d+ config issues?/);
    await page.screenshot({ path: artifactPath('agents-list.png'), fullPage: true });

    await page.getByRole('tab', { name: 'Debug' }).click();
    const recent = page.getByRole('region', { name: 'Recent submissions' });
    await recent.getByText(agentId).waitFor();
    expect(consoleOutput).toEqual([]);
    await page.close();
  }, 90_000);
});
