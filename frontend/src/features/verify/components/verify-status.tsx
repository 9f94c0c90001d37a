import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { StatusPanel } from '../../../components/ui/status-panel';
import { content } from '../../../config/content';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import {
  BADGE_DEFAULTS,
  BADGE_MAX_SCAN_AGE_DAYS,
  BADGE_MIN_SCORE,
  BADGE_NO_GRADE,
  badgeDimensions,
  badgeHeadline,
  badgeReasons,
  badgeReasonsForVisitors,
  badgeStatusLines,
  badgeStatusOfView,
  isHostName,
  type BadgeStatusView,
} from '../../../lib/contracts';
import { badgeImageSrc, useBadgeStatus } from '../api/get-badge-status';

export const INVALID_DOMAIN = 'Invalid domain';

const longDate = (iso: string): string => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric' });

/** The address names no domain a badge could belong to (or the API says so). */
export function InvalidDomain({ domain }: { domain: string }) {
  return (
    <StatusPanel title={INVALID_DOMAIN} role="alert">
      <p className="mt-3 text-slate-600 dark:text-slate-400">
        &quot;{domain}&quot; is not a valid domain name, so there is no security status to show. Check the address of the link you followed.
      </p>
    </StatusPanel>
  );
}

/** An unknown domain is answered like any other that is not verified: nothing to show, nothing to vouch for. */
const unknown = (domain: string): BadgeStatusView => ({ domain, verified: false, eligible: false, grade: null, score: null, lastScan: null, reasons: [badgeReasons.notVerified] });

/** The reasons in a visitor's words; a reason the page does not know is shown as the API wrote it. */
const visitorReason = (reason: string): string => badgeReasonsForVisitors[reason] ?? reason;

/**
 * The page says what the badge image says, word for word (badgeHeadline, badgeStatusLines: the same
 * functions the SVG is drawn from), then why. "Verified" belongs to the badge: a domain whose owner
 * is proven but whose badge is not active is "ownership proven", never "verified".
 */
function StatusDetails({ status }: { status: BadgeStatusView }) {
  const product = content.productName;
  const badge = badgeStatusOfView(status);
  const headline = badgeHeadline(product, badge);
  const lines = badgeStatusLines(badge).filter((line) => line !== headline);
  const tone = badge.eligible ? 'border-green-300 bg-green-50 text-green-900' : 'border-slate-300 bg-slate-100 text-slate-900';
  const reasons = badge.eligible ? [] : status.reasons.map(visitorReason);
  const { width, height } = badgeDimensions(BADGE_DEFAULTS.style, BADGE_DEFAULTS.size);
  const rows = [
    { label: 'Badge', value: badge.eligible ? 'Active' : 'Not active' },
    { label: 'Security grade', value: badge.eligible ? `${badge.grade} (score ${badge.score}/100)` : BADGE_NO_GRADE },
    { label: 'Last scan by the owner', value: status.lastScan === null ? 'No completed scan' : longDate(status.lastScan) },
    { label: 'Domain ownership', value: status.verified ? 'Proven by the owner' : 'Not proven' },
  ];
  return (
    <article className="mx-auto max-w-2xl space-y-6">
      <header className="text-center">
        <h1 className="text-3xl font-bold text-slate-900 dark:text-white">Security status of {status.domain}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">As checked by {product}</p>
      </header>
      <section aria-label="Verdict" className={`rounded-xl border p-5 ${tone}`}>
        <p className="text-lg font-bold" data-testid="badge-headline">
          {headline}
        </p>
        <ul className="mt-1" aria-label="The badge says">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {badge.eligible ? (
          <p className="mt-3">
            The owner of {status.domain} has proven they control it, and their latest scan meets the badge requirements.
          </p>
        ) : (
          <>
            {status.verified && (
              <p className="mt-3">The owner of {status.domain} has proven they control it, but that alone does not make the badge active.</p>
            )}
            {!status.verified && <p className="mt-3">A {product} badge on this site showing a grade is not genuine.</p>}
            {reasons.length > 0 && (
              <>
                <p className="mt-3 font-semibold">Why the badge is not active:</p>
                <ul className="mt-1 list-disc pl-5" aria-label="Why the badge is not active">
                  {reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </section>
      <section aria-label="Security status" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <div className="flex justify-center">
          <img src={badgeImageSrc(status.domain)} alt={`${content.productName} badge for ${status.domain}`} width={width} height={height} />
        </div>
        <dl className="mt-5 grid gap-4 sm:grid-cols-2">
          {rows.map((row) => (
            <div key={row.label}>
              <dt className="text-sm text-slate-600 dark:text-slate-400">{row.label}</dt>
              <dd className="text-lg font-semibold text-slate-900 dark:text-white">{row.value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <p className="text-center text-sm text-slate-600 dark:text-slate-400">
        The badge is active only for a domain whose owner has proven they control it, with a security score of {BADGE_MIN_SCORE} or more from a scan in the last{' '}
        {BADGE_MAX_SCAN_AGE_DAYS} days, under a current {content.productName} plan or paid audit.{' '}
        <Link to={paths.home.getHref()} className="font-semibold text-blue-700 hover:underline dark:text-blue-400">
          Check your own site
        </Link>
      </p>
    </article>
  );
}

/** `/verify/{domain}` (DECISIONS "Badge and verify"): the public page the badge links to. */
export function VerifyStatus({ domain }: { domain: string }) {
  return (
    <>
      <title>{`Security status of ${domain} — ${content.productName}`}</title>
      <VerifyBody domain={domain} />
    </>
  );
}

function VerifyBody({ domain }: { domain: string }) {
  const valid = isHostName(domain.toLowerCase());
  const status = useBadgeStatus(domain, { enabled: valid });
  if (!valid) return <InvalidDomain domain={domain} />;
  if (status.isPending) {
    return (
      <StatusPanel title="Checking security status…" role="status">
        <p className="mt-3 text-slate-600 dark:text-slate-400">{domain}</p>
      </StatusPanel>
    );
  }
  if (status.isError) {
    const error = status.error;
    if (error instanceof ApiError && error.status === 400) return <InvalidDomain domain={domain} />;
    if (error instanceof ApiError && error.status === 404) return <StatusDetails status={unknown(domain)} />;
    return (
      <StatusPanel title="Security status unavailable" tone="error" role="alert">
        <p className="mt-3 text-slate-600 dark:text-slate-400">The security status of {domain} could not be loaded: {error.message}</p>
        <Button className="mt-4" onClick={() => void status.refetch()} disabled={status.isFetching}>
          Try Again
        </Button>
      </StatusPanel>
    );
  }
  return <StatusDetails status={status.data} />;
}
