import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import {
  POLICY_MAX_DAYS,
  POLICY_REASON_LENGTH,
  policyInputSchemaAt,
  policyMessages,
  type PolicyAction,
  type SecurityPolicyView,
} from '../../../lib/contracts';
import { usePutPolicy } from '../../account/api/policies';

const DAY_MS = 86_400_000;

/** yyyy-mm-dd of a local day, as a date input reads and writes it. */
const inputDay = (date: Date): string =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** A chosen day means "until the end of that day" where the customer is. */
export const endOfDay = (day: string): string => new Date(`${day}T23:59:59.999`).toISOString();

const fieldClass = (invalid: boolean) =>
  `mt-1 block w-full rounded-md border bg-white px-3 py-2 text-slate-900 focus:outline-2 focus:outline-blue-700 dark:bg-slate-950 dark:text-slate-100 ${
    invalid ? 'border-red-600 dark:border-red-500' : 'border-slate-300 dark:border-slate-600'
  }`;

type Fields = Partial<Record<'reason' | 'expiresAt', string>>;

/**
 * The form of a custom security policy (DECISIONS "Plan features") in the shared Dialog: a reason,
 * and for a mute an optional last day, after which the finding alerts again. Validated with the
 * API's own contract before it is sent; the API's answer is shown when it refuses.
 */
export function PolicyDialog({
  domain,
  finding,
  action,
  current,
  onClose,
}: {
  domain: string;
  finding: { id: string; title: string };
  action: PolicyAction;
  /** The finding's policy now: its reason (and day) are the starting point when the action is the same. */
  current?: SecurityPolicyView;
  onClose: () => void;
}) {
  const put = usePutPolicy();
  const same = current?.action === action ? current : undefined;
  const [reason, setReason] = useState(same?.reason ?? '');
  const [day, setDay] = useState(same?.expiresAt && Date.parse(same.expiresAt) > Date.now() ? inputDay(new Date(same.expiresAt)) : '');
  const [fields, setFields] = useState<Fields>({});
  const [failure, setFailure] = useState<string | undefined>();
  const reasonId = useId();
  const dayId = useId();

  const today = new Date();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    const parsed = policyInputSchemaAt(new Date()).safeParse({ action, reason, ...(action === 'mute' && day ? { expiresAt: endOfDay(day) } : {}) });
    if (!parsed.success) {
      const next: Fields = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if ((key === 'reason' || key === 'expiresAt') && !next[key]) next[key] = issue.message;
      }
      setFields(next);
      return;
    }
    setFields({});
    put.mutate(
      { domain, findingId: finding.id, input: parsed.data },
      {
        onSuccess: () => onClose(),
        onError: (error) => setFailure(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to save the policy. Please try again.'),
      },
    );
  };

  return (
    <Dialog title={action === 'accept' ? 'Accept risk' : 'Mute finding'} description={`${finding.title} on ${domain}`} onClose={onClose}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {action === 'accept'
            ? 'You accept this risk: new and resolved alerts for this finding stop, and your reports mark it as accepted.'
            : 'Alerts for this finding stop while it is muted, and your reports mark it as muted.'}
        </p>
        <div>
          <label htmlFor={reasonId} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
            Reason
          </label>
          <textarea
            id={reasonId}
            name="reason"
            rows={3}
            maxLength={POLICY_REASON_LENGTH.max + 50}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            aria-invalid={fields.reason ? true : undefined}
            aria-describedby={`${reasonId}-hint${fields.reason ? ` ${reasonId}-error` : ''}`}
            className={fieldClass(Boolean(fields.reason))}
          />
          <p id={`${reasonId}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {POLICY_REASON_LENGTH.min} to {POLICY_REASON_LENGTH.max} characters. Only you see it: shared and public reports never show it.
          </p>
          {fields.reason && (
            <p id={`${reasonId}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
              {fields.reason}
            </p>
          )}
        </div>
        {action === 'mute' && (
          <div>
            <label htmlFor={dayId} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
              Mute until (optional)
            </label>
            <input
              id={dayId}
              name="expiresAt"
              type="date"
              min={inputDay(new Date(today.getTime() + DAY_MS))}
              max={inputDay(new Date(today.getTime() + (POLICY_MAX_DAYS - 1) * DAY_MS))}
              value={day}
              onChange={(event) => setDay(event.target.value)}
              aria-invalid={fields.expiresAt ? true : undefined}
              aria-describedby={`${dayId}-hint${fields.expiresAt ? ` ${dayId}-error` : ''}`}
              className={fieldClass(Boolean(fields.expiresAt))}
            />
            <p id={`${dayId}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              At most a year ahead. After this day the finding alerts again; leave it empty to mute until you remove the policy.
            </p>
            {fields.expiresAt && (
              <p id={`${dayId}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
                {fields.expiresAt}
              </p>
            )}
          </div>
        )}
        <p className="text-xs text-slate-600 dark:text-slate-400">{policyMessages.scoreUnchanged}</p>
        {failure && <FormMessage tone="error">{failure}</FormMessage>}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={put.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={put.isPending}>
            {put.isPending && <Spinner className="size-4" />}
            Save policy
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
