import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { actingOrganisation, setActingOrganisation } from '../../../lib/api-client';
import { ROLE_LABELS } from '../../../lib/contracts';
import { useMyOrganisations } from '../../account/api/team';

/**
 * Teams (issue 22 item 2): which organisation the dashboard acts on, for a person who belongs to
 * more than one (their own and the ones they were invited to). Switching refetches everything.
 */
export function OrganisationSwitcher() {
  const organisations = useMyOrganisations();
  const queryClient = useQueryClient();
  const id = useId();
  const list = organisations.data ?? [];
  const stored = actingOrganisation();
  const known = stored !== undefined && list.some((organisation) => organisation.id === stored);

  useEffect(() => {
    // A stored organisation the person no longer belongs to (removed, left): back to their own.
    if (organisations.data && stored !== undefined && !known) {
      setActingOrganisation(undefined);
      void queryClient.resetQueries();
    }
  }, [organisations.data, stored, known, queryClient]);

  if (list.length < 2) return null;
  const own = list.find((organisation) => organisation.own);
  const selected = known ? stored : own?.id;

  return (
    <div className="text-sm">
      <label htmlFor={id} className="block font-semibold text-slate-800 dark:text-slate-200">
        Organisation
      </label>
      <select
        id={id}
        value={selected}
        onChange={(event) => {
          setActingOrganisation(event.target.value === own?.id ? undefined : event.target.value);
          void queryClient.resetQueries();
        }}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-slate-900 focus:outline-2 focus:outline-blue-700 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100"
      >
        {list.map((organisation) => (
          <option key={organisation.id} value={organisation.id}>
            {organisation.own ? `${organisation.name} (yours)` : `${organisation.name} (${ROLE_LABELS[organisation.role].toLowerCase()})`}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The viewer's dashboard is read-only: said once, at the top (the server refuses a viewer's writes anyway). */
export function ReadOnlyNotice() {
  return (
    <p role="note" className="rounded-md bg-sky-100 px-3 py-2 text-sm font-semibold text-sky-900 dark:bg-sky-950 dark:text-sky-100">
      View only: you are a viewer in this organisation. Its admins and owner make changes.
    </p>
  );
}
