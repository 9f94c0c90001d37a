import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { DomainsTab, latestScore } from './domains-tab';
import { domainInputMessages, domainInputProblem } from './lib/domain-input';
import { auditEntry, auditsAnswer, domainsAnswer, domainView, TOKEN } from './test-fixtures';

const SHOP = domainView('shop.example.test', true, '2026-01-05T03:00:00.000Z');
const BLOG = domainView('blog.example.test', false, '2026-02-11T03:00:00.000Z');
const NO_AUDITS = auditsAnswer();

const row = (domain: string) => screen.getByRole('listitem', { name: domain });
const domainInput = () => screen.getByLabelText('Domain') as HTMLInputElement;
const addDomain = (value: string) => {
  fireEvent.change(domainInput(), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: 'Add Domain' }));
};

describe('Settings → Domains', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists each domain with its label, the date added, the latest completed score and, when pending, both ways to verify', async () => {
    // Prepare
    stubApi({
      'GET /api/me/domains': domainsAnswer(SHOP, BLOG),
      'GET /api/me/audits': auditsAnswer(
        auditEntry('shop.example.test', '2026-03-03T00:00:00.000Z', null, 'in_progress'),
        auditEntry('www.shop.example.test', '2026-03-02T00:00:00.000Z', 85),
        auditEntry('shop.example.test', '2026-03-01T00:00:00.000Z', 50),
      ),
    });

    // Act
    renderWithProviders(<DomainsTab />);
    await screen.findByRole('listitem', { name: 'shop.example.test' });
    await waitFor(() => expect(within(row('shop.example.test')).getByTestId('score-chip').textContent).toBe('85'));

    // Assess
    const shop = within(row('shop.example.test'));
    expect(shop.getByText('Verified')).toBeTruthy();
    expect(shop.getByText('Added 5 Jan 2026')).toBeTruthy();
    expect(shop.queryByRole('button', { name: 'Check verification' })).toBeNull();
    const blog = within(row('blog.example.test'));
    expect(blog.getByText('Pending')).toBeTruthy();
    expect(blog.getByText('Added 11 Feb 2026')).toBeTruthy();
    expect(blog.getByTestId('score-chip').textContent).toBe('—');
    expect(blog.getByText(`rampart-verification=${TOKEN}`)).toBeTruthy();
    expect(blog.getByText('https://blog.example.test/.well-known/rampart-verification.txt')).toBeTruthy();
    expect(blog.getByText('We look for the file over https:// first, then http:// if your site has no HTTPS.')).toBeTruthy();
    expect(blog.getByText(TOKEN)).toBeTruthy();
    expect(blog.getByRole('button', { name: 'Copy record value' })).toBeTruthy();
    expect(blog.getByRole('button', { name: 'Copy file URL' })).toBeTruthy();
    expect(blog.getByRole('button', { name: 'Check verification' })).toBeTruthy();
  });

  it('copies a verification value to the clipboard', async () => {
    // Prepare
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    stubApi({ 'GET /api/me/domains': domainsAnswer(BLOG), 'GET /api/me/audits': NO_AUDITS });
    renderWithProviders(<DomainsTab />);
    await screen.findByRole('listitem', { name: 'blog.example.test' });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Copy file content' }));

    // Assess
    await screen.findByText('Copied');
    expect(writeText).toHaveBeenCalledWith(TOKEN);
  });

  it('shows an example domain the field accepts as the placeholder, adds a domain and shows it in the refreshed list', async () => {
    // Prepare
    const added = domainView('new.example.test', false);
    const api = stubApi({
      'GET /api/me/domains': [domainsAnswer(SHOP), domainsAnswer(SHOP, added)],
      'GET /api/me/audits': NO_AUDITS,
      'POST /api/me/domains': { status: 201, body: { domain: added } },
    });
    renderWithProviders(<DomainsTab />);
    await screen.findByRole('listitem', { name: 'shop.example.test' });

    // Act
    addDomain('https://new.example.test/');

    // Assess
    expect(await screen.findByRole('listitem', { name: 'new.example.test' })).toBeTruthy();
    // Not the site's own host (127.0.0.1 locally), which the field refuses.
    expect(domainInput().placeholder).toBe('yourbusiness.com.au');
    expect(domainInputProblem(domainInput().placeholder)).toBeUndefined();
    expect(domainInputProblem('127.0.0.1')).toBe(domainInputMessages.ip);
    expect(api.callsTo('POST', '/api/me/domains').map((call) => call.body)).toEqual([{ domain: 'https://new.example.test/' }]);
    expect(api.callsTo('GET', '/api/me/domains')).toHaveLength(2);
    expect(within(screen.getByRole('region', { name: 'Add a domain' })).getByRole('status').textContent).toBe('new.example.test was added. Verify that you own it below.');
    expect(domainInput().value).toBe('');
  });

  it('refuses an IP address or a single label before sending, and shows the API’s own message for what it refuses', async () => {
    // Prepare
    const api = stubApi({
      'GET /api/me/domains': domainsAnswer(SHOP),
      'GET /api/me/audits': NO_AUDITS,
      'POST /api/me/domains': { status: 409, body: { error: 'domain_conflict', message: 'This domain is already in your domains.' } },
    });
    renderWithProviders(<DomainsTab />);
    await screen.findByRole('listitem', { name: 'shop.example.test' });

    // Act
    addDomain('192.0.2.10');
    const afterIp = screen.getByText(domainInputMessages.ip) !== null;
    addDomain('intranet');
    const afterLabel = screen.getByText(domainInputMessages.singleLabel) !== null;
    const sentBefore = api.callsTo('POST', '/api/me/domains').length;
    addDomain('shop.example.test');

    // Assess
    expect([afterIp, afterLabel, sentBefore]).toEqual([true, true, 0]);
    expect(await screen.findByText('This domain is already in your domains.')).toBeTruthy();
    expect(domainInput().getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('POST', '/api/me/domains')).toHaveLength(1);
  });

  it('keeps Add Domain disabled while the input is empty (SPEC: an empty add does nothing)', async () => {
    stubApi({ 'GET /api/me/domains': domainsAnswer(), 'GET /api/me/audits': NO_AUDITS });
    renderWithProviders(<DomainsTab />);
    await screen.findByText(/No domains yet/);

    fireEvent.change(domainInput(), { target: { value: '   ' } });

    expect((screen.getByRole('button', { name: 'Add Domain' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the API's 422 explanation when the proof is not found, and Verified once it is", async () => {
    // Prepare
    const notFound = 'We could not find the verification for blog.example.test. Either add a DNS TXT record …';
    const api = stubApi({
      'GET /api/me/domains': [domainsAnswer(BLOG), domainsAnswer(BLOG), domainsAnswer(domainView('blog.example.test', true))],
      'GET /api/me/audits': NO_AUDITS,
      'POST /api/me/domains/blog.example.test/verify': [
        { status: 422, body: { error: 'verification_not_found', message: notFound } },
        { status: 200, body: { verified: true, method: 'file', verifiedAt: '2026-02-12T00:00:00.000Z' } },
      ],
    });
    renderWithProviders(<DomainsTab />);
    await screen.findByRole('listitem', { name: 'blog.example.test' });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Check verification' }));
    const shown = (await screen.findByRole('alert')).textContent;
    await waitFor(() => expect((screen.getByRole('button', { name: 'Check verification' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Check verification' }));

    // Assess
    expect(shown).toBe(notFound);
    expect(await within(row('blog.example.test')).findByText('Verified')).toBeTruthy();
    expect(within(row('blog.example.test')).getByRole('status').textContent).toBe('blog.example.test is verified.');
    expect(screen.queryByRole('button', { name: 'Check verification' })).toBeNull();
    expect(api.callsTo('POST', '/api/me/domains/blog.example.test/verify').map((call) => call.body)).toEqual([{}, {}]);
  });

  it('says when a proof was last seen; one due for a re-check offers Check again, and a lapsed domain says why with both ways to prove it', async () => {
    // Prepare
    const due = { ...domainView('shop.example.test', true), proofCheckedAt: '2026-01-05T03:00:00.000Z', proofRecheckDue: true };
    const current = { ...domainView('docs.example.test', true), proofCheckedAt: '2026-03-01T03:00:00.000Z', proofRecheckDue: false };
    const lapsed = { ...domainView('blog.example.test', false), status: 'lapsed' as const, lapsedAt: '2026-03-02T01:00:00.000Z' };
    const api = stubApi({
      'GET /api/me/domains': [domainsAnswer(due, current, lapsed), domainsAnswer({ ...due, proofCheckedAt: '2026-03-05T00:00:00.000Z', proofRecheckDue: false }, current, lapsed)],
      'GET /api/me/audits': NO_AUDITS,
      'POST /api/me/domains/shop.example.test/verify': { status: 200, body: { verified: true, method: 'dns', verifiedAt: '2026-03-05T00:00:00.000Z' } },
    });
    renderWithProviders(<DomainsTab />);
    await screen.findByRole('listitem', { name: 'shop.example.test' });

    // Act
    const dueText = within(row('shop.example.test')).getByTestId('proof-checked').textContent;
    fireEvent.click(within(row('shop.example.test')).getByRole('button', { name: 'Check again' }));

    // Assess
    expect(dueText).toBe('Proof last seen 5 Jan 2026: over 30 days ago, so we look for it again before the next active scan.');
    expect(within(row('docs.example.test')).getByTestId('proof-checked').textContent).toBe('Proof last seen 1 Mar 2026. We look for it again after 30 days, before an active scan.');
    expect(within(row('docs.example.test')).queryByRole('button', { name: 'Check again' })).toBeNull();
    const blog = within(row('blog.example.test'));
    expect(blog.getByText('Lapsed')).toBeTruthy();
    expect(blog.getByText('On 2 Mar 2026 we could no longer find the TXT record or file below, so blog.example.test is no longer verified. Publish it again and check.')).toBeTruthy();
    expect(blog.getByRole('button', { name: 'Check verification' })).toBeTruthy();
    await waitFor(() => expect(within(row('shop.example.test')).queryByRole('button', { name: 'Check again' })).toBeNull());
    expect(api.callsTo('POST', '/api/me/domains/shop.example.test/verify')).toHaveLength(1);
  });

  it('deletes a domain only after the confirm step, and drops it from the list', async () => {
    // Prepare
    const api = stubApi({
      'GET /api/me/domains': [domainsAnswer(SHOP, BLOG), domainsAnswer(SHOP)],
      'GET /api/me/audits': NO_AUDITS,
      'DELETE /api/me/domains/blog.example.test': { status: 204 },
    });
    renderWithProviders(<DomainsTab />);
    await screen.findByRole('listitem', { name: 'blog.example.test' });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Delete blog.example.test' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const afterCancel = api.callsTo('DELETE', '/api/me/domains/blog.example.test').length;
    fireEvent.click(screen.getByRole('button', { name: 'Delete blog.example.test' }));
    const confirm = within(screen.getByRole('group', { name: 'Delete blog.example.test?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Delete' }));

    // Assess
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'blog.example.test' })).toBeNull());
    expect(afterCancel).toBe(0);
    expect(api.callsTo('DELETE', '/api/me/domains/blog.example.test')).toHaveLength(1);
    expect(screen.getByRole('listitem', { name: 'shop.example.test' })).toBeTruthy();
  });

  it('picks the newest completed score of the domain (www. counts as the domain)', () => {
    const audits = [
      auditEntry('shop.example.test', '2026-03-01T00:00:00.000Z', 40),
      auditEntry('WWW.shop.example.test', '2026-03-05T00:00:00.000Z', 72),
      auditEntry('shop.example.test', '2026-03-09T00:00:00.000Z', null, 'failed'),
      auditEntry('other.example.test', '2026-03-10T00:00:00.000Z', 99),
    ];
    expect(latestScore(audits, 'shop.example.test')).toBe(72);
    expect(latestScore(audits, 'blog.example.test')).toBeUndefined();
  });

  it('mirrors the API’s simple domain checks', () => {
    expect(domainInputProblem('')).toBe(domainInputMessages.empty);
    expect(domainInputProblem('http://10.0.0.1:8080/x')).toBe(domainInputMessages.ip);
    expect(domainInputProblem('[::1]')).toBe(domainInputMessages.ip);
    expect(domainInputProblem('localhost')).toBe(domainInputMessages.singleLabel);
    expect(domainInputProblem('exa mple.com')).toBe(domainInputMessages.invalid);
    expect(domainInputProblem('https://www.example.com/shop?x=1')).toBeUndefined();
  });
});
