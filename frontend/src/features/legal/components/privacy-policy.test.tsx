import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LOG_RETENTION_DAYS, RETENTION_SECONDS } from '../../../lib/catalogue';
import { periodText } from '../retention';
import { PrivacyPolicy } from './privacy-policy';
import { TermsOfService } from './terms-of-service';

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [within(row).getByRole('rowheader').textContent, within(row).getByRole('cell').textContent]);

describe('the retention periods the legal pages state', () => {
  it('lists on the privacy page what the product keeps and for how long, logs as the stack keeps them', () => {
    // Act
    render(
      <MemoryRouter>
        <PrivacyPolicy />
      </MemoryRouter>,
    );
    const table = screen.getByRole('columnheader', { name: 'Kept for' }).closest('table')!;

    // Assess
    expect(rowsOf(table)).toEqual([
      ['Contact information', '3 years after your last interaction with us'],
      ['Audit results', '12 months'],
      ['Technical logs: server logs (errors, and the requests our services handled)', '1 month'],
      ['Technical logs: API access logs (address, time, route and browser of each request)', '3 months'],
      ['Technical logs: website access logs (address, time, page and browser of each request)', '3 months'],
      ['Technical logs: endpoint agent reports, agent install progress and text message delivery records', '6 months'],
      ['Marketing preferences', 'Until you unsubscribe or withdraw consent'],
      ['Legal and financial records', 'Typically 7 years, as the law requires'],
    ]);
    // The figures come from the tables the product keeps data and logs by (test/infra/log-retention.test.ts reads the stack's).
    expect([LOG_RETENTION_DAYS.functionLogs, LOG_RETENTION_DAYS.apiAccessLogs, LOG_RETENTION_DAYS.siteAccessLogs, RETENTION_SECONDS.technicalLogs / 86_400]).toEqual([30, 90, 90, 182]);
  });

  it('says the same in the terms of service', () => {
    // Act
    render(
      <MemoryRouter>
        <TermsOfService />
      </MemoryRouter>,
    );

    // Assess
    expect(screen.getByText(/We keep audit results/).textContent).toContain(
      'We keep audit results for 12 months, server logs for 1 month, access logs for 3 months and your contact details for 3 years after your last interaction with us',
    );
  });

  it.each([
    [30, '1 month'],
    [90, '3 months'],
    [182, '6 months'],
    [365, '12 months'],
    [1095, '3 years'],
  ])('writes %i days as %s', (days, text) => {
    expect(periodText(days)).toBe(text);
  });
});
