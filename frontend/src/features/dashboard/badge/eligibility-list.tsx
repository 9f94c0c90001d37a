import { content } from '../../../config/content';
import { badgeHeadline, badgeStatusLines, badgeStatusOfView, type MyBadgeView } from '../../../lib/contracts';
import { shortDate } from './format';

/** DECISIONS "Score colours": ≥ 80 green, 60–79 yellow, < 60 red; grey without a score. */
export const scoreDot = (score: number | null): string =>
  score === null ? 'bg-slate-400' : score >= 80 ? 'bg-green-600' : score >= 60 ? 'bg-yellow-500' : 'bg-red-600';

const scoreWord = (score: number | null): string =>
  score === null ? 'no score' : score >= 80 ? 'good' : score >= 60 ? 'fair' : 'poor';

/** The badge image's own words for the domain (badge.ts, the functions the SVG is drawn from), so the panel and /verify never disagree with it. */
export function badgeSays(badge: MyBadgeView): string {
  const status = badgeStatusOfView(badge);
  const headline = badgeHeadline(content.productName, status);
  return [headline, ...badgeStatusLines(status).filter((line) => line !== headline)].join(' · ');
}

/** Per domain: score dot, score, last scan, what the badge says, and either 'Eligible' or what stands in the way (the API's reasons). */
export function EligibilityList({ badges }: { badges: readonly MyBadgeView[] }) {
  return (
    <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-700">
      {badges.map((badge) => (
        <li key={badge.domain} aria-label={badge.domain} className="flex flex-wrap items-start justify-between gap-3 py-3">
          <div className="flex items-start gap-3">
            <span
              role="img"
              aria-label={`Score ${scoreWord(badge.score)}`}
              data-score-dot={badge.score === null ? 'none' : badge.score >= 80 ? 'green' : badge.score >= 60 ? 'yellow' : 'red'}
              className={`mt-1.5 size-3 shrink-0 rounded-full ${scoreDot(badge.score)}`}
            />
            <div>
              <p className="font-semibold">{badge.domain}</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                Score {badge.score ?? '—'}
                {badge.grade !== null && ` (grade ${badge.grade})`} · Last scan {badge.lastScan ? shortDate(badge.lastScan) : 'never'}
              </p>
              <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="badge-says">
                Your badge shows: {badgeSays(badge)}
              </p>
            </div>
          </div>
          {badge.eligible ? (
            <p className="text-sm font-semibold text-green-700 dark:text-green-400">Eligible</p>
          ) : (
            <div className="text-sm sm:max-w-xs sm:text-right">
              <p className="font-semibold text-slate-700 dark:text-slate-300">Not eligible yet</p>
              <ul className="mt-1 list-disc pl-5 text-slate-600 sm:list-none sm:pl-0 dark:text-slate-400">
                {badge.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
