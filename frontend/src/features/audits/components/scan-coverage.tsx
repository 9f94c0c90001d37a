import { scanModeContent } from '../../../config/scan-modes';
import type { CoverageView, NotCheckedItem } from '../../../lib/contracts';

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

/** Every check, or part of one, the scan did not check, with why (the backend's words). */
export function NotCheckedList({ coverage }: { coverage: CoverageView }) {
  if (coverage.notChecked.length === 0) return null;
  return (
    <section
      aria-labelledby="not-checked-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id="not-checked-heading" className="text-lg font-bold text-slate-900 dark:text-slate-100">
        {scanModeContent.notCheckedList.heading}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{scanModeContent.notCheckedList.intro}</p>
      <ul className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
        {coverage.notChecked.map((item) => (
          <li key={`${item.check}:${item.part ?? ''}`} data-check={item.check} className="py-2 text-sm">
            <p className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-semibold text-slate-900 dark:text-slate-100">{item.title}</span>
              {item.part && <span className="text-slate-800 dark:text-slate-200">{item.part}</span>}
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                {scanModeContent.notChecked} · {scanModeContent.cause[item.cause]}
              </span>
            </p>
            <p className="mt-0.5 text-slate-600 dark:text-slate-400">{item.reason}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
