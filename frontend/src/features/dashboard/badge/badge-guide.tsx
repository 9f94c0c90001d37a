import { Link } from 'react-router';
import { content } from '../../../config/content';
import { BADGE_MAX_SCAN_AGE_DAYS, BADGE_MIN_SCORE } from '../../../lib/contracts';
import { sectionHref } from '../sections';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const link = 'font-semibold text-blue-700 hover:underline dark:text-blue-400';

/** DECISIONS "Badge eligibility", in the customer's words. */
export function BadgeRequirements() {
  return (
    <section className={card} aria-labelledby="badge-requirements">
      <h2 id="badge-requirements" className="text-lg font-semibold">
        Requirements
      </h2>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">The badge shows your grade only while all of these hold:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300">
        <li>
          the domain is verified as yours (
          <Link to={`${sectionHref('settings')}?tab=domains`} className={link}>
            Settings → Domains
          </Link>
          );
        </li>
        <li>its security score is {BADGE_MIN_SCORE} or more;</li>
        <li>its last completed scan is at most {BADGE_MAX_SCAN_AGE_DAYS} days old;</li>
        <li>
          you have an active subscription, or a paid security audit still within its badge period (
          <Link to="/#pricing" className={link}>
            plans
          </Link>
          ).
        </li>
      </ul>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Otherwise the same address shows a neutral &quot;not verified&quot; badge, never a grade the site has not earned.
      </p>
    </section>
  );
}

/** Where the embed code goes and how to keep the badge honest. */
export function BadgeGuide() {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section className={card} aria-labelledby="badge-integration">
        <h2 id="badge-integration" className="text-lg font-semibold">
          Integration instructions
        </h2>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300">
          <li>Choose the domain, theme, size and style above.</li>
          <li>Copy the embed code.</li>
          <li>Paste it into your site&apos;s HTML where the badge should appear, such as the footer template, and publish.</li>
          <li>
            Open your site: the badge loads from {content.productName} and links to the public verification page for your domain.
          </li>
        </ol>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          The embedded badge updates itself after every scan. A downloaded SVG is a snapshot of today&apos;s badge: use it for documents or slides,
          not on your site.
        </p>
      </section>
      <section className={card} aria-labelledby="badge-best-practices">
        <h2 id="badge-best-practices" className="text-lg font-semibold">
          Best practices
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300">
          <li>Place it where visitors decide to trust you: the footer, the checkout and the contact or sign-up page.</li>
          <li>Pick the dark theme on dark backgrounds, the light one elsewhere; keep the size readable on mobile.</li>
          <li>Keep the link to the verification page, so visitors can check the grade for themselves.</li>
          <li>Scan at least monthly (monitoring plans do it for you), so the badge never lapses.</li>
          <li>Fix new issues quickly: a score under {BADGE_MIN_SCORE} turns the badge to &quot;not verified&quot;.</li>
        </ul>
      </section>
    </div>
  );
}
