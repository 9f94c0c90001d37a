import { RESULT_LIST_LIMITS, type Audit, type AuditResultView } from '../../../lib/contracts';
import type { useCreateShare } from '../api/create-share';
import type { ResultsMode } from './audit-results';
import { ConfirmAddressPanel } from './confirm-address-panel';
import { useReportPolicies } from './finding-policy';
import { FreeRescanPanel } from './free-rescan';
import { PaidAuditOffer } from './paid-audit-offer';
import { ProtectionsSection } from './protections';
import { RemediationPlan } from './remediation-plan';
import { BreachesCard, OpenPortsCard, Recommendations, SubdomainsCard } from './report-cards';
import { ReportWayOn } from './report-way-on';
import { notRun } from './scan-coverage';
import { ShareButton } from './share-report';
import { UnlockPanel } from './unlock-panel';
import { FixAdvice, VulnerabilitiesList } from './vulnerabilities-list';

/**
 * A finished report below its score: the owner's next steps, the findings and the cards. Its own
 * chunk (issue 29 item 15), loaded once the score is on screen: it brings the contracts (zod,
 * libphonenumber) the unlock, address-proof, policy and checkout panels use, which the score does not need.
 */
export function ReportDetails({
  audit,
  result,
  mode,
  share,
}: {
  audit: Audit;
  result: AuditResultView;
  mode: ResultsMode;
  share: ReturnType<typeof useCreateShare>;
}) {
  const readOnly = mode === 'shared';
  // Custom security policies are the owner's: read and shown in the dashboard's report only.
  const policies = useReportPolicies(audit.host, mode === 'dashboard');
  return (
    <>
      {!readOnly && <ConfirmAddressPanel audit={audit} result={result} />}
      {!readOnly && <UnlockPanel audit={audit} result={result} />}

      <VulnerabilitiesList
        vulnerabilities={result.vulnerability_summary.vulnerabilities}
        groups={result.finding_groups}
        technologies={result.technologies}
        limit={RESULT_LIST_LIMITS.vulnerabilities}
        policies={policies}
        partial={result.coverage.partial}
      />

      {!readOnly && <PaidAuditOffer audit={audit} result={result} />}
      {!readOnly && <FreeRescanPanel audit={audit} result={result} />}
      {result.remediation_plan && <RemediationPlan plan={result.remediation_plan} />}

      <div className="grid gap-4 md:grid-cols-3">
        <OpenPortsCard
          ports={result.port_scan_results}
          measured={result.counters.openPorts !== null}
          notChecked={notRun(result.coverage, 'ports')}
          limit={RESULT_LIST_LIMITS.openPorts}
        />
        <SubdomainsCard dns={result.dns_results} coverage={result.coverage} />
        <BreachesCard breaches={result.breaches} />
      </div>

      <ProtectionsSection result={result} />

      <Recommendations recommendations={result.vulnerability_summary.recommendations} partial={result.coverage.partial} />

      {result.observations.length > 0 && (
        <section aria-labelledby="observations-heading" className="space-y-2">
          <h2 id="observations-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
            Observations <span className="font-normal text-slate-600 dark:text-slate-400">({result.observations.length})</span>
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">Worth knowing, not counted as issues in the score.</p>
          <ul className="space-y-2">
            {result.observations.map((observation) => (
              <li key={observation.id} className="rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm dark:border-slate-700 dark:bg-slate-900">
                <p className="font-semibold text-slate-900 dark:text-slate-100">{observation.title}</p>
                <div className="mt-1">
                  <FixAdvice fix={observation.fix} recommendation={observation.recommendation} />
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}

      {!readOnly && (
        <section aria-label="Next steps" className="flex flex-wrap gap-3 border-t border-slate-200 pt-6 dark:border-slate-700">
          <ShareButton share={share} label="Share Results" />
          <ReportWayOn />
        </section>
      )}
    </>
  );
}
