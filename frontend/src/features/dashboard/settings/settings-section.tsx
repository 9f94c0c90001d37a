import { useId } from 'react';
import { Tabs, useTabParam } from '../../../components/ui/tabs';
import { ApiTab } from './api-tab';
import { DestinationsTab } from './destinations-tab';
import { DomainsTab } from './domains-tab';
import { NotificationsTab } from './notifications-tab';
import { PoliciesTab } from './policies-tab';
import { ProfileTab } from './profile-tab';
import { SecurityTab } from './security-tab';

/** SPEC §2 Settings tabs, in order; `?tab=` names one (the Quick Scan's 'Add Domain' opens `?tab=domains`). */
export const SETTINGS_TABS = [
  { id: 'profile', label: 'Profile', Panel: ProfileTab },
  { id: 'domains', label: 'Domains', Panel: DomainsTab },
  { id: 'policies', label: 'Policies', Panel: PoliciesTab },
  { id: 'notifications', label: 'Notifications', Panel: NotificationsTab },
  { id: 'destinations', label: 'Alert destinations', Panel: DestinationsTab },
  { id: 'security', label: 'Security', Panel: SecurityTab },
  { id: 'api', label: 'API', Panel: ApiTab },
] as const;

export type SettingsTabId = (typeof SETTINGS_TABS)[number]['id'];

/** The dashboard's Settings section: a tablist whose selection lives in the URL (`?tab=`). */
export function SettingsSection() {
  const [active, select] = useTabParam(SETTINGS_TABS);
  const baseId = useId();

  const Panel = active.Panel;
  return (
    <section aria-labelledby={`${baseId}-title`} className="space-y-6">
      <header>
        <h1 id={`${baseId}-title`} className="text-2xl font-bold text-slate-900 dark:text-slate-100">
          Settings
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Your profile, domains, notifications, alert destinations, security and API tokens.</p>
      </header>
      <Tabs label="Settings" tabs={SETTINGS_TABS} active={active.id} onSelect={select}>
        <Panel />
      </Tabs>
    </section>
  );
}
