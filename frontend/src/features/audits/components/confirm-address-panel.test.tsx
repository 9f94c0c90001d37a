import { fireEvent, screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addressProofMessages, type Audit, type AuditResultView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { rememberAddressProof } from '../../lead-form/lib/session-keys';
import { ConfirmAddressPanel } from './confirm-address-panel';

const ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
const CONFIRM_PATH = `/api/audits/${ID}/confirm-address`;
/** The full scan the confirmed code starts: a new report (issue 29 item 6). */
const NEW_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}
const audit = (status: Audit['status'] = 'completed'): Audit => ({
  id: ID,
  targetUrl: 'https://shop.example.test/',
  host: 'shop.example.test',
  status,
  createdAt: '2026-01-01T00:00:00.000Z',
  mode: 'passive',
  checks: [],
});
// The panel reads only `address_proof_pending` of the view.
const view = (pending: boolean) => ({ ...(pending ? { address_proof_pending: true } : {}) }) as AuditResultView;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('the address proof on a same-domain lead’s passive report (DECISIONS "Scan modes" [attacker])', () => {
  it('names the address the lead form remembered, sends the typed code for this report, and goes to the new report of the full scan', async () => {
    // Prepare
    rememberAddressProof(ID, 'owner@example.test');
    const api = stubApi({ [`POST ${CONFIRM_PATH}`]: { status: 202, body: { auditId: NEW_ID, status: 'queued', mode: 'active', accountCreated: true, message: addressProofMessages.started } } });
    renderWithProviders(
      <>
        <ConfirmAddressPanel audit={audit()} result={view(true)} />
        <Where />
      </>,
      { route: `/results/${ID}` },
    );

    // Act
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: ' 123456 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and run the full scan' }));
    await advance(50);

    // Assess
    expect(screen.getByRole('heading').textContent).toBe('We emailed a code to owner@example.test: type it to run the full scan');
    expect(api.callsTo('POST', CONFIRM_PATH).map((call) => call.body)).toEqual([{ verificationCode: '123456' }]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('where').textContent).toBe(`/results/${NEW_ID}`);
  });

  it('says "your address" in another browser, and shows the API’s refusal of a wrong code', async () => {
    stubApi({ [`POST ${CONFIRM_PATH}`]: { status: 400, body: { error: 'verification_failed', message: 'Verification failed', remainingAttempts: 2 } } });
    renderWithProviders(<ConfirmAddressPanel audit={audit()} result={view(true)} />);

    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and run the full scan' }));
    await advance(50);

    expect(screen.getByRole('heading').textContent).toBe('We emailed a code to your address: type it to run the full scan');
    expect(screen.getByText('Verification failed: that is not the code we sent. 2 attempts remaining. Check the newest email from us for the 6-digit code, or ask for a new code.')).toBeTruthy();
  });

  it.each([
    ['no proof is pending', audit(), view(false)],
    ['the passive scan still runs', audit('in_progress'), view(true)],
  ])('shows nothing when %s', (_why, shown, result) => {
    stubApi({});
    renderWithProviders(<ConfirmAddressPanel audit={shown} result={result} />);
    expect(screen.queryByTestId('confirm-address-panel')).toBeNull();
  });
});
