import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthTestProvider } from '../../auth/auth-provider';
import { planComparison, type ComparisonCell } from '../../../lib/catalogue';
import { PricingSection } from './pricing-section';

function renderPricing() {
  const router = createMemoryRouter([{ path: '/', Component: PricingSection }], { initialEntries: ['/'] });
  render(
    <AuthTestProvider value={{ status: 'signed-out' }}>
      <RouterProvider router={router} />
    </AuthTestProvider>,
  );
}

/** The table as a reader hears it: column headers, then each row's header and cells. */
function read(table: HTMLElement) {
  const [head, ...body] = within(table).getAllByRole('row');
  return {
    columns: within(head!).getAllByRole('columnheader').map((cell) => cell.textContent),
    rows: body.map((row) => [within(row).getByRole('rowheader').textContent, ...within(row).getAllByRole('cell').map((cell) => cell.textContent)]),
  };
}

const spoken = (cell: ComparisonCell) => (cell === true ? 'Included' : cell === false ? '—Not included' : cell);

describe('the pricing comparison table', () => {
  it('compares the free report, the audits and the scan packs under Security Audits, with what each grants', () => {
    // Act
    renderPricing();
    const table = screen.getByRole('table', { name: 'What the free report, the audits and the scan packs include' });
    const { columns, rows } = read(table);

    // Assess
    expect(columns).toEqual(['What you get', 'Free reportFree', 'Basic AuditA$249', 'Pro AuditA$399', '5-Scan PackA$249', '20-Scan PackA$449']);
    const row = (label: string) => rows.find((cells) => cells[0] === label)?.slice(1);
    expect(row('Ports checked')).toEqual(['100', '1,000', '1,000', '1,000', '1,000']);
    expect(row('Every subdomain checked for TLS and headers')).toEqual(['—Not included', ...Array(4).fill('Every answering one, up to 25')]);
    expect(row('Fix guides for your platform (Microsoft 365, Cloudflare, WordPress…)')).toEqual(['—Not included', 'Included', 'Included', '—Not included', '—Not included']);
    expect(row('Remediation plan')).toEqual(['—Not included', '—Not included', 'Included', '—Not included', '—Not included']);
    expect(row('Essential Eight readiness section')).toEqual(['—Not included', '—Not included', 'Included', '—Not included', '—Not included']);
    expect(row('Free re-scan to confirm fixes')).toEqual(['—Not included', '—Not included', 'Within 30 days', '—Not included', '—Not included']);
    expect(row('Badge eligibility')).toEqual(['—Not included', '30 days', '90 days', '—Not included', '—Not included']);
    expect(screen.queryByRole('table', { name: 'What the monthly monitoring plans include' })).toBeNull();
  });

  it('shows every row of the catalogue, cell for cell, on each tab', () => {
    // Prepare
    renderPricing();
    const [oneOff, monitoring] = planComparison();
    const expected = (rows: { label: string; cells: ComparisonCell[] }[]) => rows.map((row) => [row.label, ...row.cells.map(spoken)]);

    // Act
    const audits = read(screen.getByRole('table', { name: oneOff!.caption }));
    fireEvent.click(screen.getByRole('tab', { name: 'Monthly Protection' }));
    const monthly = read(screen.getByRole('table', { name: monitoring!.caption }));

    // Assess
    expect(audits.rows).toEqual(expected(oneOff!.rows));
    expect(monthly.rows).toEqual(expected(monitoring!.rows));
    expect(monthly.columns).toEqual(['What you get', 'Monitor LiteA$49/month', 'Monitor PlusA$99/month']);
    expect(monthly.rows.find((cells) => cells[0] === 'Alert on each detected change')).toEqual(['Alert on each detected change', 'Email', 'Email and SMS']);
  });

  it('gives each row and column header its scope, and the scrolling region the caption as its name', () => {
    // Act
    renderPricing();
    const table = screen.getByRole('table', { name: 'What the free report, the audits and the scan packs include' });

    // Assess
    expect(within(table).getAllByRole('columnheader').every((cell) => cell.getAttribute('scope') === 'col')).toBe(true);
    expect(within(table).getAllByRole('rowheader').every((cell) => cell.getAttribute('scope') === 'row')).toBe(true);
    expect(screen.getByRole('region', { name: 'What the free report, the audits and the scan packs include' }).getAttribute('tabindex')).toBe('0');
  });
});
