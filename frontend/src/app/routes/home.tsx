import { lazy } from 'react';
import type { LayoutHandle } from '../../components/layout/site-layout';
import { paths } from '../../config/paths';

export const handle: LayoutHandle = { fullWidth: true };

/**
 * The landing page's sections are their own chunk (home-page.tsx), so a page opened elsewhere — the
 * results page above all, issue 29 item 15 — does not fetch them first. Opened at the landing page,
 * the chunk and the lead form's start loading at once, side by side, as this module runs.
 */
let pageModule: Promise<typeof import('./home-page')> | undefined;
const loadPage = () => (pageModule ??= import('./home-page'));
if (typeof window !== 'undefined' && window.location.pathname === paths.home.getHref()) {
  void loadPage();
  void import('../../features/lead-form');
}

/** `/`: SiteLayout's Suspense shows its loading status until the chunk is in. */
export const HomeRoute = lazy(() => loadPage().then((module) => ({ default: module.HomePage })));
