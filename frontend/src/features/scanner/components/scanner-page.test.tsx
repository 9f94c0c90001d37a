import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScannerInfoView } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { ScannerPage } from './scanner-page';

const info = (extra: Partial<ScannerInfoView> = {}): ScannerInfoView => ({
  productName: 'Rampart',
  userAgent: 'RampartScanner/1.0 (+https://rampart.example/scanner)',
  egressAddresses: null,
  abuseEmail: 'abuse@rampart.example',
  politeness: { maxInFlightPerSite: 4, maxRequestsPerSecondPerSite: 10, activeScansPerSitePerHour: 6 },
  optOut: { dnsRecordName: '_rampart-scanner-opt-out.{domain}', dnsRecordValuePrefix: 'rampart-scanner-opt-out=', filePath: '/.well-known/rampart-scanner-opt-out.txt', requestValidDays: 7 },
  ...extra,
});

const TOKEN = 'abcdefghijklmnopqrstuv';

describe('/scanner', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('states the user agent, that the addresses are not fixed, the politeness from the API and the abuse address', async () => {
    stubApi({ 'GET /api/scanner': { status: 200, body: info() } });

    renderWithProviders(<ScannerPage />, { route: '/scanner' });

    await screen.findByRole('heading', { level: 1, name: 'The Rampart scanner' });
    expect(screen.getByTestId('scanner-user-agent').textContent).toBe('RampartScanner/1.0 (+https://rampart.example/scanner)');
    expect(screen.getByTestId('scanner-addresses').textContent).toMatch(/^Addresses that are not fixed/);
    expect(screen.getByTestId('scanner-politeness').textContent).toContain('At most 4 requests in flight at once to one site');
    expect(screen.getByTestId('scanner-politeness').textContent).toContain('At most 10 requests a second to one site');
    expect(screen.getByTestId('scanner-abuse-email').getAttribute('href')).toBe('mailto:abuse@rampart.example');
  });

  it('lists the fixed addresses when there are some', async () => {
    stubApi({ 'GET /api/scanner': { status: 200, body: info({ egressAddresses: ['203.0.113.7', '203.0.113.8'] }) } });

    renderWithProviders(<ScannerPage />, { route: '/scanner' });

    const list = await screen.findByTestId('scanner-addresses');
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['203.0.113.7', '203.0.113.8']);
  });

  it('walks an owner through the opt-out: domain, the record to publish, then the check; a missing proof shows the API’s message', async () => {
    // Prepare
    const request = {
      domain: 'example.com',
      token: TOKEN,
      expiresAt: '2026-12-08T00:00:00.000Z',
      dns: { type: 'TXT', name: '_rampart-scanner-opt-out.example.com', value: `rampart-scanner-opt-out=${TOKEN}` },
      file: { url: 'https://example.com/.well-known/rampart-scanner-opt-out.txt', content: TOKEN },
    };
    const api = stubApi({
      'GET /api/scanner': { status: 200, body: info() },
      'POST /api/scanner/opt-outs': { status: 201, body: request },
      'POST /api/scanner/opt-outs/example.com/confirm': [
        { status: 422, body: { error: 'opt_out_proof_not_found', message: 'We could not find the proof for example.com.' } },
        { status: 200, body: { domain: 'example.com', optedOut: true, optedOutAt: '2026-12-01T10:00:00.000Z', method: 'dns' } },
      ],
    });
    const user = userEvent.setup();
    renderWithProviders(<ScannerPage />, { route: '/scanner' });

    // Act
    await user.type(await screen.findByLabelText('Your domain'), 'https://www.shop.example.com/');
    await user.click(screen.getByRole('button', { name: 'Get opt-out instructions' }));
    await screen.findByTestId('opt-out-instructions');
    const record = [screen.getByTestId('opt-out-record-name').textContent, screen.getByTestId('opt-out-record-value').textContent];
    await user.click(screen.getByRole('button', { name: 'Check and opt out' }));
    const missing = await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'Check and opt out' }));

    // Assess
    expect(api.callsTo('POST', '/api/scanner/opt-outs')[0]?.body).toEqual({ domain: 'https://www.shop.example.com/' });
    expect(record).toEqual(['_rampart-scanner-opt-out.example.com', `rampart-scanner-opt-out=${TOKEN}`]);
    expect(missing.textContent).toBe('We could not find the proof for example.com.');
    expect((await screen.findByTestId('opt-out-done')).textContent).toBe('example.com is opted out since 1 December 2026: Rampart will not scan it or its subdomains for anyone.');
    expect(api.callsTo('POST', '/api/scanner/opt-outs/example.com/confirm').map((c) => c.body)).toEqual([{ token: TOKEN }, { token: TOKEN }]);
  });
});
