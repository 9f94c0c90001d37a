import { Link } from 'react-router';
import { content } from '../../../config/content';
import { ListLoadError, ListSkeleton } from '../history/list-states';
import { sectionHref } from '../sections';
import { useMyBadges } from './api/badges';
import { BadgeCustomiser } from './badge-customiser';
import { BadgeGuide, BadgeRequirements } from './badge-guide';
import { EligibilityList } from './eligibility-list';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';

/** SPEC §2 "Security Badge page", on the API's judgement of each of the user's domains (GET /api/me/badges). */
export function BadgeSection() {
  const badges = useMyBadges();

  return (
    <div className="space-y-6">
      <title>{`Security Badge — ${content.productName}`}</title>
      <h1 className="text-2xl font-bold">Security Badge</h1>
      {badges.isPending ? (
        <ListSkeleton label="Loading your domains…" rows={3} />
      ) : badges.isError ? (
        <ListLoadError
          title="Your badges could not be loaded"
          message={badges.error.message}
          onRetry={() => void badges.refetch()}
          retrying={badges.isFetching}
        />
      ) : (
        <>
          <section className={card} aria-labelledby="badge-eligibility">
            <h2 id="badge-eligibility" className="text-lg font-semibold">
              Eligibility
            </h2>
            {badges.data.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                You have no domains yet.{' '}
                <Link to={`${sectionHref('settings')}?tab=domains`} className="font-semibold text-blue-700 hover:underline dark:text-blue-400">
                  Add and verify a domain
                </Link>{' '}
                to earn a badge.
              </p>
            ) : (
              <EligibilityList badges={badges.data} />
            )}
          </section>
          {badges.data.length > 0 && <BadgeCustomiser badges={badges.data} />}
        </>
      )}
      <BadgeGuide />
      <BadgeRequirements />
    </div>
  );
}
