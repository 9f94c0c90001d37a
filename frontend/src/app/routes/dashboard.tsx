import { lazy, type ComponentType } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { DashboardLayout } from '../../features/dashboard/layout/dashboard-layout';
import { RequireAuth } from '../../features/dashboard/layout/require-auth';
import { formerSectionSlugs, sectionHref, sectionOf, type DashboardSlug } from '../../features/dashboard/sections';
import { AuditResults } from '../../features/audits/components/audit-results';
import { isAuditId } from '../../lib/report-contract';
import { NotFoundRoute } from './not-found';

/*
 * Each section is its own chunk (issue 29 item 15: the dashboard split by section), loaded when it
 * is opened; DashboardLayout's Suspense shows an accessible 'Loading…' status meanwhile. The chart
 * library (recharts) goes with the overview, the settings' forms with settings, and so on.
 */
const section = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => lazy(() => load().then((module) => ({ default: module[name] })));
const AgentsSection = section(() => import('../../features/dashboard/agents/agents-section'), 'AgentsSection');
const BadgeSection = section(() => import('../../features/dashboard/badge/badge-section'), 'BadgeSection');
const EssentialEightSection = section(() => import('../../features/dashboard/essential-eight/essential-eight-section'), 'EssentialEightSection');
const HistorySection = section(() => import('../../features/dashboard/history/history-section'), 'HistorySection');
const OverviewSection = section(() => import('../../features/dashboard/overview/overview-section'), 'OverviewSection');
const ScansSection = section(() => import('../../features/dashboard/scans/scans-section'), 'ScansSection');
const SettingsSection = section(() => import('../../features/dashboard/settings/settings-section'), 'SettingsSection');
const SubscriptionSection = section(() => import('../../features/dashboard/subscription/subscription-section'), 'SubscriptionSection');
const SupportSection = section(() => import('../../features/dashboard/support/support-section'), 'SupportSection');

const sectionComponents: Record<DashboardSlug, ComponentType> = {
  '': OverviewSection,
  audits: HistorySection,
  agents: AgentsSection,
  scans: ScansSection,
  subscription: SubscriptionSection,
  badge: BadgeSection,
  'essential-eight': EssentialEightSection,
  settings: SettingsSection,
  support: SupportSection,
};

/** `/dashboard` and `/dashboard/{section}`: the guard, the shell, then the section. */
export function DashboardRoute() {
  return (
    <RequireAuth>
      <DashboardLayout />
    </RequireAuth>
  );
}

export function DashboardSectionRoute() {
  const { section } = useParams();
  const { pathname, search } = useLocation();
  const renamed = section === undefined ? undefined : formerSectionSlugs.get(section);
  if (renamed !== undefined) return <Navigate to={`${sectionHref(renamed)}${search}`} replace />;
  const slug = sectionOf(section, pathname);
  if (slug === undefined) return <NotFoundRoute />;
  const Section = sectionComponents[slug];
  return <Section />;
}

/** `/dashboard/audits/{auditId}`: the report inside the dashboard shell. */
export function DashboardAuditRoute() {
  const { auditId } = useParams();
  if (!auditId || !isAuditId(auditId)) return <NotFoundRoute />;
  return <AuditResults key={auditId} auditId={auditId} mode="dashboard" />;
}
