import { content } from '../../../config/content';
import type { Grade, RiskLevel, Severity } from '../../../lib/catalogue';
import { sampleReport } from '../lib/sample-report';
import { frameClass, Section } from './section';

const gradeColours: Record<Grade, string> = {
  A: 'bg-green-700 text-white',
  B: 'bg-blue-600 text-white',
  C: 'bg-yellow-400 text-slate-900',
  D: 'bg-orange-700 text-white',
  F: 'bg-red-600 text-white',
};

const riskColours: Record<RiskLevel, string> = {
  low: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
  medium: 'bg-yellow-100 text-yellow-800 dark:bg-yellow-950 dark:text-yellow-300',
  high: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
};

const severityColours: Record<Exclude<Severity, 'info'>, string> = {
  critical: 'bg-red-600 text-white',
  high: 'bg-orange-700 text-white',
  medium: 'bg-yellow-400 text-slate-900',
  low: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
};

/** SPEC §9 score colours: 80+ green, 60–79 yellow, below 60 red; the report's own tones (audits/components/format.ts), AA on white. */
const scoreColour = (score: number): string =>
  score >= 80 ? 'text-green-700 dark:text-green-400' : score >= 60 ? 'text-yellow-700 dark:text-yellow-400' : 'text-red-700 dark:text-red-400';

export function ReportPreview() {
  const report = sampleReport;
  const counters = [
    { label: 'Vulnerabilities', value: report.vulnerabilities },
    { label: 'Critical', value: report.critical },
    { label: 'Open ports', value: report.openPorts.length },
    { label: 'Subdomains', value: report.subdomains },
  ];
  return (
    <Section id="report-preview" title={content.reportPreview.title} lead={content.reportPreview.lead} tone="raised">
      <figure className={`mx-auto max-w-4xl ${frameClass}`} aria-labelledby="report-preview-caption">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-4 sm:px-6 dark:border-slate-800">
          <div>
            <p className="text-xs font-semibold tracking-wider text-slate-500 uppercase dark:text-slate-400">Security report</p>
            <p className="font-mono text-sm font-semibold text-slate-900 dark:text-white">{report.domain}</p>
          </div>
          <span className="rounded-full bg-slate-100 px-3 py-1 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            Sample report
          </span>
        </div>
        <div className="grid gap-6 p-4 sm:p-6 md:grid-cols-[auto_1fr]">
          <div className="flex items-center gap-5 md:flex-col md:items-start">
            <div>
              <p className="text-sm text-slate-500 dark:text-slate-400">Risk score</p>
              <p className={`text-5xl font-extrabold tabular-nums ${scoreColour(report.score)}`} data-testid="sample-score">
                {report.score}
                <span className="text-lg font-semibold text-slate-500 dark:text-slate-400">/100</span>
              </p>
            </div>
            <div className="flex items-center gap-3">
              <span
                className={`flex size-12 items-center justify-center rounded-xl text-2xl font-bold ${gradeColours[report.grade]}`}
                aria-label={`Grade ${report.grade}`}
                data-testid="sample-grade"
              >
                {report.grade}
              </span>
              <span className={`rounded-full px-3 py-1 text-sm font-bold whitespace-nowrap uppercase ${riskColours[report.riskLevel]}`} data-testid="sample-risk">
                {report.riskLevel} risk
              </span>
            </div>
          </div>
          <div>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {counters.map((counter) => (
                <div key={counter.label} className="flex flex-col-reverse rounded-xl bg-slate-50 p-3 text-center dark:bg-slate-800">
                  <dt className="text-xs text-slate-500 dark:text-slate-400">{counter.label}</dt>
                  <dd className="text-2xl font-bold tabular-nums text-slate-900 dark:text-white">{counter.value}</dd>
                </div>
              ))}
            </dl>
            <h3 className="mt-6 text-sm font-semibold text-slate-900 dark:text-white">Top issues</h3>
            <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
              {report.findings.map((finding) => (
                <li key={finding.title} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                  <span className={`w-20 rounded-md px-2 py-0.5 text-center text-xs font-bold uppercase ${severityColours[finding.severity]}`}>
                    {finding.severity}
                  </span>
                  <span className="min-w-0 flex-1 text-sm text-slate-800 dark:text-slate-200">{finding.title}</span>
                  <span className="hidden text-xs text-slate-500 sm:inline dark:text-slate-400">{finding.category}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
        <figcaption id="report-preview-caption" className="border-t border-slate-200 px-4 py-3 sm:px-6 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
          A sample report for an example site, not a real scan. The score follows our formula: 100 minus 20 for each critical issue
          and 5 for every other issue — here 1 critical and {report.vulnerabilities - report.critical} others give {report.score}.
        </figcaption>
      </figure>
    </Section>
  );
}
