import { Suspense } from 'react';
import { Link, Outlet, useMatches } from 'react-router';
import { content } from '../../config/content';
import { anchors } from '../../config/anchors';
import { paths } from '../../config/paths';
import { useAuth } from '../../features/auth/auth-provider';
import { ThemedLogo } from '../ui/logo';
import { ThemeToggle } from '../theme/theme-toggle';
import { Spinner } from '../ui/spinner';

const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400';

const navLink = `rounded-md px-2 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-900 sm:px-3 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white ${focusRing}`;

const footerLink = `rounded-sm text-sm text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline dark:text-slate-400 dark:hover:text-white ${focusRing}`;

/** A route whose handle says `fullWidth` lays out its own bands (the landing page); the rest sit in the centred column. */
export interface LayoutHandle {
  fullWidth?: boolean;
}

/** The header's Pricing link: the landing page's pricing section (#pricing is its alias, config/anchors.ts). */
export const PRICING_HREF = `${paths.home.getHref()}#${anchors.pricingAlias}`;

export function SiteLayout() {
  const fullWidth = useMatches().some((match) => (match.handle as LayoutHandle | undefined)?.fullWidth === true);
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:shadow dark:focus:bg-slate-900"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3 sm:px-6">
          <Link to={paths.home.getHref()} className={`rounded-md ${focusRing}`}>
            <ThemedLogo size="md" />
          </Link>
          <nav aria-label="Main" className="flex items-center gap-1">
            {/* An address that says where it goes (/#pricing, the landing page's pricing section), also when opened in a new tab. */}
            <Link to={PRICING_HREF} state={{ scrollToPricing: true }} className={`hidden sm:inline-flex ${navLink}`}>
              Pricing
            </Link>
            <AccountLink />
            <ThemeToggle />
          </nav>
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className={fullWidth ? 'w-full flex-1 focus:outline-none' : 'mx-auto w-full max-w-5xl flex-1 px-4 py-10 focus:outline-none sm:px-6'}
      >
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            © {new Date().getFullYear()} {content.productName}. {content.footer.tagline}
          </p>
          <nav aria-label="Legal" className="flex flex-wrap gap-x-6 gap-y-2">
            <Link to={paths.terms.getHref()} className={footerLink}>
              Terms of Service
            </Link>
            <Link to={paths.privacy.getHref()} className={footerLink}>
              Privacy Policy
            </Link>
            <Link to={paths.scanner.getHref()} className={footerLink}>
              Our scanner
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}

/** 'Client Login' for visitors, 'Dashboard' once signed in. */
function AccountLink() {
  const { status } = useAuth();
  return status === 'signed-in' ? (
    <Link to={paths.dashboard.root.getHref()} className={navLink}>
      Dashboard
    </Link>
  ) : (
    <Link to={paths.auth.root.getHref()} className={navLink}>
      Client Login
    </Link>
  );
}

/** While a page's code loads for the first time. */
function PageLoading() {
  return (
    <div role="status" className="flex justify-center py-24 text-slate-500 dark:text-slate-400">
      <Spinner className="size-8" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}
