import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormMessage } from '../../../components/ui/text-field';
import type { NotificationPreferences } from '../../../lib/contracts';
import { accountKeys, useNotificationPreferences, useUpdateNotificationPreferences } from '../../account/api/account';
import { LoadingState, SettingsPanel } from './panel';

type Flag = keyof NotificationPreferences;

/** SPEC §3 Notification preferences, in the spec's order; they decide which emails issue 8's alerts send. */
const TOGGLES: readonly { flag: Flag; label: string; description: string }[] = [
  { flag: 'emailAlerts', label: 'Email alerts', description: 'An email when monitoring finds a change on one of your domains.' },
  { flag: 'scanCompletions', label: 'Scan completions', description: 'An email when a scan you started has finished.' },
  { flag: 'securityUpdates', label: 'Security updates', description: 'Important security advisories and new checks.' },
  { flag: 'marketingEmails', label: 'Marketing emails', description: 'Offers and news about our plans.' },
];

export const SAVE_FAILED = 'Failed to save your notification preferences. Please try again.';

/** Settings → Notifications: each switch saves at once (all four flags, as PUT replaces), undone if the save fails. */
export function NotificationsTab() {
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | undefined>();

  if (preferences.isPending) return <LoadingState label="Loading your notification preferences..." />;
  if (preferences.isError) return <FormMessage tone="error">Failed to load your notification preferences. Please try again.</FormMessage>;
  const current = preferences.data;

  const toggle = (flag: Flag) => {
    const next: NotificationPreferences = { ...current, [flag]: !current[flag] };
    setError(undefined);
    void queryClient.cancelQueries({ queryKey: accountKeys.notifications() });
    queryClient.setQueryData(accountKeys.notifications(), next);
    update.mutate(next, {
      onError: () => {
        queryClient.setQueryData(accountKeys.notifications(), current);
        setError(SAVE_FAILED);
      },
    });
  };

  return (
    <SettingsPanel title="Notification Preferences" description="Choose which emails we send you. Changes are saved as you make them.">
      <ul className="divide-y divide-slate-200 dark:divide-slate-700">
        {TOGGLES.map(({ flag, label, description }) => (
          // One save at a time: each PUT carries all four flags, so two in flight could undo each other.
          <Toggle key={flag} label={label} description={description} on={current[flag]} disabled={update.isPending} onToggle={() => toggle(flag)} />
        ))}
      </ul>
      {error && (
        <div className="mt-4">
          <FormMessage tone="error">{error}</FormMessage>
        </div>
      )}
    </SettingsPanel>
  );
}

function Toggle({
  label,
  description,
  on,
  disabled,
  onToggle,
}: {
  label: string;
  description: string;
  on: boolean;
  disabled: boolean;
  onToggle: () => void;
}) {
  const labelId = useId();
  const descriptionId = useId();
  return (
    <li className="flex items-center justify-between gap-6 py-4 first:pt-0 last:pb-0">
      <div>
        <p id={labelId} className="text-sm font-semibold text-slate-900 dark:text-white">
          {label}
        </p>
        <p id={descriptionId} className="text-sm text-slate-600 dark:text-slate-400">
          {description}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby={labelId}
        aria-describedby={descriptionId}
        disabled={disabled}
        onClick={onToggle}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-wait ${
          on ? 'bg-blue-700 dark:bg-blue-500' : 'bg-slate-300 dark:bg-slate-600'
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-5' : 'translate-x-0.5'}`}
        />
      </button>
    </li>
  );
}
