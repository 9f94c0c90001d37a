import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useMe } from '../../account/api/account';
import { useDomains } from '../../account/api/domains';
import { useStartQuickScan } from './api/start-quick-scan';
import { Dialog } from '../../../components/ui/dialog';

/** DECISIONS "Quick Scan": the text for any failure but the plan's limit. */
export const START_FAILED = 'Failed to start scan. Please try again.';

/** Where 'Add Domain' leads: Settings, Domains tab. */
export const ADD_DOMAIN_HREF = `${paths.dashboard.section.getHref('settings')}?tab=domains`;
export const UPGRADE_HREF = '/#pricing';

/** Why 'Start Instant Scan' cannot be pressed, said beside it (issue 29 item 11). */
export const DISABLED_REASONS = {
  noVerified: 'Verify a domain in Settings → Domains first.',
  noScansLeft: 'No scans left on your plan.',
  choose: 'Choose a domain to scan.',
} as const;

type Failure = { kind: 'limit'; message: string } | { kind: 'verify'; message: string } | { kind: 'retry'; message: string } | { kind: 'other' };

const linkClass =
  'font-semibold text-blue-700 underline underline-offset-2 hover:text-blue-900 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-400 dark:hover:text-blue-300';

/**
 * SPEC §2 "Quick Scan modal": pick one of the user's verified domains and start a scan counted
 * against the plan, then open its results; without domains, 'Add Domain' leads to Settings.
 */
export function QuickScanModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  // Mounted only while open, so every opening starts with nothing chosen and no old error.
  return open ? <QuickScanDialog onClose={onClose} /> : null;
}

function QuickScanDialog({ onClose }: { onClose: () => void }) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const me = useMe();
  const domains = useDomains();
  const start = useStartQuickScan();
  const [selected, setSelected] = useState<string | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();

  // Once the domains are there, focus goes to the first one that can be chosen (or 'Add Domain').
  useEffect(() => {
    if (!domains.isPending) bodyRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [domains.isPending]);

  const subscription = me.data?.subscription;
  const list = domains.data ?? [];
  const verified = list.filter((domain) => domain.verified);
  const firstVerified = verified[0]?.domain;
  // The only verified domain is the one to scan: chosen already.
  const chosen = selected ?? (verified.length === 1 ? firstVerified : undefined);
  const noScansLeft = subscription !== undefined && subscription !== null && subscription.scansUsed >= subscription.scansLimit;
  const disabledReason = !firstVerified ? DISABLED_REASONS.noVerified : noScansLeft ? DISABLED_REASONS.noScansLeft : !chosen ? DISABLED_REASONS.choose : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || disabledReason) return;
    setFailure(undefined);
    start.mutate(chosen, {
      onSuccess: ({ auditId }) => {
        navigate(paths.results.getHref(auditId));
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 403 && error.code === 'domain_not_verified') {
          // The re-check of a proof last seen over 30 days ago no longer found it: the domain lapsed.
          setFailure({ kind: 'verify', message: error.message });
          void domains.refetch();
          return;
        }
        // The proof was due for a re-check and its DNS did not answer: nothing changed, try again later.
        if (error instanceof ApiError && error.code === 'proof_check_unavailable') return setFailure({ kind: 'retry', message: error.message });
        setFailure(error instanceof ApiError && error.status === 403 && error.code === 'scan_limit_reached' ? { kind: 'limit', message: error.message } : { kind: 'other' });
      },
    });
  };

  return (
    <Dialog title="Quick Scan" description="Run a security scan of one of your verified domains now." onClose={onClose}>
      <div ref={bodyRef}>
        {subscription && (
          <p data-testid="scan-usage" className="mt-2 text-sm font-semibold text-slate-800 dark:text-slate-200">
            {subscription.scansUsed} / {subscription.scansLimit} scans used
          </p>
        )}

        {domains.isPending ? (
          <p role="status" className="mt-6 flex items-center gap-3 text-sm text-slate-600 dark:text-slate-400">
            <Spinner className="size-5 text-blue-700 dark:text-blue-400" />
            Loading your domains...
          </p>
        ) : domains.isError ? (
          <p role="alert" className="mt-6 text-sm font-semibold text-red-800 dark:text-red-300">
            Failed to load your domains. Please try again.
          </p>
        ) : list.length === 0 ? (
          <div className="mt-6 space-y-4 text-sm text-slate-700 dark:text-slate-300">
            <p>You have no domains yet. Add your website's domain and verify that you own it, then scan it from here.</p>
            <Link to={ADD_DOMAIN_HREF} onClick={onClose} className={`${linkClass} inline-block`} data-autofocus>
              Add Domain
            </Link>
          </div>
        ) : (
          <form onSubmit={submit} className="mt-6 space-y-5">
            <fieldset>
              <legend className="text-sm font-semibold text-slate-800 dark:text-slate-200">Domain to scan</legend>
              <ul className="mt-2 space-y-2">
                {list.map((domain) => (
                  <li key={domain.id}>
                    <label
                      className={`flex items-center gap-3 rounded-md border px-3 py-2 ${
                        domain.verified
                          ? 'cursor-pointer border-slate-300 hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800'
                          : 'cursor-not-allowed border-slate-200 opacity-70 dark:border-slate-700'
                      }`}
                    >
                      <input
                        type="radio"
                        name="quick-scan-domain"
                        value={domain.domain}
                        checked={chosen === domain.domain}
                        disabled={!domain.verified}
                        onChange={() => setSelected(domain.domain)}
                        data-autofocus={domain.domain === firstVerified ? true : undefined}
                        className="size-4 accent-blue-700"
                      />
                      <span className="font-mono text-sm break-all text-slate-900 dark:text-slate-100">{domain.domain}</span>
                      {!domain.verified && (
                        <span className="ml-auto text-xs font-semibold whitespace-nowrap text-amber-800 dark:text-amber-300">
                          Pending verification
                        </span>
                      )}
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
            {failure && (
              <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300">
                {failure.kind === 'limit' ? (
                  <>
                    <p className="font-semibold">{failure.message}</p>
                    <Link to={UPGRADE_HREF} onClick={onClose} className={`${linkClass} mt-2 inline-block`}>
                      Upgrade Plan
                    </Link>
                  </>
                ) : failure.kind === 'verify' ? (
                  <>
                    <p className="font-semibold">{failure.message}</p>
                    <Link to={ADD_DOMAIN_HREF} onClick={onClose} className={`${linkClass} mt-2 inline-block`}>
                      Open Settings → Domains
                    </Link>
                  </>
                ) : (
                  <p className="font-semibold">{failure.kind === 'retry' ? failure.message : START_FAILED}</p>
                )}
              </div>
            )}
            {disabledReason && (
              <p id="quick-scan-disabled-reason" data-testid="quick-scan-disabled-reason" className="text-sm text-slate-700 dark:text-slate-300">
                {disabledReason === DISABLED_REASONS.noVerified ? (
                  <>
                    <Link to={ADD_DOMAIN_HREF} onClick={onClose} className={linkClass}>
                      Verify a domain
                    </Link>
                    {DISABLED_REASONS.noVerified.slice('Verify a domain'.length)}
                  </>
                ) : (
                  disabledReason
                )}
                {disabledReason === DISABLED_REASONS.noScansLeft && (
                  <>
                    {' '}
                    <Link to={UPGRADE_HREF} onClick={onClose} className={linkClass}>
                      Upgrade Plan
                    </Link>
                  </>
                )}
              </p>
            )}
            <div className="flex flex-col gap-3 sm:flex-row-reverse">
              <Button type="submit" className="sm:flex-1" disabled={disabledReason !== undefined || start.isPending} aria-describedby={disabledReason ? 'quick-scan-disabled-reason' : undefined}>
                {start.isPending && <Spinner className="size-4" />}
                Start Instant Scan
              </Button>
              <Button variant="secondary" className="sm:flex-1" onClick={onClose}>
                Cancel
              </Button>
            </div>
          </form>
        )}
      </div>
    </Dialog>
  );
}
