import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { VerificationModal } from './verification-modal';

const request = { email: 'ada@gmail.test', firstName: 'Ada', webUrl: 'https://shop.example.test', businessName: 'Analytical Engines' };
const SENT = { status: 201, body: { verificationId: '6f1c1c1e-8d7e-4c4b-9a55-0c8f7f0f2a11' } };
const wrong = (remainingAttempts: number) => ({
  status: 400,
  body: { error: 'verification_failed', message: 'Verification failed', remainingAttempts },
});
const LOCKED = {
  status: 400,
  body: { error: 'verification_locked', message: 'Too many incorrect attempts. Please request a new code.', remainingAttempts: 0 },
};


const codeInput = () => screen.getByLabelText('Verification code') as HTMLInputElement;
const verifyButton = () => screen.getByRole('button', { name: 'Verify Code' }) as HTMLButtonElement;
const resendButton = () => screen.getByRole('button', { name: 'Resend Code' }) as HTMLButtonElement;
const countdown = () => screen.getByTestId('code-countdown').textContent;
const typeCode = (code: string) => fireEvent.change(codeInput(), { target: { value: code } });

function openModal() {
  const onVerified = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(<VerificationModal request={request} onVerified={onVerified} onClose={onClose} />);
  return { onVerified, onClose };
}

describe('the domain verification modal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows sending, sends the code with the lead details once, then asks for it with a 10:00 countdown', async () => {
    // Prepare
    const api = stubApi({ 'POST /api/verification-codes': SENT });

    // Act
    openModal();
    const sendingText = screen.getByRole('status').textContent;
    await advance();

    // Assess
    expect(sendingText).toContain('Sending a verification code to ada@gmail.test');
    expect(api.callsTo('POST', '/api/verification-codes').map((c) => c.body)).toEqual([request]);
    expect(countdown()).toBe('10:00');
    expect(codeInput()).toHaveProperty('maxLength', 6);
    expect(document.activeElement).toBe(codeInput());
    expect(screen.getByRole('complementary', { name: 'Security notice' }).textContent).toContain('expires in 10 minutes');
  });

  it('counts down as m:ss and enables Resend only after the first 60 s', async () => {
    // Prepare
    const api = stubApi({ 'POST /api/verification-codes': SENT });
    openModal();
    await advance();

    // Act
    await advance(1_000);
    const after1s = [countdown(), resendButton().disabled];
    await advance(58_000);
    const after59s = [countdown(), resendButton().disabled];
    await advance(1_000);
    const after60s = [countdown(), resendButton().disabled];
    await advance(61_000);
    const after121s = countdown();
    fireEvent.click(resendButton());
    const whileResending = screen.getByRole('status').textContent;
    await advance();

    // Assess
    expect(after1s).toEqual(['9:59', true]);
    expect(after59s).toEqual(['9:01', true]);
    expect(after60s).toEqual(['9:00', false]);
    expect(after121s).toBe('7:59');
    expect(whileResending).toContain('Sending a verification code');
    expect(api.callsTo('POST', '/api/verification-codes')).toHaveLength(2);
    expect(countdown()).toBe('10:00');
    expect(resendButton().disabled).toBe(true);
  });

  it('enables Verify only at exactly 6 digits and keeps at most 6', async () => {
    // Prepare
    stubApi({ 'POST /api/verification-codes': SENT });
    openModal();
    await advance();

    // Act
    typeCode('12345');
    const atFive = [codeInput().value, verifyButton().disabled];
    typeCode('12a3456');
    const atSixWithLetter = [codeInput().value, verifyButton().disabled];
    typeCode('12345678');
    const atEight = [codeInput().value, verifyButton().disabled];

    // Assess
    expect(atFive).toEqual(['12345', true]);
    expect(atSixWithLetter).toEqual(['123456', false]);
    expect(atEight).toEqual(['123456', false]);
  });

  it("says a wrong code failed with the attempts left and what to do, then the error state with Try Again when they run out", async () => {
    // Prepare
    const api = stubApi({
      'POST /api/verification-codes': SENT,
      'POST /api/verification-codes/verify': [wrong(2), wrong(1), LOCKED],
    });
    openModal();
    await advance();

    // Act
    typeCode('111111');
    fireEvent.click(verifyButton());
    await advance();
    const first = screen.getByRole('alert').textContent;
    const firstAttempts = screen.getByText(/attempts? remaining/).textContent;
    typeCode('222222');
    fireEvent.click(verifyButton());
    await advance();
    const secondAttempts = screen.getByText(/attempts? remaining/).textContent;
    typeCode('333333');
    fireEvent.click(verifyButton());
    await advance();
    const locked = screen.getByRole('alert').textContent;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await advance();

    // Assess
    expect(first).toBe('Verification failed: that is not the code we sent. 2 attempts remaining. Check the newest email from us for the 6-digit code, or ask for a new code.');
    expect(firstAttempts).toBe(first);
    expect(secondAttempts).toBe('Verification failed: that is not the code we sent. 1 attempt remaining. Check the newest email from us for the 6-digit code, or ask for a new code.');
    expect(locked).toContain('Too many incorrect attempts. Please request a new code.');
    expect(api.callsTo('POST', '/api/verification-codes/verify').map((c) => c.body)).toEqual([
      { email: request.email, webUrl: request.webUrl, verificationCode: '111111' },
      { email: request.email, webUrl: request.webUrl, verificationCode: '222222' },
      { email: request.email, webUrl: request.webUrl, verificationCode: '333333' },
    ]);
    // Try Again starts over: a new code, 3 attempts (none shown), 10:00.
    expect(api.callsTo('POST', '/api/verification-codes')).toHaveLength(2);
    expect(countdown()).toBe('10:00');
    expect(screen.queryByText(/attempts? remaining/)).toBeNull();
  });

  it("falls back to the wrong-code message with one attempt less when the server gives neither", async () => {
    // Prepare
    stubApi({ 'POST /api/verification-codes': SENT, 'POST /api/verification-codes/verify': { status: 502, body: 'Bad gateway' } });
    openModal();
    await advance();

    // Act
    typeCode('123456');
    fireEvent.click(verifyButton());
    await advance();

    // Assess
    expect(screen.getByRole('alert').textContent).toBe('Verification failed: that is not the code we sent. 2 attempts remaining. Check the newest email from us for the 6-digit code, or ask for a new code.');
    // The count is said once, in the message, not again beside it
    expect(screen.getAllByText(/attempts? remaining/)).toHaveLength(1);
  });

  it('shows success for a correct code and calls back after 1.5 s, not before', async () => {
    // Prepare
    stubApi({ 'POST /api/verification-codes': SENT, 'POST /api/verification-codes/verify': { status: 200, body: { verified: true } } });
    const { onVerified } = openModal();
    await advance();

    // Act
    typeCode('654321');
    fireEvent.click(verifyButton());
    await advance();
    const successText = screen.getByRole('status').textContent;
    await advance(1_499);
    const calledEarly = onVerified.mock.calls.length;
    await advance(1);

    // Assess
    expect(successText).toContain('Email verified!');
    expect(calledEarly).toBe(0);
    expect(onVerified).toHaveBeenCalledTimes(1);
  });

  it("shows 'Failed to send verification code' with the server's reason when sending fails", async () => {
    // Prepare
    stubApi({
      'POST /api/verification-codes': {
        status: 429,
        body: { error: 'rate_limited', message: 'A code was sent less than a minute ago. Please wait before asking for another.' },
      },
    });

    // Act
    openModal();
    await advance();

    // Assess
    const alert = screen.getByRole('alert').textContent;
    expect(alert).toContain('Failed to send verification code');
    expect(alert).toContain('A code was sent less than a minute ago.');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });

  it('moves to the error state when the code expires after 10 minutes', async () => {
    // Prepare
    stubApi({ 'POST /api/verification-codes': SENT });
    openModal();
    await advance();

    // Act
    await advance(599_000);
    const beforeExpiry = countdown();
    await advance(1_000);

    // Assess
    expect(beforeExpiry).toBe('0:01');
    expect(screen.getByRole('alert').textContent).toContain('This verification code has expired. Please request a new code.');
  });

  it('closes on Escape and on the Close button', async () => {
    // Prepare
    stubApi({ 'POST /api/verification-codes': SENT });
    const { onClose } = openModal();
    await advance();

    // Act
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));

    // Assess
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('dialog', { name: 'Verify your email address' }).getAttribute('aria-modal')).toBe('true');
  });
});
