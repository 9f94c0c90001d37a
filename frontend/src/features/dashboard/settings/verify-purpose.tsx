import { Link, useSearchParams } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { scanModeContent } from '../../../config/scan-modes';
import { auditIdSchema, isHostName, siteKey } from '../../../lib/contracts';
import type { DomainView } from '../../account/api/domains';
import { coversDomain, RunFullScanButton } from '../../audits/components/unlock-panel';

const text = scanModeContent.verifyFor;

/**
 * Why Settings → Domains was opened with a domain to verify (`paths.dashboard.verifyDomain`): to
 * unlock a passive report's full scan, or to come back to a report's paid audit offer. Anything
 * malformed in the address is ignored: the tab then opens as it always does.
 */
export type VerifyPurpose = { domain: string } & ({ kind: 'unlock'; auditId: string } | { kind: 'offer'; auditId: string });

export function useVerifyPurpose(): VerifyPurpose | undefined {
  const [search] = useSearchParams();
  const domain = siteKey(search.get('add')?.trim() ?? '');
  if (!isHostName(domain)) return undefined;
  const unlock = search.get('unlock');
  if (unlock && auditIdSchema.safeParse(unlock).success) return { domain, kind: 'unlock', auditId: unlock };
  const offer = search.get('offer');
  if (offer && auditIdSchema.safeParse(offer).success) return { domain, kind: 'offer', auditId: offer };
  return undefined;
}

type Step = 'add' | 'prove' | 'done';

function Steps({ current, items }: { current: Step; items: { step: Step; label: string }[] }) {
  const order: Step[] = ['add', 'prove', 'done'];
  return (
    <ol className="mt-3 space-y-2 text-sm">
      {items.map(({ step, label }, index) => {
        const finished = order.indexOf(step) < order.indexOf(current);
        const active = step === current;
        return (
          <li key={step} aria-current={active ? 'step' : undefined} className={`flex gap-3 ${active ? 'font-semibold text-slate-900 dark:text-white' : 'text-slate-600 dark:text-slate-400'}`}>
            <span
              aria-hidden="true"
              className={`flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                finished ? 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-100' : 'bg-blue-100 text-blue-800 dark:bg-blue-900 dark:text-blue-100'
              }`}
            >
              {finished ? '✓' : index + 1}
            </span>
            <span>
              {label}
              {finished && <span className="sr-only"> ({text.done})</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The way through verification for its purpose: add the domain (filled in below), prove control,
 * then run the full scan or go back to the offer. Verifying a parent domain covers the site too,
 * as the API decides.
 */
export function VerifyPurposePanel({ purpose, domains }: { purpose: VerifyPurpose; domains: readonly DomainView[] | undefined }) {
  const { domain } = purpose;
  const verified = domains !== undefined && coversDomain(domains, domain);
  const listed = domains?.some((entry) => entry.domain === domain) ?? false;
  const current: Step = verified ? 'done' : listed ? 'prove' : 'add';
  const reportHref = paths.results.getHref(purpose.auditId);
  return (
    <section
      aria-labelledby="verify-purpose-heading"
      data-testid="verify-purpose"
      className="rounded-xl border border-blue-200 bg-blue-50 p-6 text-slate-800 dark:border-blue-800 dark:bg-blue-950 dark:text-slate-200"
    >
      <h2 id="verify-purpose-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
        {purpose.kind === 'unlock' ? text.unlockHeading(domain) : text.offerHeading(domain)}
      </h2>
      <p className="mt-1 text-sm">{purpose.kind === 'unlock' ? scanModeContent.unlock.account : text.offerText}</p>
      <Steps
        current={current}
        items={[
          { step: 'add', label: text.steps.add(domain) },
          { step: 'prove', label: text.steps.prove },
          { step: 'done', label: purpose.kind === 'unlock' ? text.steps.unlock : text.steps.offer },
        ]}
      />
      {verified && (
        <div className="mt-4">
          <p className="mb-3 text-sm">{purpose.kind === 'unlock' ? scanModeContent.unlock.verified(domain) : text.offerVerified(domain)}</p>
          {purpose.kind === 'unlock' ? (
            <RunFullScanButton auditId={purpose.auditId} domain={domain} reportHref={reportHref} onDomainsPage />
          ) : (
            <Link to={reportHref} className={buttonClass('primary')}>
              {text.backToOffer}
            </Link>
          )}
        </div>
      )}
    </section>
  );
}
