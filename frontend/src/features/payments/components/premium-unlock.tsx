import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { StatusPanel } from '../../../components/ui/status-panel';
import { paths } from '../../../config/paths';
import { InvalidPaymentSession, PaymentError } from './payment-error';

/** SPEC §9 "Premium redirect wait 2 s". */
export const PREMIUM_REDIRECT_MS = 2_000;

/**
 * Confirms the paid checkout session for the audit. The payments issue puts the server's check
 * here (the session is verified with the payment provider, never trusted from the address); until
 * then nothing is unlocked, as the results page has no premium content yet.
 */
export type UnlockPremium = (input: { sessionId: string; auditId?: string }) => Promise<void>;

const noServerUnlockYet: UnlockPremium = async () => {};

/**
 * `/payment-success?session_id&audit_id` (DECISIONS "/success vs /payment-success"): the unlocking
 * screen, then after 2 s the report with `?premium=true`, or the dashboard without an audit id.
 */
export function PremiumUnlock({
  sessionId,
  auditId,
  unlock = noServerUnlockYet,
}: {
  sessionId: string | null;
  auditId: string | null;
  unlock?: UnlockPremium;
}) {
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!sessionId) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    unlock({ sessionId, auditId: auditId ?? undefined }).then(
      () => {
        if (cancelled) return;
        timer = setTimeout(() => {
          void navigate(auditId ? `${paths.results.getHref(auditId)}?premium=true` : paths.dashboard.root.getHref(), { replace: true });
        }, PREMIUM_REDIRECT_MS);
      },
      (error: unknown) => {
        console.error('Unlocking the premium report failed', error);
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [sessionId, auditId, unlock, navigate]);

  if (!sessionId) return <InvalidPaymentSession />;
  if (failed) return <PaymentError />;
  return (
    <StatusPanel title="Payment successful!" role="status">
      <p className="mt-3 text-slate-700 dark:text-slate-300">Unlocking your premium security report…</p>
      <Spinner className="mt-6 size-8 text-blue-700 dark:text-blue-400" />
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
        {auditId ? 'Taking you to your report in a moment.' : 'Taking you to your dashboard in a moment.'}
      </p>
    </StatusPanel>
  );
}
