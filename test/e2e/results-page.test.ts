import { randomUUID } from 'node:crypto';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, collectConsoleOutput, artifactPath } from './support/browser.js';
import { postLead, startE2eStack, type E2eStack } from './support/stack.js';

/*
 * The results page's own states, in Chromium against npm start. The real scan of the test target
 * finishes in well under a second, so to see the page while a scan runs (and when the API fails)
 * these tests rewrite the real API's answers in the browser with page.route: the data stays the
 * server's, only the status or the failure is staged.
 */

type AuditBody = { audit: Record<string, unknown> };

const AUDIT_API = '**/api/audits/*';

async function waitForCompletedAudit(appUrl: string, auditId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${appUrl}/api/audits/${auditId}`);
    const body = (await response.json()) as AuditBody;
    if (body.audit?.status === 'completed') return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`audit ${auditId} did not complete within 60 s`);
}

describe.skipIf(!chromiumAvailable)('the results page in Chromium', () => {
  let stack: E2eStack;
  let appUrl: string;
  let auditId: string;

  beforeAll(async () => {
    stack = await startE2eStack();
    appUrl = stack.app.url;
    const lead = await postLead(appUrl, stack.mailboxUrl);
    if (!lead.body.auditId) throw new Error(`POST /api/leads answered ${lead.status}: ${JSON.stringify(lead.body)}`);
    auditId = lead.body.auditId;
    await waitForCompletedAudit(appUrl, auditId);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  async function openPage(): Promise<Page> {
    return stack.browser.context.newPage();
  }

  it("polls about once a second while the scan runs, shows 'in progress', then stops once completed", async () => {
    // Prepare: the first three answers say the scan is still running.
    const page = await openPage();
    const consoleOutput = collectConsoleOutput(page);
    const requestTimes: number[] = [];
    let runningAnswersLeft = 3;
    await page.route(AUDIT_API, async (route: Route) => {
      requestTimes.push(Date.now());
      const response = await route.fetch();
      const body = (await response.json()) as AuditBody;
      if (runningAnswersLeft > 0) {
        runningAnswersLeft -= 1;
        body.audit = { ...body.audit, status: 'in_progress', score: undefined, grade: undefined, riskLevel: undefined };
      }
      await route.fulfill({ response, json: body });
    });

    // Act
    await page.goto(`${appUrl}/results/${auditId}`);
    const status = page.getByTestId('audit-status');
    await status.filter({ hasText: /^in progress$/ }).waitFor();
    const progressShown = await page.getByRole('status').filter({ hasText: 'checks finished' }).isVisible();
    await page.screenshot({ path: artifactPath('results-running.png'), fullPage: true });
    await status.filter({ hasText: /^completed$/ }).waitFor({ timeout: 10_000 });
    const requestsWhenCompleted = requestTimes.length;
    await page.waitForTimeout(2_500);

    // Assess
    expect(progressShown).toBe(true);
    expect(requestsWhenCompleted).toBe(4);
    const gaps = requestTimes.slice(1).map((time, index) => time - (requestTimes[index] ?? time));
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(800);
      // About once a second: the interval plus the answer's own time, which CI load can stretch.
      expect(gap).toBeLessThan(4_000);
    }
    expect(requestTimes.length, 'no polling after completion').toBe(requestsWhenCompleted);
    expect(consoleOutput).toEqual([]);
    await page.close();
  }, 60_000);

  it("offers 'Try Again' when the API fails, and shows the report once it answers again", async () => {
    // Prepare: the API fails until the test lets it through.
    const page = await openPage();
    let failing = true;
    await page.route(AUDIT_API, async (route: Route) => {
      if (failing) {
        await route.fulfill({
          status: 500,
          json: { error: 'internal_error', message: 'Something went wrong on our side. Please try again.' },
        });
      } else {
        await route.continue();
      }
    });
    await page.goto(`${appUrl}/results/${auditId}`);
    const failed = page.getByRole('heading', { level: 1, name: 'Failed to load audit results' });
    // Server errors are retried twice (after 1 s and 2 s) before the page gives up.
    await failed.waitFor({ timeout: 15_000 });
    const startNew = await page.getByRole('link', { name: 'Start New Assessment' }).getAttribute('href');

    // Act
    failing = false;
    await page.getByRole('button', { name: 'Try Again' }).click();
    await page.getByTestId('audit-status').filter({ hasText: /^completed$/ }).waitFor({ timeout: 10_000 });

    // Assess
    expect(startNew).toBe('/');
    await expect(failed.count()).resolves.toBe(0);
    await page.getByText('Technical details: every check').click();
    await expect(page.getByRole('rowheader', { name: 'dns', exact: true }).isVisible()).resolves.toBe(true);
    await page.close();
  }, 60_000);

  it('opens the labelled sample report for a demo_ id', async () => {
    const page = await openPage();
    await page.goto(`${appUrl}/results/demo_preview`);
    const label = page.getByText("This is a sample report with made-up data for an example site.");
    await label.waitFor();
    expect(await label.isVisible()).toBe(true);
    expect(await page.getByText('Invalid audit ID').count()).toBe(0);
    await page.close();
  }, 30_000);

  it("shows the 'Something went wrong' fallback when a page crashes while rendering, and 'Go to Home' leaves it", async () => {
    // Prepare: an answer the page cannot render (checks missing) makes it throw while rendering.
    const page = await openPage();
    const consoleOutput = collectConsoleOutput(page);
    await page.route(AUDIT_API, (route: Route) =>
      route.fulfill({ json: { audit: { id: 'x', targetUrl: 'https://broken.example', host: 'broken.example', status: 'completed' } } }),
    );

    // Act
    await page.goto(`${appUrl}/results/${randomUUID()}`);
    const fallback = page.getByRole('heading', { level: 1, name: 'Something went wrong' });
    await fallback.waitFor();
    const message = await page.getByRole('alert').textContent();
    const refreshVisible = await page.getByRole('button', { name: 'Refresh Page' }).isVisible();
    await page.getByRole('button', { name: 'Go to Home' }).click();
    await page.waitForURL(`${appUrl}/`);
    await page.getByRole('region', { name: 'Get Your Free Security Report' }).waitFor();

    // Assess
    expect(message).toContain(
      'The application encountered an unexpected error. This might be due to a network issue or temporary problem.',
    );
    expect(refreshVisible).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(consoleOutput.some((line) => line.includes('Rendering failed')), consoleOutput.join('\n')).toBe(true);
    await page.close();
  }, 30_000);
});
