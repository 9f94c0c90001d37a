import { rgb } from 'pdf-lib';
import type { EssentialEightEvidence, EssentialEightStatus, EssentialEightView } from '../domain/essential-eight.contract.js';
import { muted, type Writer } from './pdf-report.js';

/**
 * Issue 21 "Essential Eight readiness" as a PDF section, drawn with the audit report's page flow and
 * palette (lambdas/reports/pdf-report.ts `Writer`) so the Pro PDF and the monthly report share it:
 * the disclaimer first, a summary table of the Eight, then per strategy its status, what Maturity
 * Level One asks, what was seen (for, against, note; where) and how to check. Pure: the view in,
 * drawing on the writer's pages out.
 *
 * Pro PDF (pdf-report.ts renderPdfReport, Pro Audits only): `drawEssentialEightSection(w, e8)` after
 * `remediationPlan(w, view)`, the view `e8` built by the caller with `essentialEightOfAudit(deps, audit)`
 * (lambdas/use-cases/essential-eight.ts) and passed in the options. Monthly report
 * (monthly-report-pdf.ts domainSection): `drawEssentialEightSection(w, e8, { newPage: false, level: 2, summary: true })` (the table only)
 * at the end of each domain's section, `e8` from `essentialEightOfDomain(deps, userId, domain)`.
 */

export interface EssentialEightPdfOptions {
  /** Start on a new page (the Pro PDF's sections do); false continues the current page (a monthly report's domain section). */
  newPage?: boolean;
  /** 1: a report section with the rule under it; 2: a sub-section of a domain. */
  level?: 1 | 2;
  /** Only the table of strategies and statuses (a monthly report, one per domain); the evidence and how to check are in the dashboard and the Pro PDF. */
  summary?: boolean;
}

const STATUS_COLOURS: Record<EssentialEightStatus, ReturnType<typeof rgb>> = {
  'evidence-for': rgb(0.09, 0.45, 0.22),
  'evidence-against': rgb(0.7, 0.11, 0.11),
  'not-assessable': muted,
};

const EFFECT_LABELS: Record<EssentialEightEvidence['effect'], string> = { against: 'Against', for: 'For', neutral: 'Note' };

const day = (iso: string) => iso.slice(0, 10);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The section's heading, as the reports print it. */
export const ESSENTIAL_EIGHT_PDF_TITLE = 'Essential Eight readiness (Maturity Level One)';

export function drawEssentialEightSection(w: Writer, view: EssentialEightView, options: EssentialEightPdfOptions = {}): void {
  const level = options.level ?? 1;
  if (options.newPage ?? true) w.newPage();
  w.heading(ESSENTIAL_EIGHT_PDF_TITLE, level);
  w.text(view.disclaimer, { size: 8.5, color: muted, after: 6 });

  const scan = view.sources.webScan;
  const { reporting, total } = view.sources.agents;
  w.text(
    `${view.domain}: ${scan ? `web scan of ${day(scan.completedAt)}` : 'no completed web scan yet'}; ${total > 0 ? `${reporting} of ${plural(total, 'endpoint agent')} reporting` : 'no endpoint agents'}. Generated ${day(view.generatedAt)}.`,
    { size: 9.5, after: 4 },
  );
  w.table(
    [
      { title: 'Strategy', width: 3 },
      { title: 'Status', width: 2.4 },
      { title: 'Seen', width: 1.2 },
    ],
    view.strategies.map((s) => [s.title, s.statusLabel, String(s.evidence.length)]),
  );
  if (options.summary) {
    w.text('What was seen for each strategy, and how to check what cannot be seen from outside: the Essential Eight page of your dashboard.', { size: 9, color: muted, after: 6 });
    return;
  }

  for (const strategy of view.strategies) {
    w.heading(strategy.title, level === 1 ? 2 : 3);
    w.text(strategy.statusLabel, { font: 'bold', size: 10, color: STATUS_COLOURS[strategy.status], after: 2 });
    w.text(`Maturity Level One: ${strategy.requirement}`, { size: 9, after: 4 });
    w.text('What we saw', { font: 'bold', size: 9.5 });
    if (strategy.evidence.length === 0) w.text('Nothing our scan or agents can observe bears on this strategy.', { size: 9, indent: 10, after: 4 });
    for (const item of strategy.evidence) {
      w.text(`${EFFECT_LABELS[item.effect]}: ${item.what}`, { size: 9, indent: 10 });
      w.text(item.where, { size: 8, indent: 20, color: muted, after: 2 });
    }
    w.space(2);
    w.text('How to check', { font: 'bold', size: 9.5 });
    strategy.howToCheck.forEach((step, index) => w.text(`${index + 1}. ${step}`, { size: 9, indent: 10 }));
    w.space(6);
  }
}
