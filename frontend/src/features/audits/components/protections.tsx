import { scanModeContent } from '../../../config/scan-modes';
import { siteAccessContent } from '../../../config/site-access';
import type { AuditResultView, FactTone } from '../../../lib/contracts';
import { FACT_TONE_LABELS, protectionFacts } from '../../../lib/report-contract';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';

/** The tone's badge: its word always shown, the colour only a second signal (contrast as the status badges). */
const toneClass: Record<FactTone, string> = {
  good: 'bg-green-50 text-green-800 ring-green-200 dark:bg-green-950 dark:text-green-200 dark:ring-green-800',
  warning: 'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-800',
  problem: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
  neutral: 'bg-slate-100 text-slate-800 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600',
};

/**
 * Mail transport (MTA-STS, TLS-RPT, BIMI, DANE), DNSSEC, the certificate (CAA, OCSP stapling,
 * Certificate Transparency) and the website's hardening (Permissions-Policy, security.txt, mixed
 * content) in plain words: the same sentences as the PDF (lambdas/domain/protection-facts.ts).
 * Nothing is shown for a report stored before these checks.
 */
export function ProtectionsSection({ result }: { result: Omit<AuditResultView, 'id'> }) {
  const groups = protectionFacts(result);
  // DECISIONS "Blocked is a result": the website's hardening is read from its pages; kept out, it says so instead of nothing.
  const keptOut = groups.some((group) => group.id === 'web') ? undefined : result.site_access?.checks.find((check) => check.check === 'http' || check.check === 'exposure');
  if (groups.length === 0 && !keptOut) return null;
  return (
    <section aria-labelledby="protections-heading" className="space-y-3">
      <h2 id="protections-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
        Email, DNS and website protections
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        {groups.map((group) => (
          <section key={group.id} aria-labelledby={`protections-${group.id}-heading`} className={card} data-testid={`protections-${group.id}`}>
            <h3 id={`protections-${group.id}-heading`} className="font-bold text-slate-900 dark:text-slate-100">
              {group.title}
            </h3>
            <dl className="mt-3 space-y-3">
              {group.facts.map((fact, index) => (
                <div key={`${fact.label}-${index}`} className="text-sm">
                  <dt className="flex items-center gap-2 font-semibold text-slate-900 dark:text-slate-100">
                    {fact.label}{' '}
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${toneClass[fact.tone]}`}>{FACT_TONE_LABELS[fact.tone]}</span>
                  </dt>
                  <dd className="mt-0.5 wrap-anywhere text-slate-700 dark:text-slate-300">{fact.value}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        {keptOut && (
          <section aria-labelledby="protections-web-heading" className={card} data-testid="protections-web">
            <h3 id="protections-web-heading" className="font-bold text-slate-900 dark:text-slate-100">
              Website hardening
            </h3>
            <p className="mt-3 text-sm font-semibold text-slate-700 dark:text-slate-300">{siteAccessContent.notChecked(scanModeContent.cause[keptOut.cause])}</p>
          </section>
        )}
      </div>
    </section>
  );
}
