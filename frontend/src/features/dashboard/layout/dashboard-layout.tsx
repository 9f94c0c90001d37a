import { Suspense, useId, useState } from 'react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { ThemeToggle } from '../../../components/theme/theme-toggle';
import { ThemedLogo } from '../../../components/ui/logo';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useMe, useOrgRole } from '../../account/api/account';
import { setActingOrganisation } from '../../../lib/api-client';
import { useAuth } from '../../auth/auth-provider';
import { dashboardSections, sectionHref } from '../sections';
import { OrganisationSwitcher, ReadOnlyNotice } from './organisation-switcher';
import { planName, planStatusLabel, usageTone } from './plan';

const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400';

const barTones = { ok: 'bg-blue-600', warn: 'bg-yellow-500', high: 'bg-red-600' } as const;

function PlanBox() {
  const me = useMe();
  if (!me.data) return <div className="h-20 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />;
  const { subscription } = me.data;
  const tone = usageTone(subscription.scansUsed, subscription.scansLimit);
  const percent = Math.min(100, Math.round((subscription.scansUsed / Math.max(1, subscription.scansLimit)) * 100));
  return (
    <div className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
      <p className="font-semibold text-slate-900 dark:text-slate-100">
        {planName(subscription)} <span className="font-normal text-slate-500 dark:text-slate-400">· {planStatusLabel(subscription)}</span>
      </p>
      <div className="mt-2 h-2 rounded-full bg-slate-200 dark:bg-slate-700" aria-hidden="true">
        <div className={`h-2 rounded-full ${barTones[tone]}`} style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        {subscription.scansUsed} / {subscription.scansLimit} scans used
      </p>
    </div>
  );
}

/** SPEC §2 "Dashboard shell": sidebar, theme toggle, the user's name and company, logout, plan box. */
export function DashboardLayout() {
  const { signOut, user } = useAuth();
  const me = useMe();
  const role = useOrgRole();
  const navigate = useNavigate();
  const profile = me.data?.user;
  const name = profile ? `${profile.firstName} ${profile.lastName}`.trim() : '';
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();

  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900 md:flex-row dark:bg-slate-950 dark:text-slate-100">
      <a href="#dashboard-main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2">
        Skip to content
      </a>
      {/* The aside stretches to the page's full height (its background with it); only its inner column sticks. */}
      <aside
        data-testid="dashboard-sidebar"
        className="border-b border-slate-200 bg-white md:w-64 md:shrink-0 md:self-stretch md:border-r md:border-b-0 dark:border-slate-800 dark:bg-slate-900"
      >
        <div data-testid="dashboard-sidebar-column" className="flex flex-col gap-4 p-4 md:sticky md:top-0 md:max-h-screen md:min-h-screen md:overflow-y-auto">
        <div className="flex items-center justify-between gap-2">
          <Link to={paths.home.getHref()} className={`rounded-md ${focusRing}`}>
            <ThemedLogo size="md" />
          </Link>
          <div className="flex items-center gap-2">
            <ThemeToggle />
            <button
              type="button"
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
              className={`rounded-md px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-100 md:hidden dark:text-slate-300 dark:ring-slate-600 dark:hover:bg-slate-800 ${focusRing}`}
            >
              {menuOpen ? 'Close menu' : 'Menu'}
            </button>
          </div>
        </div>
        {/* On a phone the menu and the plan box fold behind 'Menu', so the page's content is in the first screen. */}
        <div id={menuId} data-testid="dashboard-menu" data-open={menuOpen} className={`${menuOpen ? 'flex' : 'hidden'} flex-1 flex-col gap-4 md:flex`}>
        {profile?.isDemo && (
          <p className="rounded-md bg-amber-100 px-2 py-1 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100">
            Demo account — sample data
          </p>
        )}
        <OrganisationSwitcher />
        <nav aria-label="Dashboard" className="flex flex-row flex-wrap gap-1 md:flex-col">
          {dashboardSections.map((section) => (
            <NavLink
              key={section.slug}
              to={sectionHref(section.slug)}
              end
              onClick={() => setMenuOpen(false)}
              className={({ isActive }) =>
                `rounded-md px-3 py-2 text-sm font-semibold ${focusRing} ${
                  isActive
                    ? 'bg-blue-50 text-blue-800 dark:bg-blue-950 dark:text-blue-200'
                    : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
                }`
              }
            >
              {section.label}
            </NavLink>
          ))}
        </nav>
        <div className="mt-auto space-y-3">
          <PlanBox />
          <div className="text-sm">
            <p className="font-semibold text-slate-900 dark:text-slate-100" data-testid="user-name">
              {name || user?.email}
            </p>
            {profile?.company && <p className="text-slate-600 dark:text-slate-400">{profile.company}</p>}
          </div>
          <button
            type="button"
            onClick={() =>
              void signOut().then(() => {
                setActingOrganisation(undefined);
                return navigate(paths.home.getHref(), { replace: true });
              })
            }
            className={`w-full rounded-md px-3 py-2 text-left text-sm font-semibold text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800 ${focusRing}`}
          >
            Logout
          </button>
        </div>
        </div>
        </div>
      </aside>
      <main id="dashboard-main" tabIndex={-1} className="min-w-0 flex-1 p-4 focus:outline-none sm:p-8">
        {role === 'viewer' && (
          <div className="mb-4">
            <ReadOnlyNotice />
          </div>
        )}
        <Suspense
          fallback={
            <div role="status" className="flex justify-center py-24 text-slate-500">
              <Spinner className="size-8" />
              <span className="sr-only">Loading…</span>
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
