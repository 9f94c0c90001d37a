import { useId } from 'react';
import { content } from '../../config/content';

/** SPEC §9: the logo's sizes and variants. */
export type LogoSize = 'sm' | 'md' | 'lg' | 'xl';
/** `light`: for light backgrounds; `dark`: for dark backgrounds; `gradient`: the brand gradient, on either. */
export type LogoVariant = 'light' | 'dark' | 'gradient';

const sizes: Record<LogoSize, { mark: string; text: string }> = {
  sm: { mark: 'size-5', text: 'text-sm' },
  md: { mark: 'size-7', text: 'text-lg' },
  lg: { mark: 'size-10', text: 'text-2xl' },
  xl: { mark: 'size-14', text: 'text-4xl' },
};

const variants: Record<LogoVariant, { shield: string; tick: string; text: string }> = {
  light: { shield: '#1d4ed8', tick: '#ffffff', text: 'text-slate-900' },
  dark: { shield: '#ffffff', tick: '#1d4ed8', text: 'text-white' },
  gradient: { shield: '', tick: '#ffffff', text: 'bg-gradient-to-r from-blue-600 to-indigo-600 bg-clip-text text-transparent' },
};

/**
 * The shield mark (the favicon's) and the product name. The name is the accessible text; the mark is
 * decoration. Sizes scale the mark and the name together.
 */
export function Logo({ size = 'md', variant = 'light', className = '' }: { size?: LogoSize; variant?: LogoVariant; className?: string }) {
  const gradientId = `logo-gradient-${useId().replace(/:/g, '')}`;
  const colours = variants[variant];
  const shieldFill = variant === 'gradient' ? `url(#${gradientId})` : colours.shield;
  return (
    <span className={`inline-flex items-center gap-2 font-bold tracking-tight ${sizes[size].text} ${className}`} data-size={size} data-variant={variant}>
      <svg viewBox="0 0 32 32" className={`${sizes[size].mark} shrink-0`} aria-hidden="true" focusable="false">
        {variant === 'gradient' && (
          <defs>
            <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
              <stop offset="0" stopColor="#2563eb" />
              <stop offset="1" stopColor="#4f46e5" />
            </linearGradient>
          </defs>
        )}
        <path fill={shieldFill} d="M16 2 4 6.5v8.3C4 22.6 9.1 28.4 16 30c6.9-1.6 12-7.4 12-15.2V6.5L16 2Z" />
        <path fill={colours.tick} d="m14.2 20.6-4.6-4.6 1.9-1.9 2.7 2.7 6.3-6.3 1.9 1.9-8.2 8.2Z" />
      </svg>
      <span className={colours.text}>{content.productName}</span>
    </span>
  );
}

/** The logo that follows the site's theme: `light` on the light theme, `dark` on the dark one. */
export function ThemedLogo({ size = 'md' }: { size?: LogoSize }) {
  // Shown and hidden by wrappers: on the logo itself `hidden` would compete with its own `inline-flex`.
  return (
    <>
      <span className="inline-flex dark:hidden">
        <Logo size={size} variant="light" />
      </span>
      <span className="hidden dark:inline-flex">
        <Logo size={size} variant="dark" />
      </span>
    </>
  );
}
