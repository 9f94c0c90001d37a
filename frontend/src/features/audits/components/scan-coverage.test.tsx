import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes, useLocation, useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scanModeContent } from '../../../config/scan-modes';
import { PASSIVE_REASON, unlockMessages, type Audit, type AuditResultView, type CoverageView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider, type AuthStatus } from '../../auth/auth-provider';
import { AuditResults, type ResultsMode } from './audit-results';
import { formatDate } from './format';
import { SharedReport } from './shared-report';

const ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
const AUDIT_PATH = `/api/audits/${ID}`;
const UNLOCK_PATH = `/api/audits/${ID}/unlock`;
/** The full scan an unlock makes: a new report (issue 29 item 6). */
const NEW_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const NEW_PATH = `/api/audits/${NEW_ID}`;
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';
const VERIFY_HREF = `/dashboard/settings?tab=domains&add=shop.example.test&unlock=${ID}`;

const PASSIVE: CoverageView = {
  mode: 'passive',
  allowedMode: 'passive',
  partial: true,
  notChecked: [
    { check: 'ports', title: 'Open ports and services', cause: 'passive', reason: PASSIVE_REASON },
    { check: 'wordpress', title: 'WordPress', cause: 'passive', reason: PASSIVE_REASON },
    {
      check: 'exposure',
      title: 'Exposed files',
      part: 'Exposed files and folders (.git, .env, backups, database dumps, phpinfo, server status, directory listings)',
      cause: 'passive',
      reason: PASSIVE_REASON,
    },
    { check: 'subdomains', title: 'Subdomains', part: 'Which subdomains answer on 443 or 80', cause: 'passive', reason: PASSIVE_REASON },
  ],
};
const FULL: CoverageView = { mode: 'active', allowedMode: 'active', partial: false, notChecked: [] };

const audit = (extra: Partial<Audit> = {}): Audit => ({
  id: ID,
  targetUrl: 'https://shop.example.test/',
  host: 'shop.example.test',
  status: 'completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T00:00:20.000Z',
  score: 89,
  grade: 'B',
  riskLevel: 'low',
  mode: 'passive',
  checks: [
    { name: 'dns', status: 'ok', findings: [] },
    { name: 'ports', status: 'skipped', reason: PASSIVE_REASON, findings: [] },
    { name: 'wordpress', status: 'skipped', reason: PASSIVE_REASON, findings: [] },
  ],
  ...extra,
});

function result(coverage: CoverageView, extra: Partial<AuditResultView> = {}): AuditResultView {
  const ran = coverage.mode === 'active' && !coverage.notChecked.some((item) => item.check === 'ports');
  return {
    id: ID,
    target_url: 'https://shop.example.test/',
    audit_status: 'completed',
    error_message: null,
    scan_mode: coverage.mode,
    coverage,
    created_at: '2026-01-01T00:00:00.000Z',
    completed_at: '2026-01-01T00:00:20.000Z',
    risk_level: 'low',
    dns_results: {
      status: 'completed',
      subdomainsFound: 2,
      totalSubdomains: 2,
      activeSubdomains: coverage.mode === 'active' ? 1 : null,
      completedAt: '2026-01-01T00:00:20.000Z',
    },
    port_scan_results: [],
    vulnerability_summary: {
      vulnerabilities: [],
      totalIssues: 0,
      criticalIssues: 0,
      subdomainsScanned: 2,
      riskFactors: [],
      overallRisk: 'low',
      recommendations: [],
    },
    host: 'shop.example.test',
    business_name: 'Example Shop',
    risk_score: coverage.partial ? 89 : 95,
    grade: coverage.partial ? 'B' : 'A',
    counters: { totalIssues: 0, criticalIssues: 0, openPorts: ran ? 0 : null, subdomains: 2 },
    finding_counts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
    observations: [],
    grades: { tls: null, httpObservatory: null },
    breaches: { status: 'not-configured', checked: null, breached: null },
    technologies: [],
    tls: { status: 'completed', grade: null, ports: [], hsts: null, httpsRedirect: null },
    email_security: { status: 'completed', domain: null, spf: null, dmarc: null, dkim: { selectorsFound: [] }, mx: [] },
    network: { status: ran ? 'completed' : 'skipped', address: null, portsScanned: ran ? 100 : null, closed: ran ? 100 : null, filtered: null, firewall: null },
    ...extra,
  };
}

const domainsAnswer = (...domains: { domain: string; verified: boolean }[]) => ({
  status: 200,
  body: {
    domains: domains.map(({ domain, verified }) => ({
      id: `id-${domain}`,
      domain,
      verified,
      status: verified ? 'verified' : 'pending',
      verificationToken: TOKEN,
      addedAt: '2026-01-01T00:00:00.000Z',
      verification: { dns: { type: 'TXT', name: domain, value: `rampart-verification=${TOKEN}` }, file: { url: `https://${domain}/.well-known/rampart-verification.txt`, content: TOKEN } },
    })),
  },
});

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

/** The results route as the router mounts it: the report of the id in the address. */
function ResultsRoute({ mode }: { mode: ResultsMode }) {
  const { auditId } = useParams();
  return (
    <>
      <AuditResults auditId={auditId!} mode={mode} />
      <Where />
    </>
  );
}

function renderResults({ mode = 'public', status = 'signed-out' }: { mode?: ResultsMode; status?: AuthStatus } = {}) {
  return renderWithProviders(
    <AuthTestProvider value={{ status }}>
      <Routes>
        <Route path="/results/:auditId" element={<ResultsRoute mode={mode} />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </AuthTestProvider>,
    { route: `/results/${ID}` },
  );
}

const counter = (label: string) => {
  const term = within(screen.getByRole('region', { name: 'Summary' })).getByText(label, { selector: 'dt' });
  return [term.nextElementSibling?.textContent, term.nextElementSibling?.nextElementSibling?.textContent];
};
const unlockPanel = () => screen.queryByTestId('unlock-panel');
/** The report, then the account's domains it asks for: more rounds than one answer takes. */
const settle = () => advance(50);

describe('a passive report on the results page', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('says it is a passive, partial report, marks the grade partial and explains the capped score', async () => {
    // Prepare
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(PASSIVE) } } });

    // Act
    renderResults();
    await advance();

    // Assess
    const notice = screen.getByTestId('scan-mode');
    expect(within(notice).getByRole('heading').textContent).toBe('Passive scan — partial report');
    expect(notice.getAttribute('data-mode')).toBe('passive');
    expect(screen.getByTestId('grade').textContent).toBe('B');
    expect(screen.getByTestId('grade-partial').textContent).toBe('· partial');
    expect(screen.getByTestId('grade').parentElement?.textContent).toBe('B· partial');
    expect(screen.getByText(scanModeContent.scoreCap)).toBeTruthy();
    expect(screen.getByTestId('risk-banner').textContent).toContain('Based only on what this partial scan checked.');
  });

  it("lists what was not checked with the backend's reasons, and shows 'Not checked' for ports, active subdomains and the technical rows, never a zero or a green all-clear", async () => {
    // Prepare
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(PASSIVE) } } });

    // Act
    renderResults();
    await advance();

    // Assess
    const list = screen.getByRole('region', { name: 'Not checked' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-check'))).toEqual(['ports', 'wordpress', 'exposure', 'subdomains']);
    expect(items[0]!.textContent).toBe('Open ports and services');
    // Issue 29 item 8: the reason they share is said once, above them.
    const reasons = within(list).getAllByTestId('not-checked-reason');
    expect(reasons).toHaveLength(1);
    expect(reasons[0]!.textContent).toContain('Not checked · needs the full scan');
    expect(list.textContent!.split(PASSIVE_REASON)).toHaveLength(2);
    expect(items[2]!.textContent).toContain('Exposed files');
    expect(items[2]!.textContent).toContain('Exposed files and folders (.git, .env');
    expect(counter('Open Ports')).toEqual(['Not checked', 'needs the full scan']);
    expect(counter('Subdomains')[0]).toBe('2');
    expect(counter('Total Issues')[0]).toBe('0');
    for (const value of within(screen.getByRole('region', { name: 'Summary' })).getAllByText('0', { selector: 'dd' })) expect(value.className).not.toContain('green');
    const ports = screen.getByRole('region', { name: 'Open Ports' });
    expect(ports.textContent).toContain('Not checked · needs the full scan');
    expect(ports.textContent).not.toContain('No concerning open ports detected');
    expect(within(screen.getByRole('region', { name: 'Subdomains' })).getByText('Active').nextElementSibling?.textContent).toBe('Not checked');
    expect(screen.queryByText('No vulnerabilities detected')).toBeNull();
    expect(screen.getByText(scanModeContent.noVulnerabilitiesPartial)).toBeTruthy();
    expect(screen.getByRole('rowheader', { name: 'ports' }).nextElementSibling?.textContent).toBe('not checked');
  });

  it('shows a full report as "Full scan", with no partial mark, no list and no unlock', async () => {
    // Prepare
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit({ mode: 'active', checks: [] }), result: result(FULL) } } });

    // Act
    renderResults({ status: 'signed-in' });
    await settle();

    // Assess
    expect(within(screen.getByTestId('scan-mode')).getByRole('heading').textContent).toBe('Full scan');
    expect(screen.getByTestId('grade').textContent).toBe('A');
    expect(screen.queryByTestId('grade-partial')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Not checked' })).toBeNull();
    expect(counter('Open Ports')[0]).toBe('0');
    expect(screen.getByText('No vulnerabilities detected')).toBeTruthy();
    expect(unlockPanel()).toBeNull();
  });

  it("calls a full scan whose port scan failed 'Full scan — partial report' and its ports 'Not checked · ended in an error'", async () => {
    // Prepare
    const failed: CoverageView = {
      mode: 'active',
      allowedMode: 'active',
      partial: true,
      notChecked: [{ check: 'ports', title: 'Open ports and services', cause: 'error', reason: 'connect EMFILE' }],
    };
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit({ mode: 'active' }), result: result(failed) } } });

    // Act
    renderResults();
    await advance();

    // Assess
    expect(within(screen.getByTestId('scan-mode')).getByRole('heading').textContent).toBe('Full scan — partial report');
    expect(counter('Open Ports')).toEqual(['Not checked', 'ended in an error']);
    expect(screen.getByRole('region', { name: 'Not checked' }).textContent).toContain('connect EMFILE');
    expect(unlockPanel()).toBeNull();
  });

  it('says a scan limited to passive by the hourly budget ran passive, and offers to run the full scan again', async () => {
    // Prepare
    const limited: CoverageView = { ...PASSIVE, allowedMode: 'active', notChecked: PASSIVE.notChecked.map((item) => ({ ...item, cause: 'limit' })) };
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit({ mode: 'active' }), result: result(limited) } } });

    // Act
    renderResults();
    await advance();

    // Assess
    expect(within(screen.getByTestId('scan-mode')).getByRole('heading').textContent).toBe('Passive scan — partial report');
    expect(screen.getByTestId('scan-mode').textContent).toContain('as many full scans this hour');
    expect(counter('Open Ports')).toEqual(['Not checked', 'full-scan limit reached']);
    expect(unlockPanel()).not.toBeNull();
  });
});

describe('the unlock panel', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('tells anyone holding the link what the full scan adds, that it needs a free account, and the way in with a returnUrl to verification', async () => {
    // Prepare
    const api = stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(PASSIVE) } } });

    // Act
    renderResults();
    await advance();

    // Assess
    const panel = within(unlockPanel()!);
    expect(panel.getByRole('heading').textContent).toBe('Prove you control shop.example.test to unlock the full scan');
    const adds = panel.getAllByRole('listitem').map((item) => item.textContent);
    expect(adds).toHaveLength(5);
    for (const what of ['port scan', 'Exposed files', 'WordPress', 'zone transfer', 'Subdomain probing']) expect(adds.some((line) => line?.includes(what))).toBe(true);
    expect(unlockPanel()!.textContent).toContain('Unlocking needs a free account');
    expect(panel.getByRole('link', { name: 'Sign in to unlock' }).getAttribute('href')).toBe(`/auth/login?returnUrl=${encodeURIComponent(VERIFY_HREF)}`);
    expect(panel.getByRole('link', { name: 'Create a free account' }).getAttribute('href')).toBe(`/auth/signup?returnUrl=${encodeURIComponent(VERIFY_HREF)}`);
    expect(panel.queryByRole('button', { name: 'Run the full scan' })).toBeNull();
    expect(api.callsTo('GET', '/api/me/domains')).toEqual([]);
  });

  it("sends a signed-in user whose account has not verified the domain to Settings → Domains with it filled in", async () => {
    // Prepare
    stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(PASSIVE) } },
      'GET /api/me/domains': domainsAnswer({ domain: 'shop.example.test', verified: false }, { domain: 'other.example.test', verified: true }),
    });

    // Act
    renderResults({ status: 'signed-in' });
    await settle();

    // Assess
    const panel = within(unlockPanel()!);
    expect(panel.getByRole('link', { name: 'Verify shop.example.test' }).getAttribute('href')).toBe(VERIFY_HREF);
    expect(panel.queryByRole('button', { name: 'Run the full scan' })).toBeNull();
  });

  it('runs the full scan for a signed-in user with a verified parent domain, then goes to its new report: its progress, the full report and the link back', async () => {
    // Prepare
    const supersedes = { auditId: ID, completedAt: '2026-01-01T00:00:20.000Z' };
    const fresh = { id: NEW_ID, createdAt: '2026-01-02T00:00:00.000Z', supersedes };
    const running = audit({ ...fresh, status: 'in_progress', mode: 'active', completedAt: undefined, score: undefined, grade: undefined, riskLevel: undefined, checks: [{ name: 'dns', status: 'ok', findings: [] }] });
    const api = stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(PASSIVE) } },
      [`GET ${NEW_PATH}`]: [
        { status: 200, body: { audit: running } },
        { status: 200, body: { audit: audit({ ...fresh, mode: 'active', checks: [] }), result: result(FULL, { id: NEW_ID, supersedes: { audit_id: ID, completed_at: supersedes.completedAt } }) } },
      ],
      'GET /api/me/domains': domainsAnswer({ domain: 'example.test', verified: true }),
      [`POST ${UNLOCK_PATH}`]: { status: 202, body: { auditId: NEW_ID, status: 'queued', mode: 'active', message: unlockMessages.started } },
    });
    renderResults({ status: 'signed-in' });
    await settle();
    expect(unlockPanel()!.textContent).toContain('shop.example.test is verified on your account');

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Run the full scan' }));
    await settle();
    const progress = screen.getByRole('region', { name: /Scanning shop\.example\.test/ }).textContent;
    await advance(1_000);
    await settle();

    // Assess
    expect(api.callsTo('POST', UNLOCK_PATH)).toHaveLength(1);
    expect(screen.getByTestId('where').textContent).toBe(`/results/${NEW_ID}`);
    expect(progress).toContain('Full scan');
    expect(screen.getByRole('link', { name: /^Replaces the partial report of / }).getAttribute('href')).toBe(`/results/${ID}`);
    expect(within(screen.getByTestId('scan-mode')).getByRole('heading').textContent).toBe('Full scan');
    expect(counter('Open Ports')[0]).toBe('0');
    expect(unlockPanel()).toBeNull();
  });

  it.each([
    ['domain_not_verified', 403, unlockMessages.notVerified('shop.example.test'), 'Verify shop.example.test', VERIFY_HREF],
    // Verified once, then a re-check no longer found the proof: the server's own words, with the date.
    [
      'domain_not_verified',
      403,
      'We could no longer find the verification TXT record or file for shop.example.test when we checked on 2026-11-27, so it is no longer verified. Publish it again and press Check verification in Settings → Domains.',
      'Verify shop.example.test',
      VERIFY_HREF,
    ],
    ['proof_check_unavailable', 502, 'We need to see the verification of shop.example.test again before scanning it actively, but its DNS (or its website, for a file) did not answer just now. Nothing has changed; please try again in a few minutes.', undefined, undefined],
    ['audit_forbidden', 403, unlockMessages.notYours, 'Go to your dashboard', '/dashboard'],
    ['audit_scan_running', 409, unlockMessages.running, undefined, undefined],
    ['already_active', 409, unlockMessages.alreadyActive, undefined, undefined],
    ['audit_superseded', 409, unlockMessages.superseded, undefined, undefined],
  ] as const)('answers %s with its message and the way on', async (code, status, message, linkName, href) => {
    // Prepare
    const api = stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(PASSIVE) } },
      'GET /api/me/domains': domainsAnswer({ domain: 'shop.example.test', verified: true }),
      [`POST ${UNLOCK_PATH}`]: { status, body: { error: code, message } },
    });
    renderResults({ status: 'signed-in' });
    await settle();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Run the full scan' }));
    await advance();

    // Assess
    const alert = within(unlockPanel()!).getByRole('alert');
    expect(alert.querySelector('p')?.textContent).toBe(message);
    if (linkName) expect(within(alert).getByRole('link', { name: linkName }).getAttribute('href')).toBe(href);
    else expect(within(alert).queryByRole('link')).toBeNull();
    // A refusal that means the report changed reads it again; the others do not.
    expect(api.callsTo('GET', AUDIT_PATH)).toHaveLength(code === 'already_active' || code === 'audit_scan_running' || code === 'audit_superseded' ? 2 : 1);
  });

  it('sends a user whose session ran out to sign in again, back to this report', async () => {
    // Prepare
    stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(PASSIVE) } },
      'GET /api/me/domains': domainsAnswer({ domain: 'shop.example.test', verified: true }),
      [`POST ${UNLOCK_PATH}`]: { status: 401, body: { error: 'unauthorized', message: 'Sign in first.' } },
    });
    renderResults({ status: 'signed-in' });
    await settle();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Run the full scan' }));
    await advance();

    // Assess
    expect(screen.getByTestId('where').textContent).toBe(`/auth/login?returnUrl=${encodeURIComponent(`/results/${ID}`)}`);
  });

  it.each([
    ['the shared read-only view', { mode: 'shared' as const }, {}],
    ['the sample report', {}, { sample: true as const }],
  ])('is not offered on %s', async (_, options, extra) => {
    // Prepare
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(PASSIVE, extra) } } });

    // Act
    renderResults(options);
    await advance();

    // Assess
    expect(screen.getByTestId('scan-mode').textContent).toContain('Passive scan — partial report');
    expect(unlockPanel()).toBeNull();
  });

  it("is offered on the owner's report in the dashboard", async () => {
    // Prepare
    stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(PASSIVE) } },
      'GET /api/me/domains': domainsAnswer(),
      'GET /api/me/policies': { status: 200, body: { policies: [], nextCursor: null } },
    });

    // Act
    renderResults({ mode: 'dashboard', status: 'signed-in' });
    await settle();

    // Assess
    expect(within(unlockPanel()!).getByRole('link', { name: 'Verify shop.example.test' }).getAttribute('href')).toBe(VERIFY_HREF);
    expect(screen.getByRole('region', { name: 'Not checked' })).toBeTruthy();
  });
});

describe('a passive report on the shared page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-01-01T10:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("says it is partial, marks the grade, lists what was not checked and shows the ports 'Not checked', with no unlock", async () => {
    // Prepare
    stubApi({
      [`GET /api/shared-audits/${TOKEN}`]: { status: 200, body: { success: true, audit: result(PASSIVE), expiresAt: '2026-01-02T09:59:00.000Z' } },
    });

    // Act
    renderWithProviders(<SharedReport shareToken={TOKEN} />);
    await advance();

    // Assess
    expect(within(screen.getByTestId('scan-mode')).getByRole('heading').textContent).toBe('Passive scan — partial report');
    expect(screen.getByTestId('grade-partial').textContent).toBe('· partial');
    expect(within(screen.getByRole('region', { name: 'Not checked' })).getAllByRole('listitem')).toHaveLength(4);
    expect(counter('Open Ports')).toEqual(['Not checked', 'needs the full scan']);
    expect(screen.getByRole('region', { name: 'Open Ports' }).textContent).toContain('Not checked');
    expect(unlockPanel()).toBeNull();
  });
});

describe('a partial report and the full scan that replaced it (issue 29 item 6)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('the partial report links to the full scan, and offers no unlock any more', async () => {
    // Prepare
    stubApi({
      [`GET ${AUDIT_PATH}`]: {
        status: 200,
        body: { audit: audit({ supersededBy: { auditId: NEW_ID, createdAt: '2026-01-02T00:00:00.000Z' } }), result: result(PASSIVE, { superseded_by: { audit_id: NEW_ID, created_at: '2026-01-02T00:00:00.000Z' } }) },
      },
      'GET /api/me/domains': domainsAnswer({ domain: 'shop.example.test', verified: true }),
    });

    // Act
    renderResults({ status: 'signed-in' });
    await advance(50);

    // Assess
    const links = within(screen.getByTestId('supersede-links')).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([[scanModeContent.supersede.replacedBy, `/results/${NEW_ID}`]]);
    expect(scanModeContent.supersede.replacedBy).toBe('A full scan of this site replaced this partial report — view it');
    expect(within(screen.getByTestId('scan-mode')).getByRole('heading').textContent).toBe('Passive scan — partial report');
    expect(unlockPanel()).toBeNull();
  });

  it('the full scan links back to the partial report, with its date', async () => {
    // Prepare
    const completedAt = '2026-01-01T00:00:20.000Z';
    stubApi({
      [`GET ${NEW_PATH}`]: {
        status: 200,
        body: { audit: audit({ id: NEW_ID, mode: 'active', supersedes: { auditId: ID, completedAt } }), result: result(FULL, { id: NEW_ID, supersedes: { audit_id: ID, completed_at: completedAt } }) },
      },
    });

    // Act
    renderWithProviders(
      <AuthTestProvider value={{ status: 'signed-out' }}>
        <Routes>
          <Route path="/dashboard/audits/:auditId" element={<AuditResults auditId={NEW_ID} mode="dashboard" />} />
        </Routes>
      </AuthTestProvider>,
      { route: `/dashboard/audits/${NEW_ID}` },
    );
    await advance(50);

    // Assess: in the dashboard, the dashboard's report page.
    const links = within(screen.getByTestId('supersede-links')).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([[`Replaces the partial report of ${formatDate(completedAt)}`, `/dashboard/audits/${ID}`]]);
    expect(formatDate(completedAt)).toMatch(/2026/);
  });

  it('shows neither link on a report nothing replaced, nor on the share link’s view', async () => {
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit({ supersededBy: { auditId: NEW_ID, createdAt: '2026-01-02T00:00:00.000Z' } }), result: result(PASSIVE) } } });
    renderResults({ mode: 'shared' });
    await advance(50);
    expect(screen.getByTestId('scan-mode')).toBeTruthy();
    expect(screen.queryByTestId('supersede-links')).toBeNull();
  });
});
