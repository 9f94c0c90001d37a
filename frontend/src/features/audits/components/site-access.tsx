import { scanModeContent } from '../../../config/scan-modes';
import { siteAccessContent } from '../../../config/site-access';
import type { SiteAccessView } from '../../../lib/contracts';

/**
 * DECISIONS "Blocked is a result": first thing on a report whose site answered the scanner with a
 * bot challenge, an edge block, a login, a rate limit or an outage — what happened in plain words,
 * which checks were therefore not checked (never graded), and the steps to let the scanner in on
 * that platform, then to run the scan again.
 */
export function SiteAccessPanel({ access }: { access: SiteAccessView | null | undefined }) {
  if (!access) return null;
  // The guides end with "Run the scan again"; a report without one still says it.
  const saysAgain = access.guide?.steps.some((step) => step.startsWith('Run the scan again')) ?? false;
  return (
    <section
      aria-labelledby="site-access-heading"
      data-testid="site-access"
      data-kind={access.kind}
      className="space-y-4 rounded-xl border border-red-300 bg-red-50 p-5 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50"
    >
      <div>
        <h2 id="site-access-heading" className="text-lg font-bold">
          {siteAccessContent.heading}
        </h2>
        <p className="mt-1 font-semibold">{access.headline}</p>
        <p className="mt-1 text-sm">{access.reason}</p>
      </div>
      {access.checks.length > 0 && (
        <div>
          <p className="text-sm font-semibold">{siteAccessContent.notCheckedIntro}</p>
          <ul className="mt-1 space-y-1 text-sm" aria-label="Checks the site kept out">
            {access.checks.map((check) => (
              <li key={check.check} data-check={check.check}>
                <span className="font-semibold">{check.title}</span>
                {siteAccessContent.checkCovers[check.check] && ` (${siteAccessContent.checkCovers[check.check]})`}:{' '}
                {siteAccessContent.notChecked(scanModeContent.cause[check.cause])}
              </li>
            ))}
          </ul>
        </div>
      )}
      {access.guide ? (
        <div>
          <h3 className="font-bold">{access.guide.title}</h3>
          <ol className="mt-2 list-decimal space-y-1.5 pl-6 text-sm" aria-label={siteAccessContent.stepsIntro}>
            {access.guide.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      ) : (
        <p className="text-sm">{siteAccessContent.noGuide}</p>
      )}
      {!saysAgain && (
        <p data-testid="site-access-again" className="text-sm font-semibold">
          {siteAccessContent.again}
        </p>
      )}
    </section>
  );
}
