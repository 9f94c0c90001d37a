import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import type { Audit, CheckResult } from '../../../lib/contracts';
// The results page's own query and polling (once a second while the scan runs): one poller for both.
import { useAudit } from '../../audits/api/get-audit';
import {
  checkLabel,
  checkOutcome,
  isCheckFinished,
  PROGRESS_MESSAGE_INTERVAL_MS,
  PROGRESS_MESSAGES,
  progressMessageRange,
} from '../lib/progress';

interface ProgressPanelProps {
  auditId: string;
  host: string;
  accountCreated: boolean;
  email: string;
  /** The scan finished, completed or failed: the report (or its error) is ready to open. */
  onFinished: (audit: Audit) => void;
  /** The progress could not be read at all. */
  onFailed: (detail: string) => void;
}

/** Each check's state as the worker last saved it: waiting, being checked, or how it went. */
function checkState(check: CheckResult): string {
  if (check.status === 'pending') return 'waiting';
  if (check.status === 'running') return 'checking…';
  return checkOutcome(check);
}

const checkMark = (check: CheckResult): string => {
  if (!isCheckFinished(check)) return '…';
  return check.status === 'ok' ? '✓' : '!';
};

/**
 * The scan as it happens (issue 29 item 9): every check with its state as the worker saves it, the
 * newest finished one in the headline; the spec's messages cycle every 1.2 s only while nothing
 * newer has come in. Once the scan has finished, `onFinished` opens the report.
 */
export function ProgressPanel({ auditId, host, accountCreated, email, onFinished, onFailed }: ProgressPanelProps) {
  const progress = useAudit(auditId);
  const audit = progress.data?.audit;
  const checks = audit?.checks ?? [];
  const finished = audit?.checks.filter(isCheckFinished) ?? [];
  const range = progressMessageRange(audit);
  const rangeKey = range.join(',');

  const seen = useRef(new Set<string>());
  const [latest, setLatest] = useState<string | undefined>();
  const [cycle, setCycle] = useState(0);

  const newest = finished.find((check) => !seen.current.has(check.name));
  useEffect(() => {
    if (!newest) return;
    for (const check of finished) seen.current.add(check.name);
    setLatest(`${checkLabel(newest.name)}: ${checkOutcome(newest)}`);
  });

  // Every 1.2 s without news the headline moves to the next of the spec's messages.
  useEffect(() => {
    const timer = setInterval(() => {
      setLatest(undefined);
      setCycle((value) => value + 1);
    }, PROGRESS_MESSAGE_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [latest, rangeKey]);

  useEffect(() => setCycle(0), [rangeKey]);

  useEffect(() => {
    if (audit?.status === 'completed' || audit?.status === 'failed') onFinished(audit);
  }, [audit, onFinished]);

  useEffect(() => {
    if (progress.isError && !audit) onFailed(progress.error.message);
  }, [progress.isError, progress.error, audit, onFailed]);

  const headline = latest ?? PROGRESS_MESSAGES[range[cycle % range.length] ?? 0];

  return (
    <section aria-labelledby="lead-progress-heading" className="space-y-5">
      <div className="flex items-center gap-3">
        <Spinner className="size-6 shrink-0 text-blue-700 dark:text-blue-400" />
        <div className="min-w-0">
          <h3 id="lead-progress-heading" className="text-lg font-bold text-slate-900 dark:text-slate-100">
            Scanning <span className="break-all">{host}</span>
          </h3>
          <p data-testid="progress-message" className="text-sm text-blue-800 dark:text-blue-300">
            {headline}
          </p>
        </div>
      </div>

      {accountCreated && (
        <p className="rounded-md border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100">
          Your report is kept in an account for you. We are emailing a link to choose your password to{' '}
          <strong className="break-all">{email}</strong>.
        </p>
      )}

      <div>
        <p data-testid="checks-finished" className="text-sm font-semibold text-slate-700 dark:text-slate-300">
          {checks.length === 0
            ? 'Waiting for the scanner to start…'
            : `${finished.length} of ${checks.length} ${checks.length === 1 ? 'check' : 'checks'} finished`}
        </p>
        <ul aria-live="polite" aria-label="Checks" className="mt-2 divide-y divide-slate-100 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
          {checks.map((check) => (
            <li key={check.name} data-state={check.status} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <span className="flex items-center gap-2 text-slate-800 dark:text-slate-200">
                <span aria-hidden="true" className={check.status === 'ok' ? 'text-green-700' : isCheckFinished(check) ? 'text-orange-700' : 'text-slate-500'}>
                  {checkMark(check)}
                </span>
                {checkLabel(check.name)}
              </span>
              <span className="shrink-0 text-slate-600 dark:text-slate-400">{checkState(check)}</span>
            </li>
          ))}
          {checks.length === 0 && (
            <li className="flex items-center gap-2 px-3 py-2 text-sm text-slate-600 dark:text-slate-400">
              <Spinner className="size-3" />
              Still scanning…
            </li>
          )}
        </ul>
      </div>
    </section>
  );
}
