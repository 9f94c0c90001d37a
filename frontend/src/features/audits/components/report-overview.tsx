import { scanModeContent } from '../../../config/scan-modes';
import { gradeCapContent } from '../../../config/site-access';
import type { AuditResultView, CoverageView, RiskLevel } from '../../../lib/contracts';
import { gradeCapHeading } from '../../../lib/report-contract';
import { gradeClass, scoreClass } from './format';
import { notRun } from './scan-coverage';

const riskBanner: Record<RiskLevel, { box: string; label: string; text: string }> = {
  low: {
    box: 'border-green-200 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100',
    label: 'LOW RISK',
    text: 'Your website shows few security weaknesses. Keep it that way with regular scans.',
  },
  medium: {
    box: 'border-yellow-200 bg-yellow-50 text-yellow-900 dark:border-yellow-800 dark:bg-yellow-950 dark:text-yellow-100',
    label: 'MEDIUM RISK',
    text: 'Your website has security issues that attackers could use. Fix the ones below, most severe first.',
  },
  high: {
    box: 'border-red-200 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100',
    label: 'HIGH RISK',
    text: 'Your website has serious security issues. Fix the critical and high ones below as soon as you can.',
  },
};

/** SPEC §2: the risk level as a banner, above the score; a partial report's says what it rests on. */
export function RiskBanner({ riskLevel, partial = false }: { riskLevel: RiskLevel | null; partial?: boolean }) {
  if (!riskLevel) return null;
  const banner = riskBanner[riskLevel];
  return (
    <div data-testid="risk-banner" className={`rounded-xl border px-5 py-4 ${banner.box}`}>
      <p className="text-lg font-extrabold tracking-wide">{banner.label}</p>
      <p className="mt-1 text-sm">
        {banner.text}
        {partial && ` ${scanModeContent.riskPartial}`}
      </p>
    </div>
  );
}

/**
 * Score and grade with the spec's colours (SPEC §9 "Scoring"). A partial report's grade is marked
 * partial ("B · partial") and says why its score stops short of an A (DECISIONS "Scan modes"); each
 * grade cap that held the score down is named with its reason (DECISIONS "Grade caps").
 */
export function ScoreCard({ result }: { result: Omit<AuditResultView, 'id'> }) {
  const score = result.risk_score;
  const partial = result.coverage.partial && result.grade !== null;
  // DECISIONS "Grade caps": each cap that held the grade down, named with why.
  const caps = result.grade !== null ? (result.grade_caps ?? []) : [];
  return (
    <div className="flex flex-wrap items-center gap-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div>
        <p className="text-sm font-medium text-slate-600 dark:text-slate-400">Security score</p>
        <p data-testid="risk-score" className={`text-5xl font-extrabold tracking-tight ${score === null ? 'text-slate-500' : scoreClass(score)}`}>
          {score ?? '—'}
          <span className="text-xl font-semibold text-slate-500 dark:text-slate-400">/100</span>
        </p>
      </div>
      <div>
        <p className="text-sm font-medium text-slate-600 dark:text-slate-400">Grade</p>
        <p className="flex items-baseline gap-2">
          <span data-testid="grade" className={`text-5xl font-extrabold ${result.grade ? gradeClass[result.grade] : 'text-slate-500'}`}>
            {result.grade ?? '—'}
          </span>
          {partial && (
            <span data-testid="grade-partial" className="text-xl font-semibold text-slate-600 dark:text-slate-400">
              · {scanModeContent.grade.partial}
            </span>
          )}
        </p>
      </div>
      {caps.length > 0 && (
        <div className="w-full" data-testid="grade-caps">
          <p className="text-sm font-medium text-slate-600 dark:text-slate-400">{gradeCapContent.heading}</p>
          <ul className="mt-1 space-y-1 text-sm">
            {caps.map((cap) => (
              <li key={cap.id} data-cap={cap.id}>
                <span className="font-semibold text-slate-900 dark:text-slate-100">{gradeCapHeading(cap)}:</span>{' '}
                <span className="text-slate-700 dark:text-slate-300">{cap.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {partial && !caps.some((cap) => cap.id === 'partial') && <p className="w-full text-sm text-slate-600 dark:text-slate-400">{scanModeContent.scoreCap}</p>}
      {result.vulnerability_summary.riskFactors.length > 0 && (
        <div className="min-w-0 flex-1 basis-64">
          <p className="text-sm font-medium text-slate-600 dark:text-slate-400">Risk factors</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-800 dark:text-slate-200">
            {result.vulnerability_summary.riskFactors.map((factor) => (
              <li key={factor}>{factor}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function Counter({ label, value, tone, note, notChecked }: { label: string; value: number | null; tone?: string; note?: string; notChecked?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">{label}</dt>
      {notChecked !== undefined ? (
        <>
          <dd className="mt-1 text-xl font-bold tracking-tight text-slate-600 dark:text-slate-400">{scanModeContent.notChecked}</dd>
          <dd className="text-xs text-slate-500 dark:text-slate-400">{notChecked}</dd>
        </>
      ) : (
        <>
          <dd className={`mt-1 text-3xl font-bold tracking-tight ${value === null ? 'text-slate-500' : (tone ?? 'text-slate-900 dark:text-slate-100')}`}>
            {value ?? '—'}
          </dd>
          {value === null && note && <dd className="text-xs text-slate-500 dark:text-slate-400">{note}</dd>}
        </>
      )}
    </div>
  );
}

/**
 * SPEC §2: total issues, critical issues, open ports, subdomains. A count whose check did not run
 * says "Not checked" and why (never a zero); one not measured otherwise shows '—'.
 */
export function Counters({ counters, coverage }: { counters: AuditResultView['counters']; coverage: CoverageView }) {
  const cause = (check: string) => {
    const item = notRun(coverage, check);
    return item ? scanModeContent.cause[item.cause] : undefined;
  };
  // No issues in a partial report is no all-clear: not green.
  const none = coverage.partial ? 'text-slate-900 dark:text-slate-100' : 'text-green-700 dark:text-green-400';
  return (
    <section aria-labelledby="counters-heading">
      <h2 id="counters-heading" className="sr-only">
        Summary
      </h2>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Counter label="Total Issues" value={counters.totalIssues} tone={counters.totalIssues > 0 ? 'text-orange-700 dark:text-orange-400' : none} />
        <Counter label="Critical Issues" value={counters.criticalIssues} tone={counters.criticalIssues > 0 ? 'text-red-700 dark:text-red-400' : none} />
        <Counter label="Open Ports" value={counters.openPorts} note="port scan did not finish" notChecked={cause('ports')} />
        <Counter label="Subdomains" value={counters.subdomains} note="not measured" notChecked={cause('subdomains')} />
      </dl>
    </section>
  );
}
