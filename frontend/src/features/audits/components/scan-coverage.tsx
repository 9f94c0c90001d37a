import { scanModeContent } from '../../../config/scan-modes';
import type { CoverageView, NotCheckedGroup, NotCheckedItem } from '../../../lib/contracts';
import { notCheckedByReason } from '../../../lib/report-contract';

/**
 * DECISIONS "Scan modes": what a report says about what its scan checked. The mode that ran, and
 * each check (or part of one) that was not checked with the backend's reason; the cards and
 * counters ask here whether their check ran, so none shows a pass or a zero for it.
 */

/** The check's own "not checked" entry when the whole check did not run (skipped, error, timeout). */
export const notRun = (coverage: CoverageView, check: string): NotCheckedItem | undefined =>
  coverage.notChecked.find((item) => item.check === check && item.part === undefined);

/** The parts of a check that ran but left something out (a passive scan's limited checks). */
export const partsNotChecked = (coverage: CoverageView, check: string): NotCheckedItem[] =>
  coverage.notChecked.filter((item) => item.check === check && item.part !== undefined);

type NoticeKind = keyof typeof scanModeContent.mode;

export function noticeKind(coverage: CoverageView): NoticeKind {
  if (coverage.mode === 'passive') return coverage.allowedMode === 'active' ? 'limited' : 'passive';
  return coverage.partial ? 'activePartial' : 'active';
}

/** Which mode ran, first thing on the report: a partial report says so before its score. */
export function ScanModeNotice({ coverage }: { coverage: CoverageView }) {
  const kind = noticeKind(coverage);
  const { heading, text } = scanModeContent.mode[kind];
  const partial = kind !== 'active';
  return (
    <section
      aria-labelledby="scan-mode-heading"
      data-testid="scan-mode"
      data-mode={coverage.mode}
      className={`rounded-xl border px-5 py-4 ${
        partial
          ? 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100'
          : 'border-slate-200 bg-white text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200'
      }`}
    >
      <h2 id="scan-mode-heading" className="font-bold">
        {heading}
      </h2>
      <p className="mt-1 text-sm">{text}</p>
    </section>
  );
}

/**
 * Every check, or part of one, the scan did not check, by reason (the backend's words): each reason
 * once, the checks and parts it covers under it (issue 29 item 8). `groups` is the view's
 * `not_checked_groups`; a view from before it is grouped here the same way.
 */
export function NotCheckedList({ coverage, groups }: { coverage: CoverageView; groups?: NotCheckedGroup[] }) {
  if (coverage.notChecked.length === 0) return null;
  const byReason = groups ?? notCheckedByReason(coverage.notChecked);
  return (
    <section
      aria-labelledby="not-checked-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id="not-checked-heading" className="text-lg font-bold text-slate-900 dark:text-slate-100">
        {scanModeContent.notCheckedList.heading}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{scanModeContent.notCheckedList.intro}</p>
      {byReason.map((group) => (
        <div key={`${group.cause}:${group.reason}`} data-testid="not-checked-reason" data-cause={group.cause} className="mt-3 border-t border-slate-100 pt-3 text-sm dark:border-slate-800">
          <p className="flex flex-wrap items-baseline gap-x-2">
            <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              {scanModeContent.notChecked} · {scanModeContent.cause[group.cause]}
            </span>
            <span className="text-slate-700 dark:text-slate-300">{group.reason}</span>
          </p>
          <ul className="mt-2 list-disc space-y-0.5 pl-5">
            {group.items.map((item) => (
              <li key={`${item.check}:${item.part ?? ''}`} data-check={item.check}>
                <span className="font-semibold text-slate-900 dark:text-slate-100">{item.title}</span>
                {item.part && <span className="text-slate-800 dark:text-slate-200">: {item.part}</span>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
