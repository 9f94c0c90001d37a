import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { anchors, SCROLL_TO_PRICING_DELAY_MS, type LandingNavigationState } from '../../config/anchors';
import { paths } from '../../config/paths';
import { content, promises } from '../../config/content';
import { scanFigures } from '../../lib/catalogue';
import { usePlatformStats } from '../../lib/platform-stats';
import { CommandCentre } from '../../features/landing/components/command-centre';
import { DashboardPreview } from '../../features/landing/components/dashboard-preview';
import { Hero } from '../../features/landing/components/hero';
import { ReportPreview } from '../../features/landing/components/report-preview';
import { ScanAreas } from '../../features/landing/components/scan-areas';
import { WhyChooseUs } from '../../features/landing/components/why-choose-us';
import { PricingSection } from '../../features/pricing/components/pricing-section';
import { scrollToSection } from '../../lib/scroll';

/**
 * The lead form and the schemas it validates with (zod) are their own chunk, so the first bundle
 * stays under its budget. Opened at the landing page, it starts loading with this module; on any
 * other page (the results page above all: issue 29 item 15) not before the landing page is shown.
 * Until the form is on screen the sections below it are not where they will stay, so scrolling
 * waits for it (see useFormShown).
 */
let leadFormModule: Promise<typeof import('../../features/lead-form')> | undefined;
const loadLeadForm = () => (leadFormModule ??= import('../../features/lead-form'));
if (typeof window !== 'undefined' && window.location.pathname === paths.home.getHref()) void loadLeadForm();
const LeadForm = lazy(() => loadLeadForm().then((module) => ({ default: module.LeadForm })));

/** Anchors the page answers to when opened with them (#pricing is the spec's alias of #pricing-section). */
const hashTargets: Record<string, string> = {
  [`#${anchors.auditForm}`]: anchors.auditForm,
  [`#${anchors.pricing}`]: anchors.pricing,
  [`#${anchors.pricingAlias}`]: anchors.pricing,
};

/** Renders nothing; its effect runs once the Suspense boundary around it shows its content. */
function Shown({ onShown }: { onShown: () => void }) {
  useEffect(onShown, [onShown]);
  return null;
}

/**
 * Scrolls to pricing when the navigation asked for it (SPEC §2: state flag, smooth, after 100 ms),
 * and to an anchor in the address: the sections exist only once React has rendered, after the
 * browser's own attempt to jump there. The hero's buttons go through `scrollTo`, which holds a
 * request made before the form is shown until it is.
 */
function useLandingScroll(formShown: boolean) {
  const location = useLocation();
  const state = location.state as LandingNavigationState | null;
  const target = state?.scrollToPricing ? anchors.pricing : hashTargets[location.hash];
  const delay = state?.scrollToPricing ? SCROLL_TO_PRICING_DELAY_MS : 0;
  const pending = useRef<string | null>(null);

  useEffect(() => {
    if (!target || !formShown) return;
    const timer = setTimeout(() => scrollToSection(target), delay);
    return () => clearTimeout(timer);
    // location.key: the same request made again (the header's Pricing link clicked twice) scrolls again.
  }, [target, delay, location.key, formShown]);

  useEffect(() => {
    if (!formShown || !pending.current) return;
    scrollToSection(pending.current);
    pending.current = null;
  }, [formShown]);

  return (id: string) => {
    if (formShown) scrollToSection(id);
    else pending.current = id;
  };
}

/** The landing page (home.tsx loads it as its own chunk, so other pages' first load goes without it). */
export function HomePage() {
  const [formShown, setFormShown] = useState(false);
  const onFormShown = useCallback(() => setFormShown(true), []);
  const scrollTo = useLandingScroll(formShown);
  const stats = usePlatformStats();
  return (
    <>
      <title>{`${content.productName} — website security assessments`}</title>
      <Hero onScrollTo={scrollTo} />
      <ReportPreview />
      <ScanAreas />
      {/* The lead form (features/lead-form) fills this band; its anchor is the hero's first call to action. */}
      <div id={anchors.auditForm} tabIndex={-1} className="scroll-mt-16 bg-white focus:outline-none dark:bg-slate-900">
        <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-[1fr_1.4fr] lg:items-start">
          <div className="lg:sticky lg:top-24">
            <p className="text-sm font-semibold tracking-wider text-blue-700 uppercase dark:text-blue-400">{content.leadForm.eyebrow}</p>
            <p className="mt-2 text-3xl font-bold tracking-tight text-slate-900 dark:text-white">{content.leadForm.lead}</p>
            <dl className="mt-8 grid grid-cols-2 gap-4">
              {[{ id: 'report-time', ...promises.reportTime }, ...scanFigures(stats.data)].map((figure) => (
                <div key={figure.id} data-figure={figure.id} className="flex flex-col-reverse rounded-xl bg-slate-50 p-4 dark:bg-slate-800">
                  <dt className="text-sm text-slate-600 dark:text-slate-300">{figure.label}</dt>
                  <dd className="text-xl font-bold text-slate-900 dark:text-white">{figure.value}</dd>
                </div>
              ))}
            </dl>
          </div>
          <Suspense fallback={<LeadFormLoading />}>
            <LeadForm />
            <Shown onShown={onFormShown} />
          </Suspense>
        </div>
      </div>
      <DashboardPreview />
      <CommandCentre />
      <WhyChooseUs />
      <PricingSection />
    </>
  );
}

function LeadFormLoading() {
  return (
    <div role="status" className="flex min-h-[36rem] items-center justify-center rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <span className="text-sm text-slate-500 dark:text-slate-400">Loading the form…</span>
    </div>
  );
}
