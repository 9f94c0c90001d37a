import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/api-stub';
import { historyEntry } from '../history/audit-fixtures';
import { SummaryCards } from './overview-section';

const cards = () => Object.fromEntries([...document.querySelectorAll('dl > div')].map((card) => [card.querySelector('dt')?.textContent, card.querySelector('dd')?.textContent]));

describe("the overview's summary cards", () => {
  it("says '· partial' beside the grade of a partial latest report, as the results page does", () => {
    renderWithProviders(<SummaryCards latest={historyEntry({ id: 'a1', riskScore: 72, partial: true })} />);
    expect(cards()).toMatchObject({ 'Security Score': '72', Grade: 'C · partial' });
    expect(screen.getByTestId('grade-partial').textContent).toBe(' · partial');
  });

  it('shows the grade alone for a full report, and no grade without a score', () => {
    const { unmount } = renderWithProviders(<SummaryCards latest={historyEntry({ id: 'a2', riskScore: 85, partial: false })} />);
    expect(cards()).toMatchObject({ Grade: 'B' });
    expect(screen.queryByTestId('grade-partial')).toBeNull();
    unmount();

    renderWithProviders(<SummaryCards latest={historyEntry({ id: 'a3', riskScore: null, partial: true })} />);
    expect(cards()).toMatchObject({ Grade: '—' });
    expect(screen.queryByTestId('grade-partial')).toBeNull();
  });
});
