import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { attemptsRemainingText, VERIFICATION, verificationMessages, wrongCodeMessage } from '../../../lib/lead-contract';
import { useSendVerificationCode } from '../api/send-verification-code';
import { useVerifyCode } from '../api/verify-code';
import { formatMinutesSeconds, useCountdown } from '../lib/use-countdown';
import { useDialogFocus } from '../../../components/ui/use-dialog-focus';

/** SPEC §9: after a correct code, the modal shows success this long before the scan starts. */
export const VERIFIED_DELAY_MS = 1_500;

export const SEND_FAILED = 'Failed to send verification code';

/** The first 60 s after a code is sent, Resend stays disabled (SPEC §5: "timer above 540"). */
const RESEND_LOCKED_ABOVE = VERIFICATION.validitySeconds - VERIFICATION.resendAfterSeconds;

type ModalState =
  | { kind: 'sending' }
  | { kind: 'verify' }
  | { kind: 'success' }
  | { kind: 'error'; message: string; detail?: string };

export interface VerificationRequest {
  email: string;
  firstName: string;
  webUrl: string;
  businessName: string;
}

interface VerificationModalProps {
  request: VerificationRequest;
  /** Runs VERIFIED_DELAY_MS after the code was accepted. */
  onVerified: () => void;
  onClose: () => void;
  /** Told after each send whether the code went out, so the lead form can say so once the modal closes. */
  onSendResult?: (sent: boolean) => void;
}

const errorDetail = (error: unknown): string | undefined =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : undefined;

/**
 * SPEC §2/§4 "Domain verification modal": sending → verify (6-digit code, m:ss countdown from
 * 10:00, Resend after 60 s, attempts left) → success, or error. Try Again and Resend start over:
 * a new code, 3 attempts, 10:00.
 */
export function VerificationModal({ request, onVerified, onClose, onSendResult }: VerificationModalProps) {
  const titleId = useId();
  const codeId = useId();
  const codeHelpId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<ModalState>({ kind: 'sending' });
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [attemptsLeft, setAttemptsLeft] = useState<number>(VERIFICATION.maxAttempts);
  const [deadline, setDeadline] = useState<number | null>(null);
  const secondsLeft = useCountdown(deadline);
  const send = useSendVerificationCode();
  const { mutate: sendMutate } = send;
  const verify = useVerifyCode();
  const sentOnOpen = useRef(false);
  const onSendResultRef = useRef(onSendResult);
  useEffect(() => {
    onSendResultRef.current = onSendResult;
  }, [onSendResult]);

  const close = state.kind === 'success' ? undefined : onClose;
  useDialogFocus(dialogRef, close);

  const sendCode = useCallback(() => {
    setState({ kind: 'sending' });
    setCode('');
    setCodeError(undefined);
    setAttemptsLeft(VERIFICATION.maxAttempts);
    setDeadline(null);
    sendMutate(request, {
      onSuccess: () => {
        setDeadline(Date.now() + VERIFICATION.validitySeconds * 1_000);
        setState({ kind: 'verify' });
        onSendResultRef.current?.(true);
      },
      onError: (error) => {
        setState({ kind: 'error', message: SEND_FAILED, detail: errorDetail(error) });
        onSendResultRef.current?.(false);
      },
    });
  }, [request, sendMutate]);

  // Opening the modal sends the first code (once, even when React runs effects twice in development).
  useEffect(() => {
    if (sentOnOpen.current) return;
    sentOnOpen.current = true;
    sendCode();
  }, [sendCode]);

  useEffect(() => {
    if (state.kind === 'verify') codeRef.current?.focus();
    else dialogRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [state.kind]);

  // The code ran out: it cannot be checked any more, only replaced.
  useEffect(() => {
    if (state.kind === 'verify' && deadline !== null && secondsLeft === 0) {
      setState({ kind: 'error', message: verificationMessages.expired });
    }
  }, [state.kind, deadline, secondsLeft]);

  // The latest callback, so a parent re-rendering during the wait does not restart it.
  const onVerifiedRef = useRef(onVerified);
  useEffect(() => {
    onVerifiedRef.current = onVerified;
  }, [onVerified]);
  useEffect(() => {
    if (state.kind !== 'success') return;
    const timer = setTimeout(() => onVerifiedRef.current(), VERIFIED_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.kind]);

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setCodeError(verificationMessages.codeFormat);
      return;
    }
    setCodeError(undefined);
    verify.mutate(
      { email: request.email, webUrl: request.webUrl, verificationCode: code },
      {
        onSuccess: () => setState({ kind: 'success' }),
        onError: (error) => {
          const body = error instanceof ApiError ? error.body : {};
          // SPEC §8: the server's count, or one less than before when it gives none.
          const remaining = typeof body.remainingAttempts === 'number' ? body.remainingAttempts : attemptsLeft - 1;
          // A wrong code (or an answer that says nothing) is said with the attempts left and what to do; the server's other refusals as it words them.
          const wrongCode = body.error === 'verification_failed' || typeof body.message !== 'string' || body.message === '';
          const message = wrongCode ? wrongCodeMessage(remaining) : (body.message as string);
          setAttemptsLeft(Math.max(0, remaining));
          if (remaining <= 0) {
            setState({ kind: 'error', message });
          } else {
            setCodeError(message);
            setCode('');
            codeRef.current?.focus();
          }
        },
      },
    );
  };

  const resendLocked = send.isPending || secondsLeft > RESEND_LOCKED_ABOVE;

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center overflow-y-auto bg-slate-900/60 p-4">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl sm:p-8 dark:bg-slate-900"
      >
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-xl font-bold text-slate-900 dark:text-slate-100">
            Verify your email address
          </h2>
          {close && (
            <button
              type="button"
              onClick={close}
              aria-label="Close"
              className="-m-2 rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-700 dark:hover:bg-slate-800 dark:hover:text-slate-100"
            >
              <span aria-hidden="true" className="block text-xl leading-none">
                ×
              </span>
            </button>
          )}
        </div>

        {state.kind === 'sending' && (
          <div role="status" className="mt-6 flex flex-col items-center gap-3 py-6 text-center text-slate-700 dark:text-slate-300">
            <Spinner className="size-8 text-blue-700 dark:text-blue-400" />
            <p>
              Sending a verification code to <strong className="break-all">{request.email}</strong>…
            </p>
          </div>
        )}

        {state.kind === 'verify' && (
          <form onSubmit={submitCode} noValidate className="mt-4 space-y-4">
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Your email address is not at <strong className="break-all">{hostOf(request.webUrl)}</strong>, so we need to
              check it is yours before we scan the site. We sent a 6-digit code to{' '}
              <strong className="break-all">{request.email}</strong>.
            </p>
            <div>
              <label htmlFor={codeId} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
                Verification code
              </label>
              <input
                ref={codeRef}
                id={codeId}
                name="verificationCode"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={VERIFICATION.codeLength}
                value={code}
                onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, VERIFICATION.codeLength))}
                aria-invalid={codeError ? true : undefined}
                aria-describedby={codeHelpId}
                className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-3 text-center font-mono text-2xl tracking-[0.5em] text-slate-900 focus:border-blue-700 focus:outline-2 focus:outline-blue-700 dark:border-slate-600 dark:text-slate-100"
              />
              <div id={codeHelpId} className="mt-2 space-y-1 text-sm">
                {codeError && (
                  <p role="alert" className="font-medium text-red-700 dark:text-red-400">
                    {codeError}
                  </p>
                )}
                {attemptsLeft < VERIFICATION.maxAttempts && !codeError && (
                  <p className="font-medium text-orange-800 dark:text-orange-300">{attemptsRemainingText(attemptsLeft)}</p>
                )}
              </div>
            </div>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Code expires in{' '}
              <time data-testid="code-countdown" className="font-mono font-semibold text-slate-900 dark:text-slate-100">
                {formatMinutesSeconds(secondsLeft)}
              </time>
            </p>
            <div className="flex flex-col gap-3 sm:flex-row-reverse">
              <Button
                type="submit"
                className="sm:flex-1"
                disabled={code.length !== VERIFICATION.codeLength || verify.isPending}
              >
                {verify.isPending && <Spinner className="size-4" />}
                Verify Code
              </Button>
              <Button variant="secondary" className="sm:flex-1" onClick={sendCode} disabled={resendLocked}>
                {send.isPending && <Spinner className="size-4" />}
                Resend Code
              </Button>
            </div>
          </form>
        )}

        {state.kind === 'success' && (
          <div role="status" className="mt-6 flex flex-col items-center gap-3 py-4 text-center">
            <span aria-hidden="true" className="flex size-12 items-center justify-center rounded-full bg-green-100 text-2xl text-green-800 dark:bg-green-900 dark:text-green-300">
              ✓
            </span>
            <p className="text-lg font-semibold text-green-800 dark:text-green-300">Email verified!</p>
            <p className="text-sm text-slate-600 dark:text-slate-400">Starting your security scan…</p>
          </div>
        )}

        {state.kind === 'error' && (
          <div role="alert" className="mt-6 space-y-4 text-center">
            <p className="font-semibold text-red-800 dark:text-red-300">{state.message}</p>
            {state.detail && state.detail !== state.message && <p className="text-sm text-slate-700 dark:text-slate-300">{state.detail}</p>}
            <div className="flex flex-col gap-3 sm:flex-row sm:justify-center">
              <Button onClick={sendCode} data-autofocus>
                Try Again
              </Button>
              <Button variant="secondary" onClick={onClose}>
                Cancel
              </Button>
            </div>
          </div>
        )}

        <aside aria-label="Security notice" className="mt-6 rounded-md border border-blue-200 bg-blue-50 p-3 text-xs text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100">
          <p>
            <strong>Security notice:</strong> we only scan a website for someone who can show they may. The code proves
            you control this email address, works once, for this website only, and expires in 10 minutes. We will never
            ask you for it by phone or chat.
          </p>
        </aside>
      </div>
    </div>
  );
}

function hostOf(webUrl: string): string {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(webUrl) ? webUrl : `https://${webUrl}`).hostname;
  } catch {
    return webUrl;
  }
}
