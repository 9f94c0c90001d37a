import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/api-stub';
import { AuthTestProvider, type AuthStatus } from '../../auth/auth-provider';
import { ReportWayOn, SCAN_ANOTHER_SITE } from './report-way-on';

const show = (status: AuthStatus) =>
  renderWithProviders(
    <AuthTestProvider value={{ status }}>
      <ReportWayOn />
    </AuthTestProvider>,
    { route: '/results/0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d' },
  );

const links = () => screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);

describe("a report's way on", () => {
  it('sends a signed-in viewer back to the dashboard or to a new assessment', () => {
    show('signed-in');
    expect(links()).toEqual([
      ['Back to Dashboard', '/dashboard'],
      ['Start New Assessment', '/'],
    ]);
  });

  it.each(['signed-out', 'loading', 'unavailable'] as const)("offers a %s visitor 'Scan another site' (home), never 'Back to Dashboard'", (status) => {
    show(status);
    expect(links()).toEqual([[SCAN_ANOTHER_SITE, '/']]);
    expect(screen.queryByText('Back to Dashboard')).toBeNull();
  });
});
