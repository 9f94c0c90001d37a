import { getPlan } from '../../../lib/catalogue';
import type { Audit, AuditResultView } from '../../../lib/contracts';
import { isAuditRunning, isPremiumReport } from '../api/get-audit';

/**
 * 'Premium report' above a report bought as a paid audit: the audit's stored state says so, never
 * the address (anyone can add `?premium=true` to a report link). While the paid deep scan runs, the
 * report's own progress panel shows below it.
 */
export function PremiumBanner({ audit, result }: { audit: Audit; result?: AuditResultView }) {
  if (!isPremiumReport(audit, result)) return null;
  const planType = result?.plan_type ?? audit.planType;
  return (
    <section
      aria-labelledby="premium-banner-heading"
      className="rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <h2 id="premium-banner-heading" className="font-semibold">
        Premium report
      </h2>
      {planType && <p className="text-sm font-semibold">{getPlan(planType === 'pro' ? 'pro-audit' : 'basic-audit').name}</p>}
      <p className="mt-1 text-sm">
        {!isAuditRunning(audit.status)
          ? `This report includes your paid audit: the deep scan and the full PDF report${planType === 'pro' ? ', with a remediation plan' : ''}.`
          : result?.free_rescan?.usedAt
            ? 'The free re-scan is running now; this report updates by itself when it finishes.'
            : 'Thank you for your purchase. The deep scan is running now; this report updates by itself when it finishes.'}
      </p>
    </section>
  );
}
