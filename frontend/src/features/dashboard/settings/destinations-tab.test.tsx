import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alertDestinationMessages, destinationEvents, type DeliveryView, type DestinationList, type DestinationView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { DestinationsTab, destinationsTabMessages, resultText } from './destinations-tab';

const SECRET = 'whsec_ab12CDEFghijklmnopqrstuvwxyz0123456789-_AB';
const ID = 'dst_AAAAAAAAAAAAAAAA';

const destination = (name: string, overrides: Partial<DestinationView> = {}): DestinationView => ({
  id: ID,
  kind: 'slack',
  name,
  urlHint: 'https://hooks.slack.com/services/…',
  events: ['issue_new', 'grade_changed'],
  enabled: true,
  consecutiveFailures: 0,
  createdAt: '2026-03-02T01:00:00.000Z',
  ...overrides,
});

const listAnswer = (destinations: DestinationView[], allowed = true): { status: number; body: DestinationList } => ({
  status: 200,
  body: { destinations, allowed, limit: 10, events: destinationEvents.map((id) => ({ id, label: id })) },
});

const delivery = (overrides: Partial<DeliveryView>): DeliveryView => ({
  id: crypto.randomUUID(),
  destinationId: ID,
  at: '2026-03-05T04:30:00.000Z',
  event: 'issue_new',
  attempt: 1,
  outcome: 'delivered',
  statusCode: 200,
  durationMs: 40,
  ...overrides,
});

describe('Settings → Alert destinations', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('tells a plan without destinations to upgrade, and offers no form', async () => {
    // Prepare
    stubApi({ 'GET /api/me/alert-destinations': listAnswer([], false) });

    // Act
    renderWithProviders(<DestinationsTab />);

    // Assess
    expect(await screen.findByText(alertDestinationMessages.planRequired)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade your plan' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Add an alert destination' })).toBeNull();
  });

  it('adds a webhook with the events ticked, and shows its signing secret once', async () => {
    // Prepare
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const created = destination('Tickets', { kind: 'webhook', urlHint: 'https://tickets.example.test/rampart/…', events: ['issue_new', 'issue_overdue'], secretHint: 'whsec_ab12…' });
    const api = stubApi({
      'GET /api/me/alert-destinations': [listAnswer([]), listAnswer([created])],
      'POST /api/me/alert-destinations': { status: 201, body: { destination: created, secret: SECRET } },
    });
    renderWithProviders(<DestinationsTab />);
    await advance();
    const form = screen.getByRole('form', { name: 'Add an alert destination' });

    // Act
    fireEvent.change(within(form).getByLabelText('Send to'), { target: { value: 'webhook' } });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: ' Tickets ' } });
    fireEvent.change(within(form).getByLabelText('Webhook address'), { target: { value: 'https://tickets.example.test/rampart/in' } });
    for (const label of ['Fixed issue', 'Grade change', 'Certificate expiry', 'Newly exploited CVE']) fireEvent.click(within(form).getByRole('checkbox', { name: label }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add destination' }));
    await advance();

    // Assess
    expect(api.callsTo('POST', '/api/me/alert-destinations').map((call) => call.body)).toEqual([
      { kind: 'webhook', name: 'Tickets', url: 'https://tickets.example.test/rampart/in', events: ['issue_new', 'issue_overdue'] },
    ]);
    const secret = screen.getByLabelText('Signing secret of “Tickets”') as HTMLInputElement;
    expect([secret.value, secret.readOnly]).toEqual([SECRET, true]);
    expect(screen.getByText(destinationsTabMessages.secretWarning)).toBeTruthy();
    const row = screen.getByRole('listitem', { name: 'Tickets' });
    expect(within(row).getByText('whsec_ab12…')).toBeTruthy();
    expect(within(row).getByText(destinationsTabMessages.secretHintNote, { exact: false })).toBeTruthy();
    expect(within(row).queryByText(SECRET)).toBeNull();
    // The whole secret, not the hint, goes to the clipboard
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await advance();
    expect(writeText.mock.calls).toEqual([[SECRET]]);
    expect(screen.getByText(destinationsTabMessages.copied)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('Signing secret of “Tickets”')).toBeNull();
  });

  it('refuses a destination without events before sending anything', async () => {
    // Prepare
    const api = stubApi({ 'GET /api/me/alert-destinations': listAnswer([]) });
    renderWithProviders(<DestinationsTab />);
    const form = await screen.findByRole('form', { name: 'Add an alert destination' });

    // Act
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Ops' } });
    fireEvent.change(within(form).getByLabelText('Webhook address'), { target: { value: 'https://hooks.slack.com/services/T/B/X' } });
    for (const checkbox of within(form).getAllByRole('checkbox')) fireEvent.click(checkbox);
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add destination' }));
    });

    // Assess
    expect(within(form).getByText(alertDestinationMessages.events)).toBeTruthy();
    expect(api.callsTo('POST', '/api/me/alert-destinations')).toEqual([]);
  });

  it('sends a test and says how it went, opens the delivery log, and shows why a destination was disabled', async () => {
    // Prepare
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const disabled = destination('Ops channel', { enabled: false, consecutiveFailures: 5, disabledReason: 'Disabled after 5 alerts in a row could not be delivered' });
    const api = stubApi({
      'GET /api/me/alert-destinations': listAnswer([disabled]),
      [`POST /api/me/alert-destinations/${ID}/test`]: { status: 200, body: { delivery: delivery({ event: 'test', outcome: 'failed', statusCode: 404, error: 'The receiver answered HTTP 404' }) } },
      [`GET /api/me/alert-destinations/${ID}/deliveries`]: {
        status: 200,
        body: { deliveries: [delivery({ event: 'test', outcome: 'failed', statusCode: 404, error: 'The receiver answered HTTP 404' }), delivery({ event: 'issue_new,grade_changed', attempt: 2 })] },
      },
      [`PUT /api/me/alert-destinations/${ID}`]: { status: 200, body: { ...disabled, enabled: true } },
    });
    renderWithProviders(<DestinationsTab />);
    await advance();
    const row = screen.getByRole('listitem', { name: 'Ops channel' });

    // Act
    fireEvent.click(within(row).getByRole('button', { name: 'Send test to Ops channel' }));
    await advance();
    const logButton = within(row).getByRole('button', { name: 'Delivery log of Ops channel' });
    fireEvent.click(logButton);
    await advance();
    fireEvent.click(within(row).getByRole('button', { name: 'Enable Ops channel' }));
    await advance();

    // Assess
    expect(within(row).getByText('Disabled')).toBeTruthy();
    expect(within(row).getByText(/Disabled after 5 alerts in a row could not be delivered\. Check the address/)).toBeTruthy();
    expect(within(row).getByRole('status').textContent).toBe('Test not delivered: The receiver answered HTTP 404.');
    expect(logButton.getAttribute('aria-expanded')).toBe('true');
    const table = within(row).getByRole('table', { name: 'Deliveries to Ops channel, newest first (30 days)' });
    const rows = within(table).getAllByRole('row').slice(1).map((tr) => within(tr).getAllByRole('cell').slice(1).map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Test', '1', 'Failed: The receiver answered HTTP 404'],
      ['New issue, Grade change', '2', 'Delivered (HTTP 200)'],
    ]);
    expect(api.callsTo('PUT', `/api/me/alert-destinations/${ID}`).map((call) => call.body)).toEqual([{ enabled: true }]);
  });

  it('words each delivery outcome', () => {
    expect(resultText({ outcome: 'refused', error: 'private.example.test resolves to 10.0.0.7' })).toBe('Refused: private.example.test resolves to 10.0.0.7');
    expect(resultText({ outcome: 'failed', statusCode: 500 })).toBe('Failed: HTTP 500');
  });
});
