import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { NotificationsTab, SAVE_FAILED } from './notifications-tab';

const SAVED = { emailAlerts: true, scanCompletions: false, securityUpdates: true, marketingEmails: false };
const LABELS = ['Email alerts', 'Scan completions', 'Security updates', 'Marketing emails'];

const toggle = (name: string) => screen.getByRole('switch', { name }) as HTMLButtonElement;
const states = () => LABELS.map((name) => toggle(name).getAttribute('aria-checked'));

describe('Settings → Notifications', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the four labelled switches as saved', async () => {
    // Prepare
    stubApi({ 'GET /api/me/notifications': { status: 200, body: SAVED } });

    // Act
    renderWithProviders(<NotificationsTab />);
    await screen.findByRole('switch', { name: 'Email alerts' });

    // Assess
    expect(screen.getAllByRole('switch')).toHaveLength(4);
    expect(states()).toEqual(['true', 'false', 'true', 'false']);
  });

  it('saves on toggle with all four flags, showing the change at once', async () => {
    // Prepare
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const after = { ...SAVED, marketingEmails: true };
    const api = stubApi({
      'GET /api/me/notifications': { status: 200, body: SAVED },
      'PUT /api/me/notifications': { status: 200, body: after },
    });
    // The save is held until released, to see the page while it is in flight.
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'PUT') await held;
      return answer(input, init);
    });
    renderWithProviders(<NotificationsTab />);
    await screen.findByRole('switch', { name: 'Marketing emails' });

    // Act
    fireEvent.click(toggle('Marketing emails'));
    const whileSaving = states();
    release();
    await waitFor(() => expect(toggle('Marketing emails').disabled).toBe(false));

    // Assess
    expect(whileSaving).toEqual(['true', 'false', 'true', 'true']);
    expect(api.callsTo('PUT', '/api/me/notifications').map((call) => call.body)).toEqual([after]);
    expect(states()).toEqual(['true', 'false', 'true', 'true']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('puts the switch back and says so when the save fails', async () => {
    // Prepare
    const api = stubApi({
      'GET /api/me/notifications': { status: 200, body: SAVED },
      'PUT /api/me/notifications': { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side.' } },
    });
    renderWithProviders(<NotificationsTab />);
    await screen.findByRole('switch', { name: 'Email alerts' });

    // Act
    fireEvent.click(toggle('Email alerts'));

    // Assess
    expect((await screen.findByRole('alert')).textContent).toBe(SAVE_FAILED);
    expect(states()).toEqual(['true', 'false', 'true', 'false']);
    expect(api.callsTo('PUT', '/api/me/notifications').map((call) => call.body)).toEqual([{ ...SAVED, emailAlerts: false }]);
  });
});
