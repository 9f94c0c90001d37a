import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { myDataFileName } from './lib/save-json';
import { ProfileTab } from './profile-tab';
import { ACCOUNT } from './test-fixtures';

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

describe('Settings → Profile', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("shows the saved profile, with the account's email read-only", async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT } });

    // Act
    renderWithProviders(<ProfileTab />);
    await screen.findByLabelText('First name');

    // Assess
    expect(input('First name').value).toBe('Ada');
    expect(input('Last name').value).toBe('Lovelace');
    expect(input('Company').value).toBe('Analytical Engines');
    expect(input('Mobile number (optional)').value).toBe('+61412345678');
    expect(input('Email').value).toBe('ada@example.test');
    expect(input('Email').readOnly).toBe(true);
  });

  it("shows the shared schema's field messages and sends nothing when the profile is invalid", async () => {
    // Prepare
    const api = stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT } });
    renderWithProviders(<ProfileTab />);
    await screen.findByLabelText('First name');

    // Act
    type('First name', '   ');
    type('Mobile number (optional)', '12');
    save();

    // Assess
    expect(screen.getByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Please enter a valid mobile number')).toBeTruthy();
    expect(input('First name').getAttribute('aria-invalid')).toBe('true');
    expect(input('Last name').getAttribute('aria-invalid')).toBeNull();
    expect(api.callsTo('PUT', '/api/me')).toEqual([]);
  });

  it('sends what was typed and shows the saved profile, mobile number in E.164, with a success message', async () => {
    // Prepare
    const saved = { ...ACCOUNT, user: { ...ACCOUNT.user, firstName: 'Augusta', company: 'Engines Pty Ltd', mobileNumber: '+61498765432' } };
    const api = stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'PUT /api/me': { status: 200, body: saved } });
    renderWithProviders(<ProfileTab />);
    await screen.findByLabelText('First name');

    // Act
    type('First name', 'Augusta');
    type('Company', 'Engines Pty Ltd');
    type('Mobile number (optional)', '0498 765 432');
    save();

    // Assess
    expect(await screen.findByText('Your profile has been saved.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/me').map((call) => call.body)).toEqual([
      { firstName: 'Augusta', lastName: 'Lovelace', company: 'Engines Pty Ltd', mobileNumber: '0498 765 432' },
    ]);
    expect(input('Mobile number (optional)').value).toBe('+61498765432');
    expect(input('First name').value).toBe('Augusta');
  });

  it("shows the API's 400 message and its field messages", async () => {
    // Prepare
    stubApi({
      'GET /api/me': { status: 200, body: ACCOUNT },
      'PUT /api/me': {
        status: 400,
        body: { error: 'validation_failed', message: 'Last name is required', fields: { lastName: 'Last name is required' } },
      },
    });
    renderWithProviders(<ProfileTab />);
    await screen.findByLabelText('First name');

    // Act
    save();

    // Assess
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Last name is required'));
    expect(input('Last name').getAttribute('aria-invalid')).toBe('true');
  });

  it('downloads my data as {slug}-my-data-YYYY-MM-DD.json holding what the export answered', async () => {
    // Prepare
    const exported = { exportedAt: '2026-03-04T05:06:07.000Z', profile: { email: 'ada@example.test' }, audits: [], domains: [] };
    const api = stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'GET /api/me/export': { status: 200, body: exported } });
    let saved: Blob | undefined;
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => {
        saved = blob;
        return 'blob:my-data';
      }),
      revokeObjectURL: vi.fn(),
    });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderWithProviders(<ProfileTab />);
    await screen.findByLabelText('First name');

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(clicked).toHaveLength(1));

    // Assess
    expect(api.callsTo('GET', '/api/me/export')).toHaveLength(1);
    expect(clicked[0]?.download).toBe(myDataFileName(new Date()));
    expect(clicked[0]?.download).toMatch(/^rampart-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    expect(saved?.type).toBe('application/json');
    expect(JSON.parse(await saved!.text())).toEqual(exported);
  });

  it('names the export file after the product and the local date', () => {
    expect(myDataFileName(new Date(2026, 0, 9, 23, 30), 'Rampart')).toBe('rampart-my-data-2026-01-09.json');
    expect(myDataFileName(new Date(2026, 11, 31), 'Acme Security')).toBe('acme-security-my-data-2026-12-31.json');
  });
});
