import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FREE_REPORT_NAME, getPlan } from '../../../lib/catalogue';
import type { AuditHistoryEntry } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { auditsPage, historyEntry } from './audit-fixtures';
import { HistorySection } from './history-section';

const AUDITS = 'GET /api/me/audits';

const domainsShown = () => screen.queryAllByRole('rowheader').map((cell) => cell.textContent);
const select = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const search = (text: string) => fireEvent.change(screen.getByLabelText('Search by domain'), { target: { value: text } });
const pageText = () => screen.getByText(/^Page \d+ of \d+$/).textContent;

const sample: AuditHistoryEntry[] = [
  historyEntry({ id: 'a', domain: 'Shop.Example.test', scanDate: '2025-03-02T12:00:00Z', riskScore: 90, riskLevel: 'low' }),
  historyEntry({ id: 'b', domain: 'blog.test', scanDate: '2025-03-03T12:00:00Z', status: 'in_progress', riskScore: null, riskLevel: null, tier: 'pro', scanDuration: null }),
  historyEntry({ id: 'c', domain: 'api.example.test', scanDate: '2025-03-01T12:00:00Z', riskScore: 55, riskLevel: 'high', tier: 'pro' }),
  historyEntry({ id: 'd', domain: 'zeta.test', scanDate: '2025-03-04T12:00:00Z', status: 'failed', riskScore: null, riskLevel: null }),
  historyEntry({ id: 'e', domain: 'mid.test', scanDate: '2025-02-28T12:00:00Z', riskScore: 70, riskLevel: 'medium', scanDuration: 125 }),
];

async function showHistory(audits: AuditHistoryEntry[] = sample) {
  const api = stubApi({ [AUDITS]: auditsPage(audits) });
  renderWithProviders(<HistorySection />);
  await screen.findByRole('table');
  return api;
}

describe('the Audit History section', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists every audit newest first in a table with the spec columns, en-AU dates, coloured scores and report links', async () => {
    // Act
    await showHistory();

    // Assess
    expect(screen.getByRole('heading', { name: 'Audit History' })).toBeTruthy();
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Date', 'Domain', 'Tier', 'Status', 'Risk Score', 'Issues', 'Duration', 'Actions']);
    expect(headers.every((header) => header.getAttribute('scope') === 'col')).toBe(true);
    expect(headers[0]!.getAttribute('aria-sort')).toBe('descending');
    expect(domainsShown()).toEqual(['zeta.test', 'blog.test', 'Shop.Example.test', 'api.example.test', 'mid.test']);

    const row = (domain: string) => screen.getByRole('rowheader', { name: domain }).closest('tr')!;
    expect(within(row('Shop.Example.test')).getByText(/2 Mar 2025/)).toBeTruthy();
    expect(within(row('Shop.Example.test')).getByText('90').className).toContain('text-green-700');
    expect(within(row('mid.test')).getByText('70').className).toContain('text-yellow-700');
    expect(within(row('api.example.test')).getByText('55').className).toContain('text-red-700');
    expect(within(row('blog.test')).getByText('in progress')).toBeTruthy();
    expect(within(row('blog.test')).getByText('Pro Audit')).toBeTruthy();
    expect(within(row('mid.test')).getByText('2 min 5 s')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View Report for mid.test' }).getAttribute('href')).toBe('/results/e');
    expect(screen.getByRole('link', { name: 'PDF report for mid.test' }).getAttribute('href')).toBe('/reports/e.pdf');
    // A scan still running has no PDF yet.
    expect(screen.queryByRole('link', { name: 'PDF report for blog.test' })).toBeNull();
  });

  it('searches the domain without regard to case', async () => {
    // Prepare
    await showHistory();

    // Act
    search('EXAMPLE');

    // Assess
    expect(domainsShown()).toEqual(['Shop.Example.test', 'api.example.test']);
  });

  it('filters by status (in progress shown with a space), by tier and by risk level', async () => {
    // Prepare
    await showHistory();
    const statusLabels = within(screen.getByLabelText('Status')).getAllByRole('option').map((option) => option.textContent);
    const tierLabels = within(screen.getByLabelText('Tier')).getAllByRole('option').map((option) => option.textContent);
    const rowLabels = screen.getAllByRole('row').slice(1).map((row) => [row.querySelector('th')?.textContent, row.querySelectorAll('td')[1]?.textContent]);

    // Act
    select('Status', 'in_progress');
    const inProgress = domainsShown();
    select('Status', 'all');
    select('Tier', 'pro-audit');
    const pro = domainsShown();
    select('Tier', 'all');
    select('Risk', 'medium');
    const medium = domainsShown();
    select('Tier', 'pro-audit');
    const proAndMedium = screen.getByText('No audits found').textContent;

    // Assess
    expect(statusLabels).toEqual(['All statuses', 'queued', 'in progress', 'completed', 'failed']);
    // The plan catalogue's names: a free scan reads 'Free report', never 'Basic' (the Basic Audit's word).
    expect(tierLabels).toEqual(['All reports', FREE_REPORT_NAME, getPlan('basic-audit').name, getPlan('pro-audit').name]);
    expect(tierLabels).toEqual(['All reports', 'Free report', 'Basic Audit', 'Pro Audit']);
    expect(rowLabels.filter(([, label]) => label !== 'Free report').map(([, label]) => label)).toEqual(['Pro Audit', 'Pro Audit']);
    expect(inProgress).toEqual(['blog.test']);
    expect(pro).toEqual(['blog.test', 'api.example.test']);
    expect(medium).toEqual(['mid.test']);
    expect(proAndMedium).toBe('No audits found');
  });

  it('sorts by date, domain or score, toggling ascending and descending, with unscored audits last', async () => {
    // Prepare
    await showHistory();
    const toggle = () => fireEvent.click(screen.getByRole('button', { name: /^Sort order:/ }));

    // Act
    toggle();
    const dateAsc = domainsShown();
    const toggleName = screen.getByRole('button', { name: /^Sort order:/ }).textContent;
    select('Sort by', 'domain');
    const domainAsc = domainsShown();
    const domainHeaderSort = screen.getByRole('columnheader', { name: 'Domain' }).getAttribute('aria-sort');
    select('Sort by', 'score');
    const scoreAsc = domainsShown();
    toggle();
    const scoreDesc = domainsShown();

    // Assess
    expect(dateAsc).toEqual(['mid.test', 'api.example.test', 'Shop.Example.test', 'blog.test', 'zeta.test']);
    expect(toggleName).toContain('Ascending');
    expect(domainAsc).toEqual(['api.example.test', 'blog.test', 'mid.test', 'Shop.Example.test', 'zeta.test']);
    expect(domainHeaderSort).toBe('ascending');
    expect(scoreAsc).toEqual(['api.example.test', 'mid.test', 'Shop.Example.test', 'blog.test', 'zeta.test']);
    expect(scoreDesc).toEqual(['Shop.Example.test', 'mid.test', 'api.example.test', 'blog.test', 'zeta.test']);
  });

  it('pages 25 audits by 10 over 3 pages and goes back to page 1 when a filter changes', async () => {
    // Prepare: site-01 is the newest, so date-descending order is by number.
    const many = Array.from({ length: 25 }, (_, index) =>
      historyEntry({ id: `s${index + 1}`, domain: `site-${String(index + 1).padStart(2, '0')}.test`, scanDate: new Date(Date.UTC(2025, 2, 30 - index)).toISOString() }),
    );
    await showHistory(many);
    const next = () => fireEvent.click(screen.getByRole('button', { name: 'Next' }));

    // Act
    const first = [pageText(), domainsShown()];
    const previousDisabled = (screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled;
    next();
    const second = [pageText(), domainsShown()];
    next();
    const third = [pageText(), domainsShown(), screen.getByText(/^Showing/).textContent];
    const nextDisabled = (screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled;
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    const backToSecond = pageText();
    search('site-1');

    // Assess
    expect(first).toEqual(['Page 1 of 3', many.slice(0, 10).map((audit) => audit.domain)]);
    expect(previousDisabled).toBe(true);
    expect(second).toEqual(['Page 2 of 3', many.slice(10, 20).map((audit) => audit.domain)]);
    expect(third).toEqual(['Page 3 of 3', many.slice(20).map((audit) => audit.domain), 'Showing 21–25 of 25 audits']);
    expect(nextDisabled).toBe(true);
    expect(backToSecond).toBe('Page 2 of 3');
    expect(pageText()).toBe('Page 1 of 1');
    expect(domainsShown()).toEqual(many.slice(9, 19).map((audit) => audit.domain));
  });

  it('exports the filtered and sorted rows of every page as audit-history-{local date}.csv, escaped', async () => {
    // Prepare
    const audits = [
      ...sample,
      historyEntry({ id: 'q', domain: 'evil,"quoted".example.test', scanDate: '2025-02-01T12:00:00Z', riskScore: 62, riskLevel: 'medium', scanDuration: 30 }),
      ...Array.from({ length: 10 }, (_, index) => historyEntry({ id: `x${index}`, domain: `more-${index}.example.test`, scanDate: '2025-01-01T00:00:00Z' })),
    ];
    await showHistory(audits);
    const blobs: Blob[] = [];
    const revokeObjectURL = vi.fn();
    class StubUrl extends URL {
      static override createObjectURL = (blob: Blob) => {
        blobs.push(blob);
        return 'blob:http://localhost/history';
      };
      static override revokeObjectURL = revokeObjectURL;
    }
    vi.stubGlobal('URL', StubUrl);
    const downloads: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    search('example');
    select('Sort by', 'score');
    fireEvent.click(screen.getByRole('button', { name: /^Sort order:/ }));
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(new Date(2025, 5, 7, 8, 0));

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const revokedAtOnce = revokeObjectURL.mock.calls.length;
    vi.advanceTimersByTime(1_000);
    vi.useRealTimers();
    const text = await blobs[0]!.text();

    // Assess
    expect(downloads).toEqual([{ href: 'blob:http://localhost/history', download: 'audit-history-2025-06-07.csv' }]);
    expect(blobs[0]!.type).toContain('text/csv');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('Date,Domain,Tier,Status,Risk Score,Issues,Duration');
    expect(lines.slice(1, 4)).toEqual([
      '2025-03-01T12:00:00.000Z,api.example.test,Pro Audit,completed,55,2,42',
      '2025-02-01T12:00:00.000Z,"evil,""quoted"".example.test",Free report,completed,62,2,30',
      '2025-01-01T00:00:00.000Z,more-0.example.test,Free report,completed,85,2,42',
    ]);
    // 13 matching rows over two pages, all exported, then the closing CRLF.
    expect(lines).toHaveLength(1 + 13 + 1);
    expect(lines.at(-2)).toBe('2025-03-02T12:00:00.000Z,Shop.Example.test,Free report,completed,90,2,42');
    expect(lines.at(-1)).toBe('');
    expect(document.querySelector('a[download]')).toBeNull();
    expect(revokedAtOnce).toBe(0);
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/history');
  });

  it('asks the server for one page of 50, and for the next only when Load older audits is pressed, with the cursor it gave', async () => {
    // Prepare: 50 recent audits on the first server page, 5 older ones (old-1…old-5) on the second.
    const day = (daysAgo: number) => new Date(Date.UTC(2025, 5, 30) - daysAgo * 86_400_000).toISOString();
    const recent = Array.from({ length: 50 }, (_, index) => historyEntry({ id: `r${index}`, domain: `recent-${index}.test`, scanDate: day(index) }));
    const older = Array.from({ length: 5 }, (_, index) => historyEntry({ id: `o${index}`, domain: `old-${index + 1}.test`, scanDate: day(60 + index) }));
    const api = stubApi({ [AUDITS]: [{ status: 200, body: { audits: recent, nextCursor: 'QVVESVQjcGFnZS0y' } }, { status: 200, body: { audits: older, nextCursor: null } }] });
    renderWithProviders(<HistorySection />);
    await screen.findByRole('table');
    const loadOlder = () => screen.queryByRole('button', { name: 'Load older audits' });

    // Act
    const firstLoad = { queries: api.callsTo('GET', '/api/me/audits').map((call) => call.query), page: pageText(), showing: screen.getByText(/^Showing/).textContent };
    const note = screen.getByText(/most recent audits are loaded/).textContent;
    search('old-');
    const beforeOlder = screen.getByText(/matches this search/).textContent;
    fireEvent.click(loadOlder()!);
    await waitFor(() => expect(domainsShown()).toHaveLength(5));
    const afterOlder = { queries: api.callsTo('GET', '/api/me/audits').map((call) => call.query), found: domainsShown() };
    search('');

    // Assess
    expect(firstLoad).toEqual({ queries: ['?limit=50'], page: 'Page 1 of 5', showing: 'Showing 1–10 of 50 audits' });
    expect(note).toBe('Your 50 most recent audits are loaded. Search, filters, sorting and the export cover these; load older audits to include them.');
    expect(beforeOlder).toBe('No loaded audit matches this search and these filters.');
    expect(afterOlder).toEqual({ queries: ['?limit=50', '?limit=50&cursor=QVVESVQjcGFnZS0y'], found: ['old-1.test', 'old-2.test', 'old-3.test', 'old-4.test', 'old-5.test'] });
    // The last page: nothing more to load, every audit counted.
    expect([pageText(), screen.getByText(/^Showing/).textContent, loadOlder(), screen.queryByText(/most recent audits are loaded/)]).toEqual(['Page 1 of 6', 'Showing 1–10 of 55 audits', null, null]);
  });

  it('keeps the loaded audits when older ones fail to load, says why, and loads them on a second press', async () => {
    // Prepare
    const api = stubApi({
      [AUDITS]: [
        { status: 200, body: { audits: sample, nextCursor: 'bmV4dA' } },
        { status: 503, body: { error: 'unavailable', message: 'Service unavailable' } },
        { status: 200, body: { audits: [historyEntry({ id: 'f', domain: 'older.test', scanDate: '2024-01-01T00:00:00Z' })], nextCursor: null } },
      ],
    });
    renderWithProviders(<HistorySection />);
    await screen.findByRole('table');

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Load older audits' }));
    const alert = await screen.findByRole('alert');
    const shownAfterFailure = domainsShown();
    fireEvent.click(screen.getByRole('button', { name: 'Load older audits' }));
    await waitFor(() => expect(domainsShown()).toContain('older.test'));

    // Assess
    expect(alert.textContent).toBe('Could not load older audits: Service unavailable');
    expect(shownAfterFailure).toEqual(['zeta.test', 'blog.test', 'Shop.Example.test', 'api.example.test', 'mid.test']);
    expect(api.callsTo('GET', '/api/me/audits').map((call) => call.query)).toEqual(['?limit=50', '?limit=50&cursor=bmV4dA', '?limit=50&cursor=bmV4dA']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says 'No audits found' when the user has none, with export disabled", async () => {
    // Prepare
    stubApi({ [AUDITS]: auditsPage([]) });

    // Act
    renderWithProviders(<HistorySection />);

    // Assess
    expect(await screen.findByText('No audits found')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows 'No audits found' for a search that matches nothing, and Clear Filters brings the rows back", async () => {
    // Prepare
    await showHistory();

    // Act
    search('nothing-like-this');
    const empty = screen.getByText('No audits found').textContent;
    fireEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));

    // Assess
    expect(empty).toBe('No audits found');
    expect(domainsShown()).toHaveLength(5);
    expect((screen.getByLabelText('Search by domain') as HTMLInputElement).value).toBe('');
  });

  it('Refresh asks the API again, shows Refreshing... with a spinner while it does, then the new list', async () => {
    // Prepare
    let release: (() => void) | undefined;
    const calls: string[] = [];
    const answer = (audits: AuditHistoryEntry[]) =>
      ({ ok: true, status: 200, json: async () => ({ audits, nextCursor: null }) }) as Response;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        calls.push(new URL(String(input), 'http://localhost').pathname);
        if (calls.length === 1) return answer(sample.slice(0, 1));
        await new Promise<void>((resolve) => (release = resolve));
        return answer(sample.slice(0, 2));
      }),
    );
    renderWithProviders(<HistorySection />);
    await screen.findByRole('table');

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    const refreshing = await screen.findByRole('button', { name: 'Refreshing...' });
    const whileRefreshing = { disabled: (refreshing as HTMLButtonElement).disabled, busy: screen.getByRole('table').getAttribute('aria-busy') };
    release!();
    await screen.findByRole('button', { name: 'Refresh' });

    // Assess
    expect(calls).toEqual(['/api/me/audits', '/api/me/audits']);
    expect(whileRefreshing).toEqual({ disabled: true, busy: 'true' });
    expect(domainsShown()).toEqual(['blog.test', 'Shop.Example.test']);
  });

  it("shows the API's error with Try Again, which loads the list", async () => {
    // Prepare
    const api = stubApi({ [AUDITS]: [{ status: 503, body: { error: 'unavailable', message: 'Service unavailable' } }, auditsPage(sample)] });
    renderWithProviders(<HistorySection />);
    const alert = await screen.findByRole('alert');

    // Act
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));

    // Assess
    expect(alert.textContent).toContain('Could not load your audit history.');
    expect(alert.textContent).toContain('Service unavailable');
    await waitFor(() => expect(domainsShown()).toHaveLength(5));
    expect(api.callsTo('GET', '/api/me/audits')).toHaveLength(2);
  });
});
