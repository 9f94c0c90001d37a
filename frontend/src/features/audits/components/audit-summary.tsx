import type { Audit } from '../../../lib/contracts';
import { gradeClass, riskClass, scoreClass } from './format';

function SummaryCard({ label, value, valueClass }: { label: string; value: string; valueClass: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className={`mt-1 text-3xl font-bold tracking-tight ${valueClass}`}>{value}</dd>
    </div>
  );
}

/** Score, grade, risk level and issue count of a finished audit. */
export function AuditSummary({ audit }: { audit: Audit }) {
  const findings = audit.checks.flatMap((check) => check.findings);
  const issues = findings.filter((finding) => finding.severity !== 'info').length;
  const critical = findings.filter((finding) => finding.severity === 'critical').length;
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading" className="sr-only">
        Summary
      </h2>
      <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
        <SummaryCard
          label="Risk score"
          value={audit.score === undefined ? '—' : `${audit.score}/100`}
          valueClass={audit.score === undefined ? 'text-slate-500' : scoreClass(audit.score)}
        />
        <SummaryCard
          label="Grade"
          value={audit.grade ?? '—'}
          valueClass={audit.grade ? gradeClass[audit.grade] : 'text-slate-500'}
        />
        <SummaryCard
          label="Risk level"
          value={audit.riskLevel ?? '—'}
          valueClass={`capitalize ${audit.riskLevel ? riskClass[audit.riskLevel] : 'text-slate-500'}`}
        />
        <SummaryCard
          label="Issues found"
          value={`${issues}`}
          valueClass={critical > 0 ? 'text-red-700' : 'text-slate-900'}
        />
      </dl>
    </section>
  );
}
