import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { TwoStepPanel, twoStepText } from './two-step-panel';

const URI = 'otpauth://totp/Rampart:owner%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Rampart';

function renderPanel(session: Record<string, unknown>) {
  renderWithProviders(
    <AuthTestProvider value={{ session: async () => session as never }}>
      <TwoStepPanel />
    </AuthTestProvider>,
  );
}

describe('Settings → Security → two-step sign-in', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the secret and its otpauth link, checks the app code through Cognito, then says it is on', async () => {
    // Prepare
    const api = stubApi({ 'GET /api/me/two-step': [{ status: 200, body: { enabled: false, required: false } }, { status: 200, body: { enabled: true, required: false } }] });
    const startTotpSetup = vi.fn(async () => ({ secret: 'JBSWY3DPEHPK3PXP', uri: URI }));
    const finishTotpSetup = vi.fn(async () => undefined);
    renderPanel({ startTotpSetup, finishTotpSetup });

    // Act
    fireEvent.click(await screen.findByRole('button', { name: twoStepText.setUp }));
    const link = (await screen.findByRole('link', { name: 'Open in authenticator app' })) as HTMLAnchorElement;
    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }));
    const tooShort = screen.getByRole('alert').textContent;
    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }));

    // Assess
    expect(link.href).toBe(URI);
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(startTotpSetup).toHaveBeenCalledWith('owner@example.com', expect.any(String));
    expect(tooShort).toBe(twoStepText.format);
    await waitFor(() => expect(screen.getByTestId('two-step-state').textContent).toBe(twoStepText.on));
    expect(finishTotpSetup).toHaveBeenCalledWith('123456');
    expect(screen.getByRole('status').textContent).toBe(twoStepText.enabled);
    expect(api.callsTo('GET', '/api/me/two-step')).toHaveLength(2);
  });

  it('says a wrong code is not right and stays off', async () => {
    stubApi({ 'GET /api/me/two-step': { status: 200, body: { enabled: false, required: true } } });
    const finishTotpSetup = vi.fn(async () => {
      throw Object.assign(new Error('Code mismatch'), { name: 'CodeMismatchException' });
    });
    renderPanel({ startTotpSetup: async () => ({ secret: 'JBSWY3DPEHPK3PXP', uri: URI }), finishTotpSetup });

    expect((await screen.findByRole('note')).textContent).toBe(twoStepText.requiredOff);
    fireEvent.click(screen.getByRole('button', { name: twoStepText.setUp }));
    fireEvent.change(await screen.findByLabelText('Code from the app'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }));

    expect((await screen.findByRole('alert')).textContent).toBe(twoStepText.wrong);
    expect(screen.getByTestId('two-step-state').textContent).toBe(twoStepText.off);
  });

  it('offers Turn off only when the role does not require it', async () => {
    stubApi({ 'GET /api/me/two-step': { status: 200, body: { enabled: true, required: true } } });
    renderPanel({});

    expect((await screen.findByRole('note')).textContent).toBe(twoStepText.required);
    expect(screen.queryByRole('button', { name: twoStepText.turnOff })).toBeNull();
  });

  it('turns it off through Cognito when it is not required', async () => {
    stubApi({ 'GET /api/me/two-step': [{ status: 200, body: { enabled: true, required: false } }, { status: 200, body: { enabled: false, required: false } }] });
    const turnOffTotp = vi.fn(async () => undefined);
    renderPanel({ turnOffTotp });

    fireEvent.click(await screen.findByRole('button', { name: twoStepText.turnOff }));

    await waitFor(() => expect(screen.getByTestId('two-step-state').textContent).toBe(twoStepText.off));
    expect(turnOffTotp).toHaveBeenCalledTimes(1);
  });
});
