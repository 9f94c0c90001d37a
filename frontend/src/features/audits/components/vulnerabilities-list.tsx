import { useState } from 'react';
import { scanModeContent } from '../../../config/scan-modes';
import type { CveView, TechnologyView, VulnerabilityView } from '../../../lib/contracts';
import { CveList } from './cve-list';
import { FindingDisclosure } from './finding-disclosure';
import { FindingPolicyPanel, PolicyChip, type ReportPolicies } from './finding-policy';
import { FindingPlatformFix } from './platform-fix';

/** Every CVE the report's technologies know details of, by id: for a finding that names CVEs without carrying their detail. */
function cveDetails(technologies: readonly TechnologyView[]): Map<string, CveView> {
  const byId = new Map<string, CveView>();
  for (const technology of technologies) for (const cve of technology.cves) if (!byId.has(cve.id)) byId.set(cve.id, cve);
  return byId;
}

const panelText = 'text-sm text-slate-700 dark:text-slate-300';

function VulnerabilityItem({ vulnerability, cves, policies }: { vulnerability: VulnerabilityView; cves: Map<string, CveView>; policies?: ReportPolicies }) {
  const policy = policies?.byFinding.get(vulnerability.id);
  return (
    <FindingDisclosure
      severity={vulnerability.severity}
      title={vulnerability.title}
      meta={
        <>
          {vulnerability.category}
          {vulnerability.cvssScore !== undefined && ` · CVSS ${vulnerability.cvssScore.toFixed(1)}`}
          {policy && <PolicyChip policy={policy} />}
        </>
      }
    >
        {vulnerability.evidence && (
          <div>
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">Evidence</p>
            <p className="mt-1 overflow-x-auto rounded bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-800 dark:bg-slate-800 dark:text-slate-200">
              {vulnerability.evidence}
            </p>
          </div>
        )}
        <div>
          <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">Why it matters</p>
          <p className={`mt-1 ${panelText}`}>{vulnerability.description}</p>
        </div>
        <div>
          <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">How to fix</p>
          <p className={`mt-1 ${panelText}`}>{vulnerability.recommendation}</p>
        </div>
        <FindingPlatformFix guides={vulnerability.platformGuides} />
        {vulnerability.cveDetails && vulnerability.cveDetails.length > 0 ? (
          <CveList cves={vulnerability.cveDetails} />
        ) : vulnerability.cves && vulnerability.cves.length > 0 && (
          <div>
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">
              Known vulnerabilities (CVEs)
            </p>
            <ul className="mt-1 flex flex-wrap gap-2">
              {vulnerability.cves.map((id) => {
                const cve = cves.get(id);
                return (
                  <li key={id} className="rounded-md border border-slate-200 px-2 py-1 text-xs text-slate-800 dark:border-slate-700 dark:text-slate-200">
                    <span className="font-mono font-semibold">{id}</span>
                    {cve?.cvssScore !== undefined && <span> · CVSS {cve.cvssScore.toFixed(1)}</span>}
                    {cve?.exploited && (
                      <span className="ml-1 rounded bg-red-700 px-1.5 py-0.5 font-semibold text-white">Exploited in the wild</span>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        )}
        {policies && <FindingPolicyPanel finding={vulnerability} policies={policies} />}
    </FindingDisclosure>
  );
}

/**
 * SPEC §2: the issues, most severe first, the first `limit` shown; each opens to its evidence, why
 * it matters, how to fix it and its CVEs. `expandable` adds 'Show all'; without it (the shared
 * page) the rest is counted in an 'and N more' line.
 */
export function VulnerabilitiesList({
  vulnerabilities,
  technologies,
  limit,
  expandable = true,
  policies,
  partial = false,
}: {
  vulnerabilities: VulnerabilityView[];
  technologies: TechnologyView[];
  limit: number;
  expandable?: boolean;
  /** The owner's report in the dashboard only: each finding's custom security policy and its controls. */
  policies?: ReportPolicies;
  /** A partial report (DECISIONS "Scan modes"): none found is no all-clear, so not the green state. */
  partial?: boolean;
}) {
  const [showAll, setShowAll] = useState(false);
  const cves = cveDetails(technologies);
  const shown = showAll ? vulnerabilities : vulnerabilities.slice(0, limit);
  const hidden = vulnerabilities.length - shown.length;
  return (
    <section aria-labelledby="vulnerabilities-heading" className="space-y-3">
      <h2 id="vulnerabilities-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
        Vulnerabilities <span className="font-normal text-slate-600 dark:text-slate-400">({vulnerabilities.length})</span>
      </h2>
      {vulnerabilities.length === 0 && partial ? (
        <p className="rounded-xl border border-slate-200 bg-white p-4 text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200">
          {scanModeContent.noVulnerabilitiesPartial}
        </p>
      ) : vulnerabilities.length === 0 ? (
        <p className="rounded-xl border border-green-200 bg-green-50 p-4 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100">
          No vulnerabilities detected
        </p>
      ) : (
        <ul className="space-y-2">
          {shown.map((vulnerability) => (
            <VulnerabilityItem key={vulnerability.id} vulnerability={vulnerability} cves={cves} policies={policies} />
          ))}
        </ul>
      )}
      {hidden > 0 &&
        (expandable ? (
          <button
            type="button"
            onClick={() => setShowAll(true)}
            className="rounded-md text-sm font-semibold text-blue-700 underline hover:text-blue-900 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-400"
          >
            Show all {vulnerabilities.length} vulnerabilities
          </button>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">and {hidden} more</p>
        ))}
      {showAll && vulnerabilities.length > limit && (
        <button
          type="button"
          onClick={() => setShowAll(false)}
          className="rounded-md text-sm font-semibold text-blue-700 underline hover:text-blue-900 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-400"
        >
          Show fewer
        </button>
      )}
    </section>
  );
}
