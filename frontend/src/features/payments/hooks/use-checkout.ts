import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import type { CheckoutRequest } from '../../../lib/contracts';
import { useAuth } from '../../auth/auth-provider';
import { createCheckoutSession } from '../api/create-checkout-session';

/** The plan a signed-out visitor chose, so checkout can resume once they are back from login (DECISIONS "Checkout UI"). */
export const PENDING_CHECKOUT_KEY = 'pendingCheckoutPlan';
/** A choice older than this is not resumed: the visitor went to log in for something else since. */
export const PENDING_CHECKOUT_MAX_AGE_MS = 30 * 60_000;

export type CheckoutChoice = CheckoutRequest;
type PlanId = CheckoutChoice['planId'];

/** What is remembered across the login: the choice and the page it was made on. */
interface PendingCheckout extends CheckoutChoice {
  path: string;
  savedAt: number;
}

/**
 * The alert's text comes with the payments contract, whose schemas (zod) the landing page's first
 * load leaves out: it is fetched once a visitor is signed in (only then can a checkout start, and
 * fail), so it is there before it is needed.
 */
const loadPaymentMessages = () => import('../../../lib/contracts').then((contracts) => contracts.paymentMessages);

/** SPEC §8's alert; should even the contract's code fail to load (offline), what went wrong instead. */
async function startFailedMessage(cause: unknown): Promise<string> {
  try {
    return (await loadPaymentMessages()).startFailed;
  } catch {
    return cause instanceof Error ? cause.message : String(cause);
  }
}

function rememberChoice(choice: CheckoutChoice, path: string): void {
  try {
    const pending: PendingCheckout = { ...choice, path, savedAt: Date.now() };
    window.sessionStorage.setItem(PENDING_CHECKOUT_KEY, JSON.stringify(pending));
  } catch {
    // Storage blocked: the visitor picks the plan again after login.
  }
}

/** The choice made on this page before logging in, removed as it is read so it resumes only once. */
function takeChoice(path: string): CheckoutChoice | undefined {
  try {
    const raw = window.sessionStorage.getItem(PENDING_CHECKOUT_KEY);
    if (!raw) return undefined;
    const pending = JSON.parse(raw) as Partial<PendingCheckout>;
    if (pending.path !== path) return undefined;
    window.sessionStorage.removeItem(PENDING_CHECKOUT_KEY);
    if (typeof pending.planId !== 'string' || typeof pending.savedAt !== 'number') return undefined;
    if (Date.now() - pending.savedAt > PENDING_CHECKOUT_MAX_AGE_MS) return undefined;
    return pending.auditId ? { planId: pending.planId, auditId: pending.auditId } : { planId: pending.planId };
  } catch {
    return undefined;
  }
}

/**
 * A checkout button's states (SPEC §4 "Checkout button", DECISIONS "Checkout UI"): idle, then
 * 'Processing...' on the chosen plan (every plan disabled) until the browser leaves for the
 * checkout; back to idle with `error` (and the API's `errorCode`, when it explained the refusal)
 * set when the checkout could not start. Checkout needs a signed-in session (SPEC §6): a
 * signed-out visitor goes to /auth/login with a returnUrl back here (`hash` names the section to
 * come back to), and the choice resumes once on their return.
 */
export function useCheckout({ hash }: { hash?: string } = {}) {
  const { status } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [processingPlanId, setProcessingPlanId] = useState<PlanId | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The API's code for a refusal it explains (domain_not_verified leads to verification instead).
  const [errorCode, setErrorCode] = useState<string | null>(null);
  // A ref as well as state: two clicks in one frame must not start two checkouts.
  const busy = useRef(false);

  const goToLogin = useCallback(
    (choice: CheckoutChoice) => {
      rememberChoice(choice, location.pathname);
      const returnUrl = `${location.pathname}${location.search}${hash ? `#${hash}` : ''}`;
      void navigate(paths.auth.login.getHref(returnUrl));
    },
    [hash, location.pathname, location.search, navigate],
  );

  const checkout = useCallback(
    async (choice: CheckoutChoice, resumed = false) => {
      busy.current = true;
      setProcessingPlanId(choice.planId);
      setError(null);
      setErrorCode(null);
      try {
        const { url } = await createCheckoutSession(choice);
        // Stays 'Processing...' while the browser leaves for the checkout.
        window.location.assign(url);
      } catch (cause) {
        // The session ran out since the page loaded: log in again, then carry on (once: a resumed
        // choice refused again would send the browser round in a loop).
        if (cause instanceof ApiError && cause.status === 401 && !resumed) {
          busy.current = false;
          setProcessingPlanId(null);
          goToLogin(choice);
          return;
        }
        // An unverified domain is a step of the way (verification first), not a failure to report.
        if (!(cause instanceof ApiError && cause.code === 'domain_not_verified')) console.error('Starting checkout failed', cause);
        // A refusal the API explains (another account's report, one not finished) is shown as it
        // says; trying again would not help. Anything else is the spec's alert.
        const refused = cause instanceof ApiError && cause.status >= 400 && cause.status < 500 && cause.code !== `http_${cause.status}`;
        const message = refused ? cause.message : await startFailedMessage(cause);
        busy.current = false;
        setProcessingPlanId(null);
        setError(message);
        setErrorCode(refused ? cause.code : null);
      }
    },
    [goToLogin],
  );

  const startCheckout = (choice: CheckoutChoice) => {
    if (busy.current) return;
    if (status === 'signed-in') {
      void checkout(choice);
      return;
    }
    busy.current = true;
    setProcessingPlanId(choice.planId);
    goToLogin(choice);
  };

  useEffect(() => {
    if (status === 'signed-in') void loadPaymentMessages().catch(() => undefined);
  }, [status]);

  useEffect(() => {
    if (status !== 'signed-in' || busy.current) return;
    const pending = takeChoice(location.pathname);
    if (pending) void checkout(pending, true);
  }, [status, location.pathname, checkout]);

  return { processingPlanId, error, errorCode, startCheckout };
}
