/**
 * SPEC §2 "Dashboard shell": the sidebar's sections, in order; `slug` is the path segment after
 * /dashboard, named as the SPEC's route table names it (`audits` is the Audit History).
 */
export const dashboardSections = [
  { slug: '', label: 'Dashboard' },
  { slug: 'audits', label: 'Audit History' },
  { slug: 'agents', label: 'Local Agents' },
  { slug: 'scans', label: 'Scans' },
  { slug: 'subscription', label: 'Subscription' },
  { slug: 'badge', label: 'Security Badge' },
  { slug: 'essential-eight', label: 'Essential Eight' },
  { slug: 'settings', label: 'Settings' },
  { slug: 'support', label: 'Support' },
] as const;

export type DashboardSlug = (typeof dashboardSections)[number]['slug'];

export const sectionHref = (slug: DashboardSlug): string => (slug === '' ? '/dashboard' : `/dashboard/${slug}`);

/** Section paths of earlier releases, kept so old links and bookmarks land on the section that replaced them. */
export const formerSectionSlugs: ReadonlyMap<string, DashboardSlug> = new Map([['history', 'audits']]);

/** SPEC: "the section is taken from the section parameter, or else the last path segment". */
export function sectionOf(param: string | undefined, pathname: string): DashboardSlug | undefined {
  const candidate = param ?? pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  const slug = candidate === 'dashboard' ? '' : candidate;
  return dashboardSections.find((section) => section.slug === slug)?.slug;
}
