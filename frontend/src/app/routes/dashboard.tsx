import { Navigate, useLocation, useParams } from 'react-router';
import { AgentsSection } from '../../features/dashboard/agents/agents-section';
import { BadgeSection } from '../../features/dashboard/badge/badge-section';
import { EssentialEightSection } from '../../features/dashboard/essential-eight/essential-eight-section';
import { HistorySection } from '../../features/dashboard/history/history-section';
import { DashboardLayout } from '../../features/dashboard/layout/dashboard-layout';
import { RequireAuth } from '../../features/dashboard/layout/require-auth';
import { OverviewSection } from '../../features/dashboard/overview/overview-section';
import { ScansSection } from '../../features/dashboard/scans/scans-section';
import { formerSectionSlugs, sectionHref, sectionOf, type DashboardSlug } from '../../features/dashboard/sections';
import { SettingsSection } from '../../features/dashboard/settings/settings-section';
import { SubscriptionSection } from '../../features/dashboard/subscription/subscription-section';
import { SupportSection } from '../../features/dashboard/support/support-section';
import { AuditResults } from '../../features/audits/components/audit-results';
import { auditIdSchema } from '../../lib/contracts';
import { NotFoundRoute } from './not-found';

const sectionComponents: Record<DashboardSlug, () => React.JSX.Element> = {
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
  if (!auditId || !auditIdSchema.safeParse(auditId).success) return <NotFoundRoute />;
  return <AuditResults key={auditId} auditId={auditId} mode="dashboard" />;
}
