import { content } from '../../../config/content';
import { useMyAudits } from '../../account/api/audits';
import { useDomains } from '../../account/api/domains';
import { badgeEligibility, BADGE_MAX_SCAN_AGE_DAYS, BADGE_MIN_SCORE } from './eligibility';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const dot = (score: number | null) => (score === null ? 'bg-slate-400' : score >= 80 ? 'bg-green-600' : score >= 60 ? 'bg-yellow-500' : 'bg-red-600');

/** SPEC §2 "Security Badge page": the per-domain eligibility list from the user's real domains and scans. */
export function BadgeSection() {
  const domains = useDomains();
  const audits = useMyAudits();
  const rows = domains.data && audits.data ? badgeEligibility(domains.data, audits.data) : undefined;

  return (
    <div className="space-y-6">
      <title>{`Security Badge — ${content.productName}`}</title>
      <h1 className="text-2xl font-bold">Security Badge</h1>
      <section className={card} aria-labelledby="badge-eligibility">
        <h2 id="badge-eligibility" className="text-lg font-semibold">
          Eligibility
        </h2>
        {!rows ? (
          <p role="status" className="mt-2 text-sm">
            Loading your domains…
          </p>
        ) : rows.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Add and verify a domain in Settings to earn a badge.</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-700">
            {rows.map((row) => (
              <li key={row.domain} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div className="flex items-center gap-3">
                  <span aria-hidden="true" className={`size-3 rounded-full ${dot(row.score)}`} />
                  <div>
                    <p className="font-semibold">{row.domain}</p>
                    <p className="text-xs text-slate-500">
                      Score {row.score ?? '—'} · Last scan {row.lastScan ? new Date(row.lastScan).toLocaleDateString('en-AU') : 'never'}
                    </p>
                  </div>
                </div>
                <p className={`text-sm font-semibold ${row.eligible ? 'text-green-700 dark:text-green-400' : 'text-slate-600 dark:text-slate-400'}`}>
                  {row.eligible ? 'Eligible' : `Not yet: ${row.missing.join('; ')}`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className={card} aria-labelledby="badge-requirements">
        <h2 id="badge-requirements" className="text-lg font-semibold">
          Requirements
        </h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          A badge is shown only for a verified domain with a security score of {BADGE_MIN_SCORE} or more from a scan in the last {BADGE_MAX_SCAN_AGE_DAYS} days.
          Anything else shows a neutral &quot;not verified&quot; badge, never a false seal. The embeddable badge and its customisation arrive with the
          monitoring release.
        </p>
      </section>
    </div>
  );
}
