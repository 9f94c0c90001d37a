import type { CheckResult, Finding } from '../../../lib/contracts';
import { severityClass, severityOrder } from './format';

const bySeverity = (a: Finding, b: Finding) => severityOrder.indexOf(a.severity) - severityOrder.indexOf(b.severity);

/** Every finding of every check, most severe first. */
export function FindingsList({ checks }: { checks: CheckResult[] }) {
  const findings = checks.flatMap((check) => check.findings).sort(bySeverity);
  return (
    <section aria-labelledby="findings-heading" className="space-y-4">
      <h2 id="findings-heading" className="text-xl font-bold">
        Findings <span className="font-normal text-slate-600">({findings.length})</span>
      </h2>
      {findings.length === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white p-5 text-slate-600">No findings so far.</p>
      ) : (
        <ul className="space-y-3">
          {findings.map((finding, index) => (
            <li key={`${finding.id}-${index}`} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className={`rounded px-2 py-0.5 text-xs font-bold uppercase ${severityClass[finding.severity]}`}>
                  {finding.severity}
                </span>
                <h3 className="font-semibold">{finding.title}</h3>
                <span className="ml-auto text-xs text-slate-600">{finding.check}</span>
              </div>
              {finding.evidence && (
                <p className="mt-2 overflow-x-auto rounded bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-800">
                  <span className="sr-only">Evidence: </span>
                  {finding.evidence}
                </p>
              )}
              <p className="mt-2 text-sm text-slate-700">{finding.description}</p>
              <p className="mt-1 text-sm text-slate-700">
                <span className="font-semibold">Recommendation: </span>
                {finding.recommendation}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
