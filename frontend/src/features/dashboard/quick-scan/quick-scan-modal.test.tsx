import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { Route, Routes, useLocation, useParams } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { ACCOUNT, domainsAnswer, domainView } from '../settings/test-fixtures';
import { ADD_DOMAIN_HREF, DISABLED_REASONS, QuickScanModal, START_FAILED } from './quick-scan-modal';

const AUDIT_ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
const SHOP = domainView('shop.example.test', true);
const BLOG = domainView('blog.example.test', false);
const NEWS = domainView('news.example.test', true);
const LIMIT_MESSAGE = 'You have used all the scans of your plan. Upgrade your plan to run more scans.';

function ResultsPage() {
  return <h1>Results for {useParams().auditId}</h1>;
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}${location.hash}`}</output>;
}

/** The overview's part: a button opens the modal, onClose closes it. */
function Overview({ initiallyOpen, onClose }: { initiallyOpen: boolean; onClose: () => void }) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        New Security Scan
      </button>
      <QuickScanModal
        open={open}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
      />
    </>
  );
}

function renderModal(open = true) {
  const onClose = vi.fn();
  renderWithProviders(
    <Routes>
      <Route path="/dashboard" element={<Overview initiallyOpen={open} onClose={onClose} />} />
      <Route path="/results/:auditId" element={<ResultsPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route: '/dashboard' },
  );
  return { onClose };
}

const startButton = () => screen.getByRole('button', { name: 'Start Instant Scan' }) as HTMLButtonElement;
const radio = (name: string) => screen.getByRole('radio', { name: new RegExp(name.replaceAll('.', '\\.')) }) as HTMLInputElement;

describe('the Quick Scan modal', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is a labelled modal dialog listing verified domains to choose and pending ones disabled, with the usage', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'GET /api/me/domains': domainsAnswer(SHOP, BLOG) });

    // Act
    renderModal();
    await screen.findByRole('radio', { name: /shop\.example\.test/ });

    // Assess
    const dialog = screen.getByRole('dialog', { name: 'Quick Scan' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(radio('shop.example.test').disabled).toBe(false);
    expect(radio('blog.example.test').disabled).toBe(true);
    expect(within(radio('blog.example.test').closest('label')!).getByText('Pending verification')).toBeTruthy();
    expect(await within(dialog).findByText('1 / 3 scans used')).toBeTruthy();
    expect(document.activeElement).toBe(radio('shop.example.test'));
  });

  it('chooses the only verified domain already, so Start Instant Scan can be pressed at once', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'GET /api/me/domains': domainsAnswer(SHOP, BLOG) });

    // Act
    renderModal();
    await screen.findByRole('radio', { name: /shop\.example\.test/ });

    // Assess
    expect(radio('shop.example.test').checked).toBe(true);
    expect(radio('blog.example.test').checked).toBe(false);
    expect(startButton().disabled).toBe(false);
    expect(screen.queryByTestId('quick-scan-disabled-reason')).toBeNull();
  });

  it('chooses nothing among several verified domains, and says to choose one', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'GET /api/me/domains': domainsAnswer(SHOP, NEWS) });

    // Act
    renderModal();
    await screen.findByRole('radio', { name: /news\.example\.test/ });

    // Assess
    expect([radio('shop.example.test').checked, radio('news.example.test').checked]).toEqual([false, false]);
    expect(startButton().disabled).toBe(true);
    expect(screen.getByTestId('quick-scan-disabled-reason').textContent).toBe('Choose a domain to scan.');
    expect(startButton().getAttribute('aria-describedby')).toBe('quick-scan-disabled-reason');
    fireEvent.click(radio('news.example.test'));
    expect(startButton().disabled).toBe(false);
  });

  it('says "No scans left on your plan." beside the disabled button when the plan\'s scans are used, with Upgrade Plan', async () => {
    // Prepare
    const api = stubApi({
      'GET /api/me': { status: 200, body: { ...ACCOUNT, subscription: { ...ACCOUNT.subscription, scansUsed: 3 } } },
      'GET /api/me/domains': domainsAnswer(SHOP),
    });

    // Act
    renderModal();
    await screen.findByText('3 / 3 scans used');

    // Assess
    expect(startButton().disabled).toBe(true);
    const reason = screen.getByTestId('quick-scan-disabled-reason');
    expect(reason.textContent).toBe('No scans left on your plan. Upgrade Plan');
    expect(within(reason).getByRole('link', { name: 'Upgrade Plan' }).getAttribute('href')).toBe('/#pricing');
    fireEvent.click(startButton());
    expect(api.callsTo('POST', '/api/me/scans')).toEqual([]);
  });

  it('starts the scan on the chosen domain, refreshes the account and opens its results', async () => {
    // Prepare
    const api = stubApi({
      'GET /api/me': { status: 200, body: ACCOUNT },
      'GET /api/me/domains': domainsAnswer(SHOP, BLOG),
      'POST /api/me/scans': { status: 201, body: { auditId: AUDIT_ID } },
    });
    const { onClose } = renderModal();
    await screen.findByRole('radio', { name: /shop\.example\.test/ });
    await screen.findByText('1 / 3 scans used');

    // Act
    fireEvent.click(radio('shop.example.test'));
    fireEvent.click(startButton());

    // Assess
    expect(await screen.findByRole('heading', { name: `Results for ${AUDIT_ID}` })).toBeTruthy();
    expect(api.callsTo('POST', '/api/me/scans').map((call) => call.body)).toEqual([{ domain: 'shop.example.test' }]);
    expect(onClose).toHaveBeenCalled();
    // The account queries were invalidated: usage is read again.
    await waitFor(() => expect(api.callsTo('GET', '/api/me').length).toBeGreaterThanOrEqual(2));
  });

  it("shows the plan's limit message with an Upgrade Plan link to /#pricing", async () => {
    // Prepare
    stubApi({
      // The account read earlier still showed scans left: the API is the judge.
      'GET /api/me': { status: 200, body: ACCOUNT },
      'GET /api/me/domains': domainsAnswer(SHOP),
      'POST /api/me/scans': { status: 403, body: { error: 'scan_limit_reached', message: LIMIT_MESSAGE } },
    });
    renderModal();
    await screen.findByRole('radio', { name: /shop\.example\.test/ });

    // Act
    fireEvent.click(radio('shop.example.test'));
    fireEvent.click(startButton());

    // Assess
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(LIMIT_MESSAGE)).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Upgrade Plan' }).getAttribute('href')).toBe('/#pricing');
    expect(screen.getByText('1 / 3 scans used')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Quick Scan' })).toBeTruthy();
  });

  it('shows why a domain whose proof is gone cannot be scanned, with the way to Settings → Domains, and reads the domains again', async () => {
    // Prepare
    const lapsed = 'We could no longer find the verification TXT record or file for shop.example.test when we checked on 2026-03-02, so it is no longer verified. Publish it again and press Check verification in Settings → Domains.';
    const api = stubApi({
      'GET /api/me': { status: 200, body: ACCOUNT },
      'GET /api/me/domains': domainsAnswer(SHOP),
      'POST /api/me/scans': { status: 403, body: { error: 'domain_not_verified', message: lapsed } },
    });
    renderModal();
    await screen.findByRole('radio', { name: /shop\.example\.test/ });

    // Act
    fireEvent.click(radio('shop.example.test'));
    fireEvent.click(startButton());

    // Assess
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(lapsed)).toBeTruthy();
    expect(within(alert).getByRole('link', { name: 'Open Settings → Domains' }).getAttribute('href')).toBe(ADD_DOMAIN_HREF);
    await waitFor(() => expect(api.callsTo('GET', '/api/me/domains').length).toBeGreaterThanOrEqual(2));
  });

  it("shows the API's reason when a proof due for a re-check could not be looked up just now", async () => {
    // Prepare
    const unanswered = 'We need to see the verification of shop.example.test again before scanning it actively, but its DNS (or its website, for a file) did not answer just now. Nothing has changed; please try again in a few minutes.';
    stubApi({
      'GET /api/me': { status: 200, body: ACCOUNT },
      'GET /api/me/domains': domainsAnswer(SHOP),
      'POST /api/me/scans': { status: 502, body: { error: 'proof_check_unavailable', message: unanswered } },
    });
    renderModal();
    await screen.findByRole('radio', { name: /shop\.example\.test/ });

    // Act
    fireEvent.click(radio('shop.example.test'));
    fireEvent.click(startButton());

    // Assess
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(unanswered);
    expect(within(alert).queryByRole('link')).toBeNull();
  });

  it("says 'Failed to start scan. Please try again.' for any other failure, without an upgrade link", async () => {
    // Prepare
    stubApi({
      'GET /api/me': { status: 200, body: ACCOUNT },
      'GET /api/me/domains': domainsAnswer(SHOP),
      'POST /api/me/scans': { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side.' } },
    });
    renderModal();
    await screen.findByRole('radio', { name: /shop\.example\.test/ });

    // Act
    fireEvent.click(radio('shop.example.test'));
    fireEvent.click(startButton());

    // Assess
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(START_FAILED);
    expect(within(alert).queryByRole('link')).toBeNull();
  });

  it('offers Add Domain, leading to Settings → Domains, when the user has no domains', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'GET /api/me/domains': domainsAnswer() });
    const { onClose } = renderModal();
    const link = await screen.findByRole('link', { name: 'Add Domain' });

    // Act
    fireEvent.click(link);

    // Assess
    expect(link.getAttribute('href')).toBe('/dashboard/settings?tab=domains');
    expect(screen.getByTestId('where').textContent).toBe('/dashboard/settings?tab=domains');
    expect(onClose).toHaveBeenCalled();
  });

  it('points to verification when no domain is verified yet', async () => {
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'GET /api/me/domains': domainsAnswer(BLOG) });
    renderModal();

    const link = await screen.findByRole('link', { name: 'Verify a domain' });

    expect(link.getAttribute('href')).toBe('/dashboard/settings?tab=domains');
    expect(startButton().disabled).toBe(true);
    expect(screen.getByTestId('quick-scan-disabled-reason').textContent).toBe(DISABLED_REASONS.noVerified);
    expect(DISABLED_REASONS.noVerified).toBe('Verify a domain in Settings → Domains first.');
  });

  it('closes on Escape, Cancel and the close button, giving focus back to the button that opened it', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'GET /api/me/domains': domainsAnswer(SHOP) });
    const { onClose } = renderModal(false);
    const opener = screen.getByRole('button', { name: 'New Security Scan' });
    const openAndWait = async () => {
      opener.focus();
      fireEvent.click(opener);
      await screen.findByRole('radio', { name: /shop\.example\.test/ });
    };

    // Act
    await openAndWait();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    const afterEscape = [screen.queryByRole('dialog'), document.activeElement];
    await openAndWait();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await openAndWait();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));

    // Assess
    expect(afterEscape).toEqual([null, opener]);
    expect(onClose).toHaveBeenCalledTimes(3);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('keeps Tab inside the dialog', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'GET /api/me/domains': domainsAnswer(SHOP) });
    renderModal();
    await screen.findByRole('radio', { name: /shop\.example\.test/ });
    screen.getByRole('button', { name: 'Cancel' }).focus();

    // Act
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    const afterLast = document.activeElement;
    fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true });

    // Assess
    expect(afterLast).toBe(screen.getByRole('button', { name: 'Close' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('renders nothing while closed', () => {
    stubApi({});
    renderModal(false);

    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
