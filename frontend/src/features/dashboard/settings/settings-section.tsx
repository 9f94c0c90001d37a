import { useId, useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ApiTab } from './api-tab';
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
  { id: 'security', label: 'Security', Panel: SecurityTab },
  { id: 'api', label: 'API', Panel: ApiTab },
] as const;

export type SettingsTabId = (typeof SETTINGS_TABS)[number]['id'];

const tabOf = (value: string | null) => SETTINGS_TABS.find((tab) => tab.id === value) ?? SETTINGS_TABS[0];

/** The dashboard's Settings section: a tablist whose selection lives in the URL (`?tab=`). */
export function SettingsSection() {
  const [searchParams, setSearchParams] = useSearchParams();
  const active = tabOf(searchParams.get('tab'));
  const baseId = useId();
  const tabRefs = useRef<Partial<Record<SettingsTabId, HTMLButtonElement | null>>>({});

  const select = (id: SettingsTabId, focus = false) => {
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', id);
        return next;
      },
      { replace: true },
    );
    if (focus) tabRefs.current[id]?.focus();
  };

  // WAI-ARIA tabs pattern: arrows move and select, Home and End jump to the ends.
  const onKeyDown = (event: KeyboardEvent) => {
    const index = SETTINGS_TABS.findIndex((tab) => tab.id === active.id);
    const last = SETTINGS_TABS.length - 1;
    const target = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(SETTINGS_TABS[target]!.id, true);
  };

  const Panel = active.Panel;
  return (
    <section aria-labelledby={`${baseId}-title`} className="space-y-6">
      <header>
        <h1 id={`${baseId}-title`} className="text-2xl font-bold text-slate-900 dark:text-slate-100">
          Settings
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Your profile, domains, notifications, security and API tokens.</p>
      </header>
      <div
        role="tablist"
        aria-label="Settings"
        onKeyDown={onKeyDown}
        className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-700"
      >
        {SETTINGS_TABS.map((tab) => {
          const selected = tab.id === active.id;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                tabRefs.current[tab.id] = element;
              }}
              type="button"
              role="tab"
              id={`${baseId}-${tab.id}-tab`}
              aria-selected={selected}
              aria-controls={selected ? `${baseId}-${tab.id}-panel` : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(tab.id)}
              className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-700 ${
                selected
                  ? 'border-blue-700 text-blue-700 dark:border-blue-400 dark:text-blue-400'
                  : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${baseId}-${active.id}-panel`} aria-labelledby={`${baseId}-${active.id}-tab`} tabIndex={0}>
        <Panel />
      </div>
    </section>
  );
}
