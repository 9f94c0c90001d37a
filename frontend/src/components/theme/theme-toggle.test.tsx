import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { THEME_STORAGE_KEY } from '../../lib/theme';
import { ThemeToggle } from './theme-toggle';

/** jsdom has no matchMedia: a stand-in whose prefers-color-scheme answer the test sets and changes. */
function stubSystemTheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', () => media);
  return {
    change(next: boolean) {
      dark = next;
      for (const listener of listeners) listener();
    },
  };
}

const toggle = () => screen.getByRole('button', { name: 'Dark mode' });
const htmlIsDark = () => document.documentElement.classList.contains('dark');

describe('the theme toggle', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.classList.remove('dark');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("follows the system's dark preference until the visitor chooses", () => {
    // Prepare
    const system = stubSystemTheme(true);

    // Act
    render(<ThemeToggle />);

    // Assess
    expect(toggle().getAttribute('aria-pressed')).toBe('true');

    // Act
    act(() => system.change(false));

    // Assess
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
    expect(htmlIsDark()).toBe(false);
  });

  it('switches to dark and back, keeping the choice in localStorage', () => {
    // Prepare
    stubSystemTheme(false);
    render(<ThemeToggle />);

    // Act
    fireEvent.click(toggle());

    // Assess
    expect(toggle().getAttribute('aria-pressed')).toBe('true');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(htmlIsDark()).toBe(true);
    expect(toggle().getAttribute('title')).toBe('Switch to light mode');

    // Act
    fireEvent.click(toggle());

    // Assess
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(htmlIsDark()).toBe(false);
  });

  it("keeps the visitor's choice when the system preference changes", () => {
    // Prepare
    const system = stubSystemTheme(false);
    localStorage.setItem(THEME_STORAGE_KEY, 'light');
    render(<ThemeToggle />);

    // Act
    act(() => system.change(true));

    // Assess
    expect(toggle().getAttribute('aria-pressed')).toBe('false');
    expect(htmlIsDark()).toBe(false);
  });
});
