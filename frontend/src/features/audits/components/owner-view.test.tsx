import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildFindingGroups, type CoverageView, type NotCheckedItem, type RecommendationView, type VulnerabilityView } from '../../../lib/contracts';
import { Recommendations } from './report-cards';
import { NotCheckedList } from './scan-coverage';
import { VulnerabilitiesList } from './vulnerabilities-list';

/** Issue 29 items 7 and 8 on the results page: issues by what to do, plain words first, not-checked reasons once. */

const CSP = "Add a Content-Security-Policy header. Start from `default-src 'self'; object-src 'none'`.";
const PLAIN_CSP = 'Tells visitors’ browsers to run only the scripts and content your site really uses, so a script an attacker slips into a page cannot run.';

const vulnerability = (id: string, severity: VulnerabilityView['severity'], extra: Partial<VulnerabilityView> = {}): VulnerabilityView => ({
  id,
  title: `Title of ${id}`,
  severity,
  category: 'Web Security',
  description: `Why ${id} matters`,
  recommendation: `Fix ${id}.`,
  fix: { plain: `Fix ${id}.`, technical: null },
  ...extra,
});

const issues: VulnerabilityView[] = [
  vulnerability('http.trace-enabled', 'critical'),
  vulnerability('cve.apache_http_server', 'high', { cveDetails: [{ id: 'CVE-2021-41773', severity: 'high', exploited: true }] }),
  vulnerability('http.csp.missing', 'medium', { recommendation: CSP, fix: { plain: PLAIN_CSP, technical: CSP } }),
  vulnerability('tls.hsts.missing', 'high'),
  vulnerability('http.xcto.missing', 'low'),
  vulnerability('dns.ns.single', 'low'),
];

describe('the issues by what to do (issue 29 item 7)', () => {
  it('shows "Fix now", "Fix this month" and "Good practice" with counts that add up to the issues the score counted', () => {
    // Act
    render(<VulnerabilitiesList vulnerabilities={issues} groups={buildFindingGroups(issues, 2)} technologies={[]} limit={10} />);

    // Assess
    const section = screen.getByRole('region', { name: 'Issues to fix (6)' });
    expect(within(section).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Fix now (2)', 'Fix this month (2)', 'Good practice (2)']);
    const group = (name: string) => screen.getByRole('region', { name });
    expect(within(group('Fix now (2)')).getByTestId('group-counts').textContent).toBe('1 critical, 1 high; 1 known to be exploited');
    expect(within(group('Fix this month (2)')).getByTestId('group-counts').textContent).toBe('1 high, 1 medium');
    expect(within(group('Good practice (2)')).getByTestId('group-counts').textContent).toBe('2 low');
    expect(within(group('Fix now (2)')).getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual([
      expect.stringContaining('Title of http.trace-enabled'),
      expect.stringContaining('Title of cve.apache_http_server'),
    ]);
    expect(screen.queryByText(/^Vulnerabilities/)).toBeNull();
  });

  it('shows the first `limit` issues in group order, every group heading with its full count, and the rest on request', () => {
    // Act
    render(<VulnerabilitiesList vulnerabilities={issues} groups={buildFindingGroups(issues, 0)} technologies={[]} limit={3} />);
    const shown = () => within(screen.getByRole('region', { name: /^Issues to fix/ })).getAllByRole('listitem').length;
    const before = shown();
    const goodPractice = screen.getByRole('region', { name: 'Good practice (2)' });
    const goodBefore = within(goodPractice).queryAllByRole('listitem').length;
    fireEvent.click(screen.getByRole('button', { name: 'Show all 6 issues' }));

    // Assess
    expect([before, goodBefore, shown()]).toEqual([3, 0, 6]);
  });
});

describe('fix advice in plain words first (issue 29 item 8)', () => {
  it('says what the change does, and folds the raw header value under "Technical details"', () => {
    // Act
    render(<VulnerabilitiesList vulnerabilities={issues} groups={buildFindingGroups(issues, 0)} technologies={[]} limit={10} />);
    fireEvent.click(screen.getByRole('button', { name: /Title of http\.csp\.missing/ }));

    // Assess
    const advice = screen.getAllByTestId('fix-advice').find((el) => el.textContent!.includes(PLAIN_CSP))!;
    const [plain, details] = [advice.firstElementChild!, advice.querySelector('details')!];
    expect(plain.textContent).toBe(PLAIN_CSP);
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Technical details');
    expect(details.textContent).toContain("default-src 'self'");
    expect(plain.compareDocumentPosition(details) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('gives an immediate recommendation its plain sentence first, the technical line folded', () => {
    const recommendations: RecommendationView[] = [
      { priority: 'immediate', title: 'No Content Security Policy', action: CSP, severity: 'medium', findingId: 'http.csp.missing', fix: { plain: PLAIN_CSP, technical: CSP } },
    ];
    render(<Recommendations recommendations={recommendations} />);
    const advice = screen.getByTestId('fix-advice');
    expect(advice.firstElementChild!.textContent).toBe(PLAIN_CSP);
    expect(advice.querySelector('details')!.textContent).toBe(`Technical details${CSP}`);
  });
});

describe('not checked, by reason (issue 29 item 8)', () => {
  it('says a reason shared by several checks once, the checks and parts under it, and each other reason once', () => {
    // Prepare
    const reason = 'Needs proof that you control this site.';
    const notChecked: NotCheckedItem[] = [
      ...['ports', 'wordpress', 'exposure', 'breaches'].map((check) => ({ check, title: `Check ${check}`, cause: 'passive' as const, reason })),
      { check: 'dns', title: 'DNS', part: 'Zone transfer (AXFR)', cause: 'passive', reason },
      { check: 'software', title: 'Software', cause: 'timeout', reason: 'It did not finish in time.' },
    ];
    const coverage: CoverageView = { mode: 'passive', allowedMode: 'passive', partial: true, notChecked };

    // Act: no groups from the view (a view made before them): grouped the same way here.
    render(<NotCheckedList coverage={coverage} />);

    // Assess
    const list = screen.getByRole('region', { name: 'Not checked' });
    const groups = within(list).getAllByTestId('not-checked-reason');
    expect(groups.map((g) => g.getAttribute('data-cause'))).toEqual(['passive', 'timeout']);
    expect(list.textContent!.split(reason)).toHaveLength(2);
    expect(within(groups[0]!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Check ports', 'Check wordpress', 'Check exposure', 'Check breaches', 'DNS: Zone transfer (AXFR)']);
    expect(within(groups[1]!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Software']);
  });
});
