import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { content } from '../../config/content';
import { Logo, type LogoSize, type LogoVariant, ThemedLogo } from './logo';

describe('Logo (SPEC §9: sizes sm, md, lg, xl; variants light, dark, gradient)', () => {
  it.each<[LogoSize, string, string]>([
    ['sm', 'size-5', 'text-sm'],
    ['md', 'size-7', 'text-lg'],
    ['lg', 'size-10', 'text-2xl'],
    ['xl', 'size-14', 'text-4xl'],
  ])('scales the mark and the name together at %s', (size, mark, text) => {
    const { container } = render(<Logo size={size} />);
    const logo = container.firstElementChild!;
    expect(logo.getAttribute('data-size')).toBe(size);
    expect(logo.className).toContain(text);
    expect(logo.querySelector('svg')!.getAttribute('class')).toContain(mark);
  });

  it.each<[LogoVariant, string, string]>([
    ['light', '#1d4ed8', 'text-slate-900'],
    ['dark', '#ffffff', 'text-white'],
  ])('colours the %s variant for its background', (variant, shield, text) => {
    const { container } = render(<Logo variant={variant} />);
    expect(container.querySelector('path')!.getAttribute('fill')).toBe(shield);
    expect(container.querySelector('span > span')!.className).toBe(text);
  });

  it('fills the gradient variant from its own gradient, one per logo on a page', () => {
    const { container } = render(
      <>
        <Logo variant="gradient" />
        <Logo variant="gradient" />
      </>,
    );
    const gradients = [...container.querySelectorAll('linearGradient')].map((g) => g.id);
    expect(new Set(gradients).size).toBe(2);
    const fills = [...container.querySelectorAll('svg > path:first-of-type')].map((p) => p.getAttribute('fill'));
    expect(fills).toEqual(gradients.map((id) => `url(#${id})`));
  });

  it('names the product as its text and hides the mark from assistive technology', () => {
    const { container } = render(<Logo />);
    expect(container.textContent).toBe(content.productName);
    expect(container.querySelector('svg')!.getAttribute('aria-hidden')).toBe('true');
  });

  it('follows the theme: the light variant, hidden in dark mode, and the dark one shown there', () => {
    const { container } = render(<ThemedLogo size="lg" />);
    const [light, dark] = [...container.children];
    expect(light!.firstElementChild!.getAttribute('data-variant')).toBe('light');
    expect(light!.className.split(' ')).toEqual(['inline-flex', 'dark:hidden']);
    expect(dark!.firstElementChild!.getAttribute('data-variant')).toBe('dark');
    // `hidden` on its own element: on the logo it would compete with the logo's `inline-flex`.
    expect(dark!.className.split(' ')).toEqual(['hidden', 'dark:inline-flex']);
  });
});
