import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDomains } from '../../lambdas/domain/demo-account.js';
import { ESSENTIAL_EIGHT_DISCLAIMER, ESSENTIAL_EIGHT_STATUS_LABELS, essentialEightStrategyIds, type EssentialEightView } from '../../lambdas/domain/essential-eight.contract.js';
import { planComparison, type ComparisonCell, type ComparisonTable } from '../../lambdas/domain/plan-comparison.js';
import { chromiumAvailable, collectConsoleOutput } from './support/browser.js';
import { startE2eStack, type E2eStack } from './support/stack.js';

/*
 * Issue 21's Proof, "A Chromium e2e of the pricing comparison and the Essential Eight section",
 * against npm start: the landing page's comparison table under each pricing tab reads, header for
 * header and cell for cell, what planComparison() (the plan catalogue's grants) answers; the demo
 * account's Essential Eight page shows, for the domain picked, the eight strategies with the status,
 * evidence and steps of the API's own answer, and the disclaimer. axe on both: accessibility.test.ts.
 */

const [ONE_OFF, MONITORING] = planComparison() as [ComparisonTable, ComparisonTable];
const [DEMO_DOMAIN, DEMO_SHOP_DOMAIN] = demoDomains('Rampart');

/** What a screen reader user hears in a cell: the tick's or the dash's words, else the text. */
const spoken = (cell: ComparisonCell) => (cell === true ? 'Included' : cell === false ? '—Not included' : cell);

/** The table as rendered: its column headers and, per body row, the row header then each cell (textContent). */
async function read(table: Locator): Promise<{ columns: string[]; rows: string[][] }> {
  const columns = await table.locator('thead th').allTextContents();
  const rows: string[][] = [];
  for (const row of await table.locator('tbody tr').all()) rows.push(await row.locator('th, td').allTextContents());
  return { columns, rows };
}

const expectedColumns = (table: ComparisonTable) => ['What you get', ...table.columns.map((column) => `${column.name}${column.price}`)];
const expectedRows = (table: ComparisonTable) => table.rows.map((row) => [row.label, ...row.cells.map(spoken)]);
const rowOf = (table: ComparisonTable, label: string) => {
  const row = table.rows.find((candidate) => candidate.label === label);
  if (!row) throw new Error(`planComparison() has no row '${label}' in '${table.caption}'`);
  return [row.label, ...row.cells.map(spoken)];
};

describe.skipIf(!chromiumAvailable)('issue 21 in Chromium against npm start: the pricing comparison and the Essential Eight section', () => {
  let stack: E2eStack;
  let appUrl: string;

  beforeAll(async () => {
    stack = await startE2eStack();
    appUrl = stack.app.url;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  describe('the pricing comparison on the landing page', () => {
    let page: Page;
    let consoleOutput: string[];

    beforeAll(async () => {
      page = await stack.browser.context.newPage();
      consoleOutput = collectConsoleOutput(page);
      await page.goto(`${appUrl}/#pricing`);
      await page.getByTestId('plan-basic-audit').waitFor();
    });

    afterAll(async () => {
      await page?.close();
    });

    it("shows under 'Security Audits' the one-off table, header for header and cell for cell as planComparison() answers", async () => {
      // Act
      const pricing = page.getByRole('region', { name: 'Premium plans' });
      await pricing.getByRole('tab', { name: 'Security Audits', selected: true }).waitFor();
      const table = pricing.getByRole('table', { name: ONE_OFF.caption });
      await table.waitFor();
      const { columns, rows } = await read(table);

      // Assess
      expect(await table.isVisible()).toBe(true);
      expect(columns).toEqual(expectedColumns(ONE_OFF));
      expect(columns).toEqual(['What you get', 'Free reportFree', 'Basic AuditA$249', 'Pro AuditA$399', '5-Scan PackA$249', '20-Scan PackA$449']);
      expect(rows).toEqual(expectedRows(ONE_OFF));
      for (const label of [
        'Ports checked',
        'Fix guides for your platform (Microsoft 365, Cloudflare, WordPress…)',
        'Essential Eight readiness section',
        'Free re-scan to confirm fixes',
      ]) {
        expect(rows.find((row) => row[0] === label), label).toEqual(rowOf(ONE_OFF, label));
      }
      // What the free report lacks and the Pro Audit adds, as the visitor reads it in this build.
      expect(rows.find((row) => row[0] === 'Essential Eight readiness section')).toEqual(['Essential Eight readiness section', '—Not included', '—Not included', 'Included', '—Not included', '—Not included']);
      expect(rows.find((row) => row[0] === 'Ports checked')).toEqual(['Ports checked', '100', '1,000', '1,000', '1,000', '1,000']);
      expect(await pricing.getByRole('table', { name: MONITORING.caption }).count()).toBe(0);
    });

    it("switches to the monitoring table under 'Monthly Protection', and back", async () => {
      // Act
      const pricing = page.getByRole('region', { name: 'Premium plans' });
      await pricing.getByRole('tab', { name: 'Monthly Protection' }).click();
      const monthly = pricing.getByRole('table', { name: MONITORING.caption });
      await monthly.waitFor();
      const read1 = await read(monthly);
      const oneOffWhileMonthly = await pricing.getByRole('table', { name: ONE_OFF.caption }).count();
      await pricing.getByRole('tab', { name: 'Security Audits' }).click();
      await pricing.getByRole('table', { name: ONE_OFF.caption }).waitFor();
      const monthlyAfterBack = await pricing.getByRole('table', { name: MONITORING.caption }).count();

      // Assess
      expect(await pricing.getByRole('tab', { name: 'Security Audits', selected: true }).count()).toBe(1);
      expect(oneOffWhileMonthly).toBe(0);
      expect(monthlyAfterBack).toBe(0);
      expect(read1.columns).toEqual(expectedColumns(MONITORING));
      expect(read1.columns).toEqual(['What you get', 'Monitor LiteA$49/month', 'Monitor PlusA$99/month']);
      expect(read1.rows).toEqual(expectedRows(MONITORING));
      for (const label of ['Ports checked', 'Re-scans of your verified domains', 'Alert on each detected change', 'Endpoint monitoring (OSQuery agent)']) {
        expect(read1.rows.find((row) => row[0] === label), label).toEqual(rowOf(MONITORING, label));
      }
      expect(consoleOutput).toEqual([]);
    });
  });

  describe("the demo account's Essential Eight section", () => {
    let page: Page;
    let consoleOutput: string[];

    beforeAll(async () => {
      page = await stack.browser.context.newPage();
      consoleOutput = collectConsoleOutput(page);
      await page.goto(`${appUrl}/auth/login`);
      await page.getByRole('button', { name: 'Use the demo account' }).click();
      await page.waitForURL(`${appUrl}/dashboard`);
    }, 30_000);

    afterAll(async () => {
      await page?.close();
    });

    /** The view the page was answered with: GET /api/me/essential-eight/{domain}, as the browser received it. */
    const viewAnswered = (domain: string) =>
      page.waitForResponse((response) => response.request().method() === 'GET' && new URL(response.url()).pathname === `/api/me/essential-eight/${domain}`);

    const EFFECT_LABEL = { against: 'Against', for: 'For', neutral: 'Note' } as const;
    const NOTHING_SEEN = 'Nothing our scan or agents can observe bears on this strategy.';

    /** Each strategy card as the page shows it: heading, status (attribute and words), what was seen, how to check. */
    async function cardsShown(): Promise<unknown[]> {
      const main = page.getByRole('main');
      const cards = [];
      for (const title of await main.getByRole('heading', { level: 2 }).allTextContents()) {
        const card = main.getByRole('region', { name: title, exact: true });
        const seen = card.getByRole('list', { name: `What we saw: ${title}` });
        cards.push({
          title,
          status: await card.getAttribute('data-status'),
          statusWords: await card.locator('h2 + span').allTextContents(),
          seen: (await seen.count()) > 0 ? await seen.getByRole('listitem').allTextContents() : await card.getByText(NOTHING_SEEN).allTextContents(),
          howToCheck: await card.getByRole('list', { name: `How to check: ${title}` }).getByRole('listitem').allTextContents(),
        });
      }
      return cards;
    }

    /** Waits (no fixed sleep) until the page shows `view`: the eight strategies in order, each with its status written out, what was seen and how to check. */
    async function expectShows(view: EssentialEightView): Promise<void> {
      const expected = view.strategies.map((strategy) => ({
        title: strategy.title,
        status: strategy.status,
        statusWords: [strategy.statusLabel],
        seen: strategy.evidence.length > 0 ? strategy.evidence.map((item) => `${EFFECT_LABEL[item.effect]}: ${item.what}${item.where}`) : [NOTHING_SEEN],
        howToCheck: strategy.howToCheck,
      }));
      await expect.poll(cardsShown, { timeout: 15_000 }).toEqual(expected);
    }

    it('shows the first domain with the eight strategies, each with a status word, its evidence, how to check, and the disclaimer', async () => {
      // Act
      const answered = viewAnswered(DEMO_DOMAIN);
      await page.goto(`${appUrl}/dashboard/essential-eight`);
      const response = await answered;
      const view = (await response.json()) as EssentialEightView;
      await page.getByRole('heading', { level: 1, name: 'Essential Eight readiness' }).waitFor();

      // Assess: the answer itself is the whole Eight for the demo domain, from its seeded scans and agents.
      expect(response.status()).toBe(200);
      expect(view.domain).toBe(DEMO_DOMAIN);
      expect(view.strategies.map((strategy) => strategy.id)).toEqual([...essentialEightStrategyIds]);
      expect(view.strategies.every((strategy) => strategy.statusLabel === ESSENTIAL_EIGHT_STATUS_LABELS[strategy.status])).toBe(true);
      expect(view.sources.webScan).not.toBeNull();
      // The demo's seeded data reaches the view: its latest web scan of the domain, and a sample agent's evidence against (its extra administrators).
      const evidence = view.strategies.flatMap((strategy) => strategy.evidence);
      expect(evidence.some((item) => item.source === 'web-scan' && item.where.startsWith(`Web scan of ${DEMO_DOMAIN} on `))).toBe(true);
      expect(evidence.some((item) => item.effect === 'against')).toBe(true);

      // Assess: the page shows it.
      expect(await page.getByRole('combobox', { name: 'Domain' }).inputValue()).toBe(DEMO_DOMAIN);
      expect(await page.getByRole('note').textContent()).toBe(ESSENTIAL_EIGHT_DISCLAIMER);
      await expectShows(view);
      const against = view.strategies.filter((strategy) => strategy.status === 'evidence-against');
      expect(against.length).toBeGreaterThan(0);
      expect(await page.getByRole('main').getByText(/^Against:\s*$/).count()).toBe(evidence.filter((item) => item.effect === 'against').length);
      expect(await page.getByTestId('e8-summary').textContent()).toMatch(new RegExp(`^${against.length} strateg(y|ies) with evidence against · `));
    });

    it('loads and shows the view of the other domain when it is picked', async () => {
      // Act
      const answered = viewAnswered(DEMO_SHOP_DOMAIN);
      await page.getByRole('combobox', { name: 'Domain' }).selectOption(DEMO_SHOP_DOMAIN);
      const response = await answered;
      const view = (await response.json()) as EssentialEightView;
      await page.waitForURL(`${appUrl}/dashboard/essential-eight?domain=${DEMO_SHOP_DOMAIN}`);

      // Assess
      expect(response.status()).toBe(200);
      expect(view.domain).toBe(DEMO_SHOP_DOMAIN);
      expect(view.strategies).toHaveLength(8);
      await expectShows(view);
      expect(await page.getByRole('note').textContent()).toBe(ESSENTIAL_EIGHT_DISCLAIMER);
      expect(consoleOutput).toEqual([]);
    });
  });
});
