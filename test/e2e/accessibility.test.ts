import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDomains } from '../../lambdas/domain/demo-account.js';
import { codeMailedTo, waitForCompletedAudit } from './support/accounts.js';
import { accessibilityViolations } from './support/axe.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from './support/browser.js';
import { startE2eStack, TARGET_HOST, type E2eStack } from './support/stack.js';

/*
 * Issue 19 item 5: axe-core at WCAG 2.1 AA (and heading-order) on every page of the site, in
 * Chromium against npm start, once in the light theme and once in the dark one (the visitor's stored
 * choice, the `theme` key public/theme-init.js reads before the first paint), each theme in its own
 * browser. Public pages, sign-in pages, the reports (a full scan, a passive partial one, the sample,
 * the shared link) are seen signed out; then the demo account (npm start's default) signs in and
 * every dashboard section and tab is seen with its sample data, and each dialog over its page. The
 * target is no violation at all: a failure lists each element as `rule [impact] target (colours): help`.
 */

type Theme = 'light' | 'dark';

interface PageVisit {
  name: string;
  path: () => string;
  /** What shows once the page has its data: axe runs on the page a visitor reads, not its skeleton. */
  ready: (page: Page) => Promise<void>;
  /** Staged before the visit (an API answer the page cannot render), undone after it. */
  stage?: (page: Page) => Promise<void>;
  /** A dialog opened from the page once it is ready: axe checks the page with the dialog over it. */
  open?: (page: Page) => Promise<void>;
}

const [DEMO_DOMAIN, DEMO_SHOP_DOMAIN] = demoDomains('Rampart');
const FOREIGN_EMAIL = 'ada@gmail.test';

const heading = (name: string | RegExp, level = 1) => (page: Page) => page.getByRole('heading', { level, name }).first().waitFor();
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name }).waitFor();
const completedReport = (page: Page) => page.getByTestId('audit-status').filter({ hasText: /^completed$/ }).waitFor({ timeout: 15_000 });

/**
 * Waits until no skeleton or spinner is left (the lists' first loads) and the network is quiet, or
 * 10 s have passed: a page that still shows one then is checked as it is.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const busy = (await page.evaluate("document.querySelectorAll('.animate-pulse, .animate-spin, [aria-busy=\"true\"]').length")) as number;
    if (busy === 0) return;
    await page.waitForTimeout(100);
  }
}

/**
 * Opens what a reader can open in the page's main content (findings, 'Technical details', the badge's
 * API panel), so what is folded away is checked too.
 */
async function expandEverything(page: Page): Promise<void> {
  const opened = (await page.evaluate(`(() => {
    const folded = [...document.querySelectorAll('main button[aria-expanded="false"], main details:not([open])')];
    for (const element of folded) {
      if (element.tagName === 'DETAILS') element.open = true;
      else element.click();
    }
    return folded.length;
  })()`)) as number;
  if (opened > 0) await settled(page);
}

async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const lead = (email: string) => ({
  firstName: 'Olivia',
  lastName: 'Owner',
  businessName: 'Example Shop',
  webUrl: `http://${TARGET_HOST}`,
  email,
  mobileNumber: '+61412345678',
  agreedToTerms: true,
  agreedToDataCollection: true,
});

describe.skipIf(!chromiumAvailable)('accessibility (axe-core, WCAG 2.1 AA) of every page, in both themes', () => {
  let stack: E2eStack;
  let appUrl: string;
  let darkBrowser: TestBrowser;
  /** A full scan's report (a lead whose address is at the site's own domain) and a passive one (a foreign address). */
  let fullAuditId = '';
  let passiveAuditId = '';
  const shareTokens: Record<Theme, string> = { light: '', dark: '' };
  let demoAuditPath = '';

  beforeAll(async () => {
    stack = await startE2eStack();
    appUrl = stack.app.url;
    darkBrowser = await launchBrowser();

    // The same-domain address proven by its mailed code first, so its report is the full one (DECISIONS "Scan modes" [attacker]).
    await postJson(`${appUrl}/api/verification-codes`, { email: 'owner@example.test', firstName: 'Ada', webUrl: `http://${TARGET_HOST}`, businessName: 'Example Shop' });
    const ownerCode = await codeMailedTo(stack.mailboxUrl, 'owner@example.test', /verification code/i);
    await postJson(`${appUrl}/api/verification-codes/verify`, { email: 'owner@example.test', verificationCode: ownerCode, webUrl: `http://${TARGET_HOST}` });
    const full = await postJson(`${appUrl}/api/leads`, lead('owner@example.test'));
    if (typeof full.body.auditId !== 'string') throw new Error(`POST /api/leads answered ${full.status}: ${JSON.stringify(full.body)}`);
    fullAuditId = full.body.auditId;

    // A foreign address proves itself with the mailed code first; its scan is passive (DECISIONS "Scan modes").
    const webUrl = `http://${TARGET_HOST}`;
    await postJson(`${appUrl}/api/verification-codes`, { email: FOREIGN_EMAIL, firstName: 'Ada', webUrl, businessName: 'Example Shop' });
    const verificationCode = await codeMailedTo(stack.mailboxUrl, FOREIGN_EMAIL, /verification code/i);
    await postJson(`${appUrl}/api/verification-codes/verify`, { email: FOREIGN_EMAIL, verificationCode, webUrl });
    const passive = await postJson(`${appUrl}/api/leads`, lead(FOREIGN_EMAIL));
    if (typeof passive.body.auditId !== 'string') throw new Error(`POST /api/leads answered ${passive.status}: ${JSON.stringify(passive.body)}`);
    passiveAuditId = passive.body.auditId;

    await Promise.all([waitForCompletedAudit(appUrl, fullAuditId), waitForCompletedAudit(appUrl, passiveAuditId)]);
    for (const theme of ['light', 'dark'] as const) {
      const share = await postJson(`${appUrl}/api/audits/${fullAuditId}/shares`, {});
      shareTokens[theme] = String(share.body.shareToken);
    }
  }, 180_000);

  afterAll(async () => {
    await darkBrowser?.close();
    await stack?.stop();
  }, 30_000);

  /** Signed out: the public pages, the reports anyone with the link can open, and the sign-in pages. */
  const publicPages = (theme: Theme): PageVisit[] => [
    {
      name: 'landing page (with pricing and the lead form)',
      path: () => '/',
      ready: async (page) => {
        await page.getByRole('heading', { name: 'Get Your Free Security Report' }).waitFor();
        await page.getByTestId('plan-basic-audit').waitFor();
      },
    },
    {
      // Issue 21: the audits' comparison table is checked with the landing page above; this one is the monitoring plans'.
      name: "landing page: pricing's Monthly Protection tab with its comparison table",
      path: () => '/#pricing',
      ready: (page) => page.getByTestId('plan-basic-audit').waitFor(),
      open: async (page) => {
        await page.getByRole('tab', { name: 'Monthly Protection' }).click();
        await page.getByRole('table', { name: 'What the monthly monitoring plans include' }).waitFor();
      },
    },
    { name: 'terms', path: () => '/terms', ready: heading('Terms of Service') },
    { name: 'privacy', path: () => '/privacy', ready: heading('Privacy Policy') },
    { name: 'scanner (what it does, how to opt out)', path: () => '/scanner', ready: heading('The Rampart scanner') },
    { name: 'verify (a badge domain)', path: () => `/verify/${DEMO_DOMAIN}`, ready: heading(`Security status of ${DEMO_DOMAIN}`) },
    { name: 'verify (an unknown domain)', path: () => '/verify/never-scanned.example.test', ready: heading(/never-scanned\.example\.test|Security status/) },
    { name: 'Wazuh tester', path: () => '/wazuh-test', ready: (page) => page.getByRole('heading', { name: 'Wazuh API Tester' }).waitFor() },
    { name: '404', path: () => '/no-such-page', ready: heading('Page not found') },
    {
      name: 'results: a full scan',
      path: () => `/results/${fullAuditId}`,
      ready: async (page) => {
        await completedReport(page);
        await page.locator('[data-testid="scan-mode"][data-mode="active"]').waitFor();
      },
    },
    {
      name: 'results: a passive partial report',
      path: () => `/results/${passiveAuditId}`,
      ready: async (page) => {
        await completedReport(page);
        await page.getByTestId('unlock-panel').waitFor();
      },
    },
    {
      name: 'results: the share link shown',
      path: () => `/results/${fullAuditId}`,
      ready: completedReport,
      open: async (page) => {
        await page.getByRole('button', { name: 'Share Report' }).click();
        await page.getByLabel('Share link').waitFor();
      },
    },
    { name: 'results: the sample report', path: () => '/results/demo_preview', ready: (page) => page.getByText('This is a sample report with made-up data for an example site.').waitFor() },
    { name: 'results without an id', path: () => '/results', ready: heading('Invalid audit ID') },
    {
      name: "the 'Something went wrong' fallback",
      path: () => '/results/00000000-0000-4000-8000-000000000000',
      // An audit without its checks makes the results page throw while rendering.
      stage: async (page) => {
        await page.route('**/api/audits/*', (route) => route.fulfill({ json: { audit: { id: 'x', targetUrl: 'https://broken.example', host: 'broken.example', status: 'completed' } } }));
      },
      ready: heading('Something went wrong'),
    },
    { name: 'shared report', path: () => `/share/${shareTokens[theme]}`, ready: (page) => page.getByText('Shared security assessment').waitFor() },
    { name: 'shared report: an unknown link', path: () => '/share/AAAAAAAAAAAAAAAAAAAAAA', ready: heading('Share Link Invalid') },
    { name: 'subscription success without a session', path: () => '/success', ready: (page) => page.getByRole('heading', { level: 1 }).first().waitFor() },
    { name: 'payment success without a session', path: () => '/payment-success', ready: (page) => page.getByRole('heading', { level: 1 }).first().waitFor() },
    {
      name: "the lead form's email verification dialog",
      path: () => '/',
      ready: (page) => page.getByRole('heading', { name: 'Get Your Free Security Report' }).waitFor(),
      open: async (page) => {
        // A foreign address that has not proved itself yet: the form answers with the code dialog.
        const form = page.getByRole('region', { name: 'Get Your Free Security Report' });
        await form.getByLabel('First Name').fill('Ada');
        await form.getByLabel('Last Name').fill('Lead');
        await form.getByLabel('Business Name').fill('Example Shop');
        await form.getByLabel('Website URL').fill(`https://${TARGET_HOST}`);
        await form.getByLabel('Business Email').fill(`${theme}@outlook.test`);
        await form.getByLabel('Mobile Number').fill('0412 345 671');
        await form.getByRole('checkbox', { name: /authorise a security scan/ }).check();
        await form.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check();
        // The server takes a form sent within 3 s of being shown for a bot's (MIN_FILL_MS).
        await page.waitForTimeout(3_200);
        await form.getByRole('button', { name: 'Verify Domain & Start Security Scan' }).click();
        await page.getByRole('dialog', { name: 'Verify your email address' }).getByLabel('Verification code').waitFor();
      },
    },
    { name: 'login', path: () => '/auth/login', ready: (page) => page.getByRole('button', { name: 'Use the demo account' }).waitFor() },
    { name: 'signup', path: () => '/auth/signup', ready: heading('Create your account') },
    { name: 'reset password', path: () => '/auth/reset-password', ready: heading('Reset your password') },
  ];

  const dashboardHeading = (name: string | RegExp) => heading(name);
  const tab = (section: string, id: string, name: string): PageVisit => ({
    name: `dashboard: ${section} → ${name}`,
    path: () => `/dashboard/${section}?tab=${id}`,
    ready: (page) => page.getByRole('tab', { name, selected: true }).waitFor(),
  });

  /** Signed in as the demo account: every section of the dashboard and every tab. */
  const dashboardPages: PageVisit[] = [
    { name: 'dashboard: overview', path: () => '/dashboard', ready: dashboardHeading(/^Welcome back/) },
    {
      name: 'dashboard: the Quick Scan dialog',
      path: () => '/dashboard',
      ready: dashboardHeading(/^Welcome back/),
      open: async (page) => {
        await page.getByRole('button', { name: 'New Security Scan' }).first().click();
        await dialog(page, 'Quick Scan');
      },
    },
    { name: 'dashboard: audit history', path: () => '/dashboard/audits', ready: dashboardHeading('Audit History') },
    { name: 'dashboard: a report', path: () => demoAuditPath, ready: completedReport },
    {
      name: "dashboard: a report, the owner's Email Report dialog",
      path: () => demoAuditPath,
      ready: completedReport,
      open: async (page) => {
        await page.getByRole('button', { name: 'Email Report' }).click();
        await dialog(page, 'Email Report');
      },
    },
    {
      name: 'dashboard: a report, the Mute finding dialog',
      path: () => demoAuditPath,
      ready: completedReport,
      open: async (page) => {
        await page.getByRole('button', { name: 'Mute', exact: true }).first().click();
        await dialog(page, 'Mute finding');
      },
    },
    tab('agents', 'overview', 'Overview'),
    tab('agents', 'list', 'Agent List'),
    tab('agents', 'install', 'Install Agent'),
    tab('agents', 'debug', 'Debug'),
    {
      ...tab('agents', 'install', 'Install Agent'),
      name: 'dashboard: agents → Install Agent, the rotate-secret dialog',
      open: async (page) => {
        await page.getByRole('button', { name: 'Rotate secret' }).click();
        await dialog(page, 'Rotate the enrollment secret?');
      },
    },
    { name: 'dashboard: scans', path: () => '/dashboard/scans', ready: dashboardHeading('Security Scans') },
    {
      name: 'dashboard: scans, the Share Report dialog',
      path: () => '/dashboard/scans',
      ready: dashboardHeading('Security Scans'),
      open: async (page) => {
        await page.getByRole('button', { name: /^Share report for / }).first().click();
        await dialog(page, 'Share Report');
      },
    },
    {
      name: 'dashboard: Essential Eight (the first domain)',
      path: () => '/dashboard/essential-eight',
      ready: (page) => page.getByRole('heading', { level: 2, name: 'Regular backups' }).waitFor(),
    },
    {
      name: 'dashboard: Essential Eight (the other domain)',
      path: () => `/dashboard/essential-eight?domain=${DEMO_SHOP_DOMAIN}`,
      ready: (page) => page.getByRole('heading', { level: 2, name: 'Regular backups' }).waitFor(),
    },
    { name: 'dashboard: subscription', path: () => '/dashboard/subscription', ready: dashboardHeading('Subscription') },
    { name: 'dashboard: security badge', path: () => '/dashboard/badge', ready: dashboardHeading('Security Badge') },
    tab('settings', 'profile', 'Profile'),
    // Issue 22's tabs: the organisation's members and invitations, and Slack, Teams and webhook destinations.
    tab('settings', 'team', 'Team'),
    tab('settings', 'domains', 'Domains'),
    tab('settings', 'policies', 'Policies'),
    tab('settings', 'notifications', 'Notifications'),
    tab('settings', 'destinations', 'Alert destinations'),
    tab('settings', 'security', 'Security'),
    tab('settings', 'api', 'API'),
    { name: 'dashboard: support', path: () => '/dashboard/support', ready: dashboardHeading('Support') },
    { name: 'Wazuh tester (signed in)', path: () => '/wazuh-test', ready: (page) => page.getByRole('heading', { name: 'Wazuh API Tester' }).waitFor() },
  ];

  describe.each(['light', 'dark'] as const)('the %s theme', (theme) => {
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      context = theme === 'light' ? stack.browser.context : darkBrowser.context;
      // The visitor's stored choice, in place before theme-init.js reads it on every page.
      await context.addInitScript(`try { localStorage.setItem('theme', '${theme}'); } catch {}`);
      page = await context.newPage();
    });

    afterAll(async () => {
      await page?.close();
    });

    async function check(visit: PageVisit): Promise<void> {
      // Act
      await visit.stage?.(page);
      await page.goto(`${appUrl}${visit.path()}`);
      await visit.ready(page);
      await settled(page);
      await expandEverything(page);
      if (visit.open) {
        await visit.open(page);
        await settled(page);
      }
      const dark = (await page.evaluate("document.documentElement.classList.contains('dark')")) as boolean;
      const violations = await accessibilityViolations(page);
      if (visit.stage) await page.unrouteAll();

      // Assess
      expect(dark, 'the page shows the theme under test').toBe(theme === 'dark');
      expect(violations, `${visit.name} (${theme}): ${visit.path()}`).toEqual([]);
    }

    for (const visit of publicPages(theme)) {
      it(`has no violations on ${visit.name}`, () => check(visit), 45_000);
    }

    it('signs in as the demo account', async () => {
      await page.goto(`${appUrl}/auth/login`);
      await page.getByRole('button', { name: 'Use the demo account' }).click();
      await page.waitForURL(`${appUrl}/dashboard`);
      // The history links to the results page; the dashboard shows the same report at /dashboard/audits/{id}.
      await page.goto(`${appUrl}/dashboard/audits`);
      const report = page.locator('a[href^="/results/"]').first();
      await report.waitFor();
      demoAuditPath = ((await report.getAttribute('href')) ?? '').replace(/^\/results\//, '/dashboard/audits/');
      expect(demoAuditPath).toMatch(/^\/dashboard\/audits\/[\w-]+$/);
    }, 30_000);

    for (const visit of dashboardPages) {
      it(`has no violations on ${visit.name}`, () => check(visit), 45_000);
    }
  });
});
