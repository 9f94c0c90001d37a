import { useId, useState, type ReactNode } from 'react';
import type { Severity } from '../../../lib/contracts';
import { severityClass } from './format';

/**
 * One finding as a disclosure (a button in a heading that opens its panel): the report's
 * vulnerabilities and the Pro Audit's remediation plan both list findings this way.
 */
export function FindingDisclosure({
  severity,
  title,
  meta,
  prefix,
  level = 3,
  children,
}: {
  severity: Severity;
  title: string;
  /** Small text at the end of the summary line (category, CVSS, effort). */
  meta: ReactNode;
  /** Before the severity chip (the plan's step number). */
  prefix?: ReactNode;
  /** The finding's heading level: 4 under a group's heading (the report's issue groups). */
  level?: 3 | 4;
  children: ReactNode;
}) {
  const Heading = level === 4 ? 'h4' : 'h3';
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <li className="rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <Heading>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full flex-wrap items-center gap-x-3 gap-y-1 rounded-xl px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700 dark:hover:bg-slate-800"
        >
          {prefix}
          <span className={`rounded px-2 py-0.5 text-xs font-bold uppercase ${severityClass[severity]}`}>{severity}</span>
          <span className="min-w-0 flex-1 font-semibold text-slate-900 dark:text-slate-100">{title}</span>
          <span className="text-xs text-slate-600 dark:text-slate-400">{meta}</span>
          <span aria-hidden="true" className={`text-slate-500 transition-transform ${open ? 'rotate-180' : ''}`}>
            ▾
          </span>
        </button>
      </Heading>
      <div id={panelId} hidden={!open} className="space-y-3 border-t border-slate-200 px-4 py-3 dark:border-slate-700">
        {children}
      </div>
    </li>
  );
}
