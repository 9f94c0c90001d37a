import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { supportMessages, type SupportRequestsPage, type SupportRequestView } from '../../../lib/contracts';
import { NO_REQUESTS, SupportSection } from './support-section';

const PATH = '/api/me/support-requests';

const past: SupportRequestView = {
  id: '1f2e3d4c-0000-4000-8000-000000000001',
  reference: 'SR-20261101-1F2E3D',
  category: 'billing',
  subject: 'Invoice for October',
  message: 'Please send the invoice again.',
  auditId: null,
  status: 'open',
  plan: 'Monitor Plus',
  priority: true,
  createdAt: '2026-11-01T03:00:00.000Z',
};

const PLUS: SupportRequestsPage = { requests: [past], support: { plan: 'Monitor Plus', priority: true, firstResponse: '1 business day' } };
const TRIAL: SupportRequestsPage = { requests: [], support: { plan: 'Free Trial', priority: false, firstResponse: '3 business days' } };

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send request' }));

async function showPage(routes: Parameters<typeof stubApi>[0]) {
  const api = stubApi(routes);
  renderWithProviders(<SupportSection />, { route: '/dashboard/support' });
  await screen.findByRole('heading', { name: 'Your requests' });
  return api;
}

function fillIn() {
  type('Category', 'technical');
  type('Subject', '  Badge not showing ');
  type('Message', 'The badge says not verified although I verified the domain.');
}

describe('Support page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the plan with the Priority support badge and its promise, and the past requests', async () => {
    await showPage({ [`GET ${PATH}`]: { status: 200, body: PLUS } });

    const support = await screen.findByRole('region', { name: 'Your support' });
    expect(within(support).getByText('Your plan: Monitor Plus')).toBeTruthy();
    expect(within(support).getByText('Priority support')).toBeTruthy();
    expect(within(support).getByText('Your plan includes priority support: expect our first response within 1 business day.')).toBeTruthy();
    const row = screen.getByRole('listitem', { name: 'SR-20261101-1F2E3D' });
    expect(within(row).getByText('Invoice for October')).toBeTruthy();
    expect(within(row).getByText('Priority support')).toBeTruthy();
    expect(row.textContent).toContain('SR-20261101-1F2E3D · Billing · 1 Nov 2026 · open');
  });

  it('shows no badge for a plan without priority support, and says there are no requests yet', async () => {
    await showPage({ [`GET ${PATH}`]: { status: 200, body: TRIAL } });

    const support = await screen.findByRole('region', { name: 'Your support' });
    expect(within(support).queryByText('Priority support')).toBeNull();
    expect(within(support).getByText('Expect our first response within 3 business days. Monitor Plus and the 20-Scan Pack include priority support.')).toBeTruthy();
    expect(screen.getByText(NO_REQUESTS)).toBeTruthy();
  });

  it("shows the contract's messages and sends nothing when the form is not valid", async () => {
    const api = await showPage({ [`GET ${PATH}`]: { status: 200, body: TRIAL } });

    type('Subject', 'Hi');
    type('Message', 'Too short');
    type('Audit ID (optional)', 'not-an-audit');
    send();

    for (const message of [supportMessages.category, supportMessages.subjectShort, supportMessages.messageShort, supportMessages.auditId]) expect(screen.getByText(message)).toBeTruthy();
    expect(field('Subject').getAttribute('aria-invalid')).toBe('true');
    expect(field('Category').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('POST', PATH)).toEqual([]);
  });

  it('sends the request and shows its reference and the promised response time, then lists it', async () => {
    // Prepare
    const created = { ...past, id: '2f2e3d4c-0000-4000-8000-000000000002', reference: 'SR-20261122-2F2E3D', category: 'technical' as const, subject: 'Badge not showing', message: 'The badge says not verified although I verified the domain.', priority: false, plan: 'Free Trial' };
    const api = await showPage({
      [`GET ${PATH}`]: [{ status: 200, body: TRIAL }, { status: 200, body: { ...TRIAL, requests: [created] } }],
      [`POST ${PATH}`]: { status: 201, body: { request: created, firstResponse: '3 business days' } },
    });

    // Act
    fillIn();
    send();

    // Assess
    expect(await screen.findByText('Your request has been sent.')).toBeTruthy();
    expect(screen.getByTestId('support-reference').textContent).toBe('SR-20261122-2F2E3D');
    expect(screen.getByText('We emailed you a copy. You can expect our first response within 3 business days.')).toBeTruthy();
    expect(api.callsTo('POST', PATH).map((c) => c.body)).toEqual([{ category: 'technical', subject: 'Badge not showing', message: 'The badge says not verified although I verified the domain.' }]);
    expect(await screen.findByRole('listitem', { name: 'SR-20261122-2F2E3D' })).toBeTruthy();

    // And the form comes back empty for another request.
    fireEvent.click(screen.getByRole('button', { name: 'Send another request' }));
    expect(field('Subject').value).toBe('');
  });

  it("shows the API's message for a refused request (the hourly limit) and the field it names", async () => {
    await showPage({
      [`GET ${PATH}`]: { status: 200, body: TRIAL },
      [`POST ${PATH}`]: [
        { status: 429, body: { error: 'rate_limited', message: 'Too many support requests. Please try again in 42 minutes.' } },
        { status: 400, body: { error: 'validation_failed', message: supportMessages.auditNotYours, fields: { auditId: supportMessages.auditNotYours } } },
        { status: 502, body: { error: 'support_unavailable', message: 'upstream detail' } },
      ],
    });

    fillIn();
    send();
    expect((await screen.findByRole('alert')).textContent).toBe('Too many support requests. Please try again in 42 minutes.');

    send();
    await waitFor(() => expect(field('Audit ID (optional)').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText(supportMessages.auditNotYours).length).toBe(2);

    send();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(supportMessages.failed));
  });
});
