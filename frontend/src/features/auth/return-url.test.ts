import { describe, expect, it } from 'vitest';
import { safeReturnUrl } from './return-url';

describe('safeReturnUrl', () => {
  it.each([
    ['/dashboard/history', '/dashboard/history'],
    ['/pricing?plan=monitor-lite#x', '/pricing?plan=monitor-lite#x'],
  ])('keeps the site path %s', (input, expected) => expect(safeReturnUrl(input)).toBe(expected));

  it.each([null, undefined, '', 'https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'dashboard'])(
    'sends %s to the dashboard',
    (input) => expect(safeReturnUrl(input)).toBe('/dashboard'),
  );
});
