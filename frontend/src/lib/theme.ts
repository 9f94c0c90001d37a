import { useSyncExternalStore } from 'react';

/**
 * Light or dark: the visitor's own choice (kept in localStorage), else the system's
 * prefers-color-scheme, followed live until the visitor chooses. `public/theme-init.js` applies the
 * same rule before the first paint; keep the two in step (a unit test compares the key).
 */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';
const CHANGED_EVENT = 'themechange';

function storedTheme(): Theme | null {
  try {
    const value = window.localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null; // storage blocked (private mode, policies): fall back to the system's choice
  }
}

function systemTheme(): Theme {
  return window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light';
}

export function currentTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
}

export function setTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not kept across visits, but still applied now.
  }
  applyTheme(theme);
  window.dispatchEvent(new Event(CHANGED_EVENT));
}

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia?.(DARK_QUERY);
  const onSystemChange = () => {
    if (storedTheme() === null) applyTheme(systemTheme());
    onChange();
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY) return;
    applyTheme(currentTheme()); // chosen in another tab
    onChange();
  };
  media?.addEventListener('change', onSystemChange);
  window.addEventListener('storage', onStorage);
  window.addEventListener(CHANGED_EVENT, onChange);
  return () => {
    media?.removeEventListener('change', onSystemChange);
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CHANGED_EVENT, onChange);
  };
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(subscribe, currentTheme, () => 'light' as const);
  return [theme, setTheme];
}
