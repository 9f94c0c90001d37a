import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { StatusPanel } from '../../../components/ui/status-panel';
import { content } from '../../../config/content';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { BADGE_DEFAULTS, BADGE_MAX_SCAN_AGE_DAYS, BADGE_MIN_SCORE, badgeDimensions, isHostName, type BadgeStatusView } from '../../../lib/contracts';
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
const unknown = (domain: string): BadgeStatusView => ({ domain, verified: false, eligible: false, grade: null, score: null, lastScan: null, reasons: [] });

type Verdict = { tone: string; title: string; text: string };

function verdict(status: BadgeStatusView): Verdict {
  const product = content.productName;
  if (status.eligible) {
    return {
      tone: 'border-green-300 bg-green-50 text-green-900',
      title: 'Badge active',
      text: `${product} has verified who owns ${status.domain}, and its latest scan meets the badge requirements.`,
    };
  }
  if (!status.verified) {
    return {
      tone: 'border-slate-300 bg-slate-100 text-slate-900',
      title: 'Not verified',
      text: `${product} has not verified ${status.domain}. A ${product} badge on this site showing a grade is not genuine.`,
    };
  }
  return {
    tone: 'border-amber-300 bg-amber-50 text-amber-900',
    title: 'Badge not active',
    text: `${status.domain} is verified, but it does not meet the badge requirements at the moment, so its badge shows "not verified".`,
  };
}

function StatusDetails({ status }: { status: BadgeStatusView }) {
  const { tone, title, text } = verdict(status);
  const { width, height } = badgeDimensions(BADGE_DEFAULTS.style, BADGE_DEFAULTS.size);
  const rows = [
    { label: 'Current grade', value: status.grade === null ? 'No current grade' : `${status.grade}${status.score === null ? '' : ` (score ${status.score}/100)`}` },
    { label: 'Last scan', value: status.lastScan === null ? 'No completed scan' : longDate(status.lastScan) },
    { label: 'Domain ownership', value: status.verified ? 'Verified' : 'Not verified' },
    { label: 'Badge', value: status.eligible ? 'Active' : 'Not active' },
  ];
  return (
    <article className="mx-auto max-w-2xl space-y-6">
      <header className="text-center">
        <h1 className="text-3xl font-bold text-slate-900 dark:text-white">Security status of {status.domain}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">As checked by {content.productName}</p>
      </header>
      <section aria-label="Verdict" className={`rounded-xl border p-5 ${tone}`}>
        <p className="text-lg font-bold">{title}</p>
        <p className="mt-1">{text}</p>
        {!status.eligible && status.reasons.length > 0 && (
          <>
            <p className="mt-3 font-semibold">Why the badge is not active:</p>
            <ul className="mt-1 list-disc pl-5">
              {status.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
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
        The badge is active only for a domain whose owner is verified, with a security score of {BADGE_MIN_SCORE} or more from a scan in the last{' '}
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
