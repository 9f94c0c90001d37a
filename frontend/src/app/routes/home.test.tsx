import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter, type InitialEntry } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthTestProvider } from '../../features/auth/auth-provider';
import { createQueryClient } from '../../lib/react-query';
import { HomePage as HomeRoute } from './home-page';

const scrollIntoView = vi.fn<(this: Element, options?: ScrollIntoViewOptions) => void>(function (this: Element) {});

function renderHome(entry: InitialEntry) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthTestProvider value={{ status: 'signed-out' }}>
        <MemoryRouter initialEntries={[entry]}>
          <HomeRoute />
        </MemoryRouter>
      </AuthTestProvider>
    </QueryClientProvider>,
  );
}

/** Lets the lead form's chunk (import()) arrive: the page scrolls only once it has. */
async function leadFormLoaded() {
  await act(async () => {
    await vi.dynamicImportSettled();
  });
}

const scrolledTo = () => scrollIntoView.mock.contexts.map((element) => (element as Element).id);

describe('the landing page', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    scrollIntoView.mockClear();
    Element.prototype.scrollIntoView = scrollIntoView; // jsdom has no layout, so no scrollIntoView
  });
  afterEach(() => {
    vi.useRealTimers();
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });

  it('scrolls smoothly to pricing 100 ms after a navigation that asks for it', async () => {
    // Prepare
    renderHome({ pathname: '/', state: { scrollToPricing: true } });
    await leadFormLoaded();

    // Act
    await act(async () => vi.advanceTimersByTime(99));

    // Assess
    expect(scrollIntoView).not.toHaveBeenCalled();

    // Act
    await act(async () => vi.advanceTimersByTime(1));

    // Assess
    expect(scrolledTo()).toEqual(['pricing-section']);
    expect(scrollIntoView.mock.calls[0]?.[0]).toEqual({ behavior: 'smooth', block: 'start' });
    expect(document.activeElement?.id).toBe('pricing-section');
  });

  it('does not scroll when the navigation carries no such flag', async () => {
    // Prepare
    renderHome({ pathname: '/', state: { somethingElse: true } });
    await leadFormLoaded();

    // Act
    await act(async () => vi.advanceTimersByTime(1000));

    // Assess
    expect(scrollIntoView).not.toHaveBeenCalled();
  });

  it.each([
    ['#pricing', 'pricing-section'],
    ['#pricing-section', 'pricing-section'],
    ['#audit-form', 'audit-form'],
  ])('scrolls to the section that %s names once the page has rendered', async (hash, id) => {
    // Prepare
    renderHome({ pathname: '/', hash });
    await leadFormLoaded();

    // Act
    await act(async () => vi.advanceTimersByTime(0));

    // Assess
    expect(scrolledTo()).toEqual([id]);
  });

  it('scrolls to the form and to pricing from the hero buttons', async () => {
    // Prepare
    renderHome('/');
    await leadFormLoaded();

    // Act
    screen.getByRole('link', { name: 'Start Your Free Security Assessment' }).click();
    screen.getByRole('link', { name: 'View Premium Plans' }).click();

    // Assess
    expect(scrolledTo()).toEqual(['audit-form', 'pricing-section']);
  });

  it('shows every section, none of the spec\'s unmeasured claims, and the lead form in the #audit-form slot', async () => {
    // Act
    renderHome('/');
    await leadFormLoaded();

    // Assess
    for (const name of [
      'See what your free report shows',
      'Four areas, checked on every scan',
      'A dashboard for everything you have scanned',
      'Your security command centre',
      'Why businesses choose Rampart',
      'Premium plans',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name }), name).toBeTruthy();
    }
    for (const name of ['Vulnerability scan', 'Network security', 'Password breaches', 'Infrastructure map', 'Free discovery', 'Complete analysis', 'Ongoing protection']) {
      expect(screen.getByRole('heading', { level: 3, name: new RegExp(name) }), name).toBeTruthy();
    }
    const text = document.body.textContent ?? '';
    // DECISIONS "Marketing figures are measured": the spec's figures are nobody's measurement (landing-figures.test.tsx holds the ones shown).
    for (const claim of ['10,000+', '50+', '99.8%', '3.2', '24/7', '45 s', '15+']) expect(text, claim).not.toContain(claim);
    const slot = document.getElementById('audit-form');
    expect(slot).not.toBeNull();
    expect(within(slot!).getByRole('heading', { name: 'Get Your Free Security Report' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Client Login' }).getAttribute('href')).toBe('/auth');
  });

  it('shows a sample report whose numbers the scoring formula gives: 1 critical and 4 others → 60, D, medium', async () => {
    // Act
    renderHome('/');
    await leadFormLoaded();

    // Assess
    expect(screen.getByTestId('sample-score').textContent).toBe('60/100');
    expect(screen.getByTestId('sample-grade').textContent).toBe('D');
    expect(screen.getByTestId('sample-risk').textContent).toBe('medium risk');
    expect(screen.getByText(/A sample report for an example site, not a real scan/)).toBeTruthy();
    expect(screen.getByText('Vulnerabilities').nextSibling?.textContent).toBe('5');
    expect(screen.getByText('Critical').nextSibling?.textContent).toBe('1');
  });
});
