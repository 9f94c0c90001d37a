import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../../config/paths';
import { unlockMessages } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { DomainsTab } from './domains-tab';
import { auditsAnswer, domainsAnswer, domainView } from './test-fixtures';

const ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
const UNLOCK_PATH = `/api/audits/${ID}/unlock`;
const HOST = 'shop.example.test';

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderTab(href: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/dashboard/settings" element={<DomainsTab />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route: href },
  );
}

const purpose = () => screen.queryByTestId('verify-purpose');
const domainInput = () => screen.getByLabelText('Domain') as HTMLInputElement;
const currentStep = () => within(purpose()!).getAllByRole('listitem').findIndex((item) => item.getAttribute('aria-current') === 'step');

describe('Settings → Domains opened to verify a domain for something', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('builds the address the report and the checkout link to', () => {
    expect(paths.dashboard.verifyDomain.getHref(HOST, { unlock: ID })).toBe(`/dashboard/settings?tab=domains&add=${HOST}&unlock=${ID}`);
    expect(paths.dashboard.verifyDomain.getHref(HOST, { offer: ID })).toBe(`/dashboard/settings?tab=domains&add=${HOST}&offer=${ID}`);
  });

  it('fills in the domain to add and says what comes next, when the account does not have it yet', async () => {
    // Prepare
    stubApi({ 'GET /api/me/domains': domainsAnswer(), 'GET /api/me/audits': auditsAnswer() });

    // Act
    renderTab(paths.dashboard.verifyDomain.getHref(HOST, { unlock: ID }));
    await screen.findByText('No domains yet. Add your website\'s domain above to start.');

    // Assess
    expect(within(purpose()!).getByRole('heading').textContent).toBe('Unlock the full scan of shop.example.test');
    expect(purpose()!.textContent).toContain('Unlocking needs a free account');
    // Issue 28 item 11: an unlock counts as a Quick Scan does.
    expect(purpose()!.textContent).toContain("the full scan counts as one scan of your plan, as a Quick Scan does (a free account's trial includes 3 scans)");
    expect(purpose()!.textContent).not.toContain('does not count');
    expect(currentStep()).toBe(0);
    expect(domainInput().value).toBe(HOST);
    expect(screen.queryByRole('button', { name: 'Run the full scan' })).toBeNull();
  });

  it('points at the TXT record and the file once the domain is added but pending, with the input empty again', async () => {
    // Prepare
    stubApi({ 'GET /api/me/domains': domainsAnswer(domainView(HOST, false)), 'GET /api/me/audits': auditsAnswer() });

    // Act
    renderTab(paths.dashboard.verifyDomain.getHref(HOST, { unlock: ID }));
    await screen.findByRole('listitem', { name: HOST });

    // Assess
    expect(currentStep()).toBe(1);
    expect(domainInput().value).toBe('');
    expect(within(screen.getByRole('listitem', { name: HOST })).getByText('rampart-verification=AbCdEfGhIjKlMnOpQrStUv')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Run the full scan' })).toBeNull();
  });

  it('runs the full scan once the domain is verified and goes to its report (a new one, issue 29 item 6)', async () => {
    // Prepare
    const fullScan = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    const api = stubApi({
      'GET /api/me/domains': domainsAnswer(domainView(HOST, true)),
      'GET /api/me/audits': auditsAnswer(),
      [`POST ${UNLOCK_PATH}`]: { status: 202, body: { auditId: fullScan, status: 'queued', mode: 'active', message: unlockMessages.started } },
    });
    renderTab(paths.dashboard.verifyDomain.getHref(HOST, { unlock: ID }));
    const run = await screen.findByRole('button', { name: 'Run the full scan' });

    // Act
    fireEvent.click(run);
    const where = await screen.findByTestId('where');

    // Assess
    expect(api.callsTo('POST', UNLOCK_PATH)).toHaveLength(1);
    expect(where.textContent).toBe(`/results/${fullScan}`);
  });

  it("shows the API's refusal and stays, linking where it helps", async () => {
    // Prepare
    stubApi({
      'GET /api/me/domains': domainsAnswer(domainView('example.test', true)),
      'GET /api/me/audits': auditsAnswer(),
      [`POST ${UNLOCK_PATH}`]: [
        { status: 403, body: { error: 'audit_forbidden', message: unlockMessages.notYours } },
        { status: 409, body: { error: 'already_active', message: unlockMessages.alreadyActive } },
      ],
    });
    renderTab(paths.dashboard.verifyDomain.getHref(HOST, { unlock: ID }));

    // Act
    fireEvent.click(await screen.findByRole('button', { name: 'Run the full scan' }));
    const forbidden = await within(purpose()!).findByRole('alert');
    const forbiddenText = forbidden.textContent;
    const forbiddenLink = within(forbidden).getByRole('link').getAttribute('href');
    fireEvent.click(screen.getByRole('button', { name: 'Run the full scan' }));
    await within(purpose()!).findByText(unlockMessages.alreadyActive);

    // Assess
    expect(forbiddenText).toContain(unlockMessages.notYours);
    expect(forbiddenLink).toBe('/dashboard');
    expect(within(within(purpose()!).getByRole('alert')).getByRole('link', { name: 'View the report' }).getAttribute('href')).toBe(`/results/${ID}`);
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it("shows Quick Scan's refusal when the plan has no scans left (issue 28 item 11)", async () => {
    // Prepare
    const limit = 'You have used all the scans of your plan. Upgrade your plan to run more scans.';
    stubApi({
      'GET /api/me/domains': domainsAnswer(domainView('example.test', true)),
      'GET /api/me/audits': auditsAnswer(),
      [`POST ${UNLOCK_PATH}`]: [{ status: 403, body: { error: 'scan_limit_reached', message: limit } }],
    });
    renderTab(paths.dashboard.verifyDomain.getHref(HOST, { unlock: ID }));

    // Act
    fireEvent.click(await screen.findByRole('button', { name: 'Run the full scan' }));
    const refusal = await within(purpose()!).findByRole('alert');

    // Assess
    expect(refusal.textContent).toContain(limit);
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it('leads back to the paid audit offer once the domain is verified for a checkout', async () => {
    // Prepare
    stubApi({ 'GET /api/me/domains': domainsAnswer(domainView(HOST, true)), 'GET /api/me/audits': auditsAnswer() });

    // Act
    renderTab(paths.dashboard.verifyDomain.getHref(HOST, { offer: ID }));
    const back = await screen.findByRole('link', { name: 'Back to the paid audit offer' });

    // Assess
    expect(within(purpose()!).getByRole('heading').textContent).toBe('Verify shop.example.test for your paid audit');
    expect(purpose()!.textContent).toContain('No payment is taken until then.');
    expect(back.getAttribute('href')).toBe(`/results/${ID}`);
    expect(currentStep()).toBe(2);
    expect(screen.queryByRole('button', { name: 'Run the full scan' })).toBeNull();
  });

  it.each([
    ['a malformed domain', `/dashboard/settings?tab=domains&add=not a domain&unlock=${ID}`],
    ['a malformed audit id', `/dashboard/settings?tab=domains&add=${HOST}&unlock=nope`],
    ['no purpose', `/dashboard/settings?tab=domains&add=${HOST}`],
  ])('opens as usual for %s', async (_, href) => {
    // Prepare
    stubApi({ 'GET /api/me/domains': domainsAnswer(), 'GET /api/me/audits': auditsAnswer() });

    // Act
    renderTab(href);
    await screen.findByText('No domains yet. Add your website\'s domain above to start.');

    // Assess
    expect(purpose()).toBeNull();
    expect(domainInput().value).toBe('');
  });
});
