import { useId } from 'react';
import { Tabs, useTabParam } from '../../../components/ui/tabs';
import { useOrgRole } from '../../account/api/account';
import { ApiTab } from './api-tab';
import { DestinationsTab } from './destinations-tab';
import { DomainsTab } from './domains-tab';
import { NotificationsTab } from './notifications-tab';
import { PoliciesTab } from './policies-tab';
import { ProfileTab } from './profile-tab';
import { SecurityTab } from './security-tab';
import { TeamTab } from './team-tab';

/** SPEC §2 Settings tabs, in order; `?tab=` names one (the Quick Scan's 'Add Domain' opens `?tab=domains`). */
export const SETTINGS_TABS = [
  { id: 'profile', label: 'Profile', Panel: ProfileTab },
  { id: 'team', label: 'Team', Panel: TeamTab },
  { id: 'domains', label: 'Domains', Panel: DomainsTab },
  { id: 'policies', label: 'Policies', Panel: PoliciesTab },
  { id: 'notifications', label: 'Notifications', Panel: NotificationsTab },
  { id: 'destinations', label: 'Alert destinations', Panel: DestinationsTab },
  { id: 'security', label: 'Security', Panel: SecurityTab },
  { id: 'api', label: 'API', Panel: ApiTab },
] as const;

export type SettingsTabId = (typeof SETTINGS_TABS)[number]['id'];

/** Tabs whose routes need an admin (lambdas/routes.ts `role`): a viewer does not see them. */
const ADMIN_TABS: ReadonlySet<SettingsTabId> = new Set(['destinations', 'api']);

/** The dashboard's Settings section: a tablist whose selection lives in the URL (`?tab=`). */
export function SettingsSection() {
  const role = useOrgRole();
  const tabs = role === 'viewer' ? SETTINGS_TABS.filter((tab) => !ADMIN_TABS.has(tab.id)) : SETTINGS_TABS;
  const [active, select] = useTabParam(tabs);
  const baseId = useId();

  const Panel = active.Panel;
  return (
    <section aria-labelledby={`${baseId}-title`} className="space-y-6">
      <header>
        <h1 id={`${baseId}-title`} className="text-2xl font-bold text-slate-900 dark:text-slate-100">
          Settings
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Your profile, team, domains, notifications, alert destinations, security and API tokens.</p>
      </header>
      <Tabs label="Settings" tabs={tabs} active={active.id} onSelect={select}>
        <Panel />
      </Tabs>
    </section>
  );
}
