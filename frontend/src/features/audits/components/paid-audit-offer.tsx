import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { CheckIcon } from '../../../components/ui/check-icon';
import { Spinner } from '../../../components/ui/spinner';
import { content } from '../../../config/content';
import { paths } from '../../../config/paths';
import { scanModeContent } from '../../../config/scan-modes';
import { formatPlanPrice, getPlan } from '../../../lib/catalogue';
import { siteKey, type Audit, type AuditResultView } from '../../../lib/contracts';
import { paidAuditOfferFor, type OfferViewer } from '../../../lib/paid-audit-offer';
import { meQueryOptions } from '../../account/api/account';
import { useAuth } from '../../auth/auth-provider';
import { CheckoutAlert } from '../../payments/components/checkout-alert';
import { useCheckout } from '../../payments/hooks/use-checkout';

const AUDIT_PLAN_IDS = ['basic-audit', 'pro-audit'] as const;

// Its own module, so the results page shows the banner without this file's checkout and contracts.
export { PremiumBanner } from './premium-banner';

/**
 * DECISIONS "What paid audits add": on a finished report that found issues, the Basic and Pro
 * Audits with what each adds, each starting checkout for this audit. Not on premium (as stored),
 * sample, blocked or shared (read-only) reports, nor to a viewer who can already run the deep scan
 * (paidAuditOfferFor decides).
 */
export function PaidAuditOffer({ audit, result }: { audit: Audit; result: AuditResultView }) {
  const viewer = useOfferViewer();
  const decision = paidAuditOfferFor(audit, result, viewer);
  if (!decision.show) return null;
  return <Offer auditId={audit.id} domain={siteKey(audit.host)} lead={decision.lead} planNote={decision.planNote} />;
}

/** Issue 29 item 3: what the viewer already has (their subscription, from `GET /api/me`) decides the offer. */
function useOfferViewer(): OfferViewer {
  const { status } = useAuth();
  const signedIn = status === 'signed-in';
  const me = useQuery({ ...meQueryOptions(), enabled: signedIn });
  if (!signedIn) return status === 'loading' ? { kind: 'loading' } : { kind: 'anonymous' };
  // An account the API cannot read keeps the offer a free viewer has, without calling the report free.
  if (me.isError) return { kind: 'signed-in' };
  return me.data ? { kind: 'signed-in', subscription: me.data.subscription } : { kind: 'loading' };
}

/**
 * DECISIONS "Scan modes": checkout refused a paid audit of a domain the buyer has not verified (no
 * money is taken for a scan that cannot run): the API's reason, and the way to verify it, after
 * which Settings → Domains leads back to this offer.
 */
function VerifyFirst({ auditId, domain, message }: { auditId: string; domain: string; message: string }) {
  return (
    <div role="alert" data-testid="verify-first" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <p className="font-semibold">{scanModeContent.checkout.verifyFirstHeading(domain)}</p>
      <p className="mt-1">{message}</p>
      <Link to={paths.dashboard.verifyDomain.getHref(domain, { offer: auditId })} className={`mt-3 ${buttonClass('primary')}`}>
        {scanModeContent.checkout.verifyFirst(domain)}
      </Link>
    </div>
  );
}

function Offer({ auditId, domain, lead, planNote }: { auditId: string; domain: string; lead: string; planNote?: string }) {
  const { processingPlanId, error, errorCode, startCheckout } = useCheckout();
  return (
    <section
      aria-labelledby="paid-audit-heading"
      data-testid="paid-audit-offer"
      className="rounded-xl border border-blue-200 bg-white p-5 shadow-sm dark:border-blue-800 dark:bg-slate-900"
    >
      <h2 id="paid-audit-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
        Go deeper with a paid audit
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        {lead} {planNote ?? content.pricing.subscriberDiscount}
      </p>
      {errorCode === 'domain_not_verified' && error ? (
        <VerifyFirst auditId={auditId} domain={domain} message={error} />
      ) : (
        <CheckoutAlert message={error} className="mt-4" />
      )}
      <ul className="mt-4 grid gap-4 md:grid-cols-2">
        {AUDIT_PLAN_IDS.map((planId) => {
          const plan = getPlan(planId);
          const processing = processingPlanId === planId;
          return (
            <li key={planId} data-testid={`offer-${planId}`} className="flex flex-col rounded-lg border border-slate-200 p-4 dark:border-slate-700">
              <h3 className="font-semibold text-slate-900 dark:text-slate-100">{plan.name}</h3>
              <p className="text-2xl font-bold text-slate-900 dark:text-slate-100">{formatPlanPrice(plan)}</p>
              <ul className="mt-3 flex-1 space-y-2 text-sm text-slate-700 dark:text-slate-300">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <CheckIcon />
                    <span>{feature}</span>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                onClick={() => startCheckout({ planId, auditId })}
                disabled={processingPlanId !== null}
                aria-busy={processing}
                className={`mt-4 min-h-11 ${buttonClass('primary')}`}
              >
                {processing ? (
                  <>
                    <Spinner className="size-4" />
                    {content.pricing.processing}
                  </>
                ) : (
                  `Get the ${plan.name}`
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
