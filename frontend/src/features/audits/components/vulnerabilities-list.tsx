import { useState } from 'react';
import { scanModeContent } from '../../../config/scan-modes';
import type { CveView, FindingGroupsView, FixAdviceView, TechnologyView, VulnerabilityView } from '../../../lib/contracts';
import { buildFindingGroups, groupCountsText } from '../../../lib/report-contract';
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

/**
 * Issue 29 item 8: what the change does, in plain words; the exact change (header value, record,
 * setting) folded below under "Technical details". A view from before `fix` shows the recommendation.
 */
export function FixAdvice({ fix, recommendation }: { fix?: FixAdviceView; recommendation: string }) {
  const advice = fix ?? { plain: recommendation, technical: null };
  return (
    <div data-testid="fix-advice">
      <p className={panelText}>{advice.plain}</p>
      {advice.technical && (
        <details className="mt-1">
          <summary className="cursor-pointer rounded text-sm font-semibold text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-400">Technical details</summary>
          <p className="mt-1 overflow-x-auto rounded bg-slate-100 px-3 py-2 font-mono text-xs break-words text-slate-800 dark:bg-slate-800 dark:text-slate-200">{advice.technical}</p>
        </details>
      )}
    </div>
  );
}

function VulnerabilityItem({ vulnerability, cves, policies }: { vulnerability: VulnerabilityView; cves: Map<string, CveView>; policies?: ReportPolicies }) {
  const policy = policies?.byFinding.get(vulnerability.id);
  return (
    <FindingDisclosure
      level={4}
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
          <div className="mt-1">
            <FixAdvice fix={vulnerability.fix} recommendation={vulnerability.recommendation} />
          </div>
        </div>
        <FindingPlatformFix guides={vulnerability.platformGuides} level={5} />
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
 * SPEC §2: the issues, the first `limit` shown; each opens to its evidence, why it matters, how to
 * fix it and its CVEs. Issue 29 item 7: grouped the way an owner acts on them — "Fix now" (known
 * exploited or critical), "Fix this month" (high, medium), "Good practice" (low) — each group with
 * its count, from the view's `finding_groups` (their counts are the score's inputs). `expandable`
 * adds 'Show all'; without it (the shared page) the rest is counted in an 'and N more' line.
 */
export function VulnerabilitiesList({
  vulnerabilities,
  groups,
  technologies,
  limit,
  expandable = true,
  policies,
  partial = false,
}: {
  vulnerabilities: VulnerabilityView[];
  /** The view's `finding_groups`; a view from before it is grouped here the same way. */
  groups?: FindingGroupsView;
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
  const byId = new Map(vulnerabilities.map((v) => [v.id, v]));
  const owned = groups ?? buildFindingGroups(vulnerabilities, 0);
  // The first `limit` issues in group order (fix now first), unless all are asked for.
  let budget = showAll ? Infinity : limit;
  const shownGroups = owned.groups
    .filter((group) => group.total > 0)
    .map((group) => {
      const items = group.findingIds.map((id) => byId.get(id)).filter((v): v is VulnerabilityView => v !== undefined);
      const shown = items.slice(0, Math.max(0, budget));
      budget -= shown.length;
      return { group, shown };
    });
  const shownCount = shownGroups.reduce((sum, g) => sum + g.shown.length, 0);
  const hidden = vulnerabilities.length - shownCount;
  return (
    <section aria-labelledby="vulnerabilities-heading" className="space-y-3">
      <h2 id="vulnerabilities-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
        Issues to fix <span className="font-normal text-slate-600 dark:text-slate-400">({vulnerabilities.length})</span>
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
        shownGroups.map(({ group, shown }) => (
          <section key={group.id} aria-labelledby={`group-${group.id}`} data-group={group.id} className="space-y-2">
            <h3 id={`group-${group.id}`} className="text-lg font-bold text-slate-900 dark:text-slate-100">
              {group.title} <span className="font-normal text-slate-600 dark:text-slate-400">({group.total})</span>
            </h3>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {group.description} <span data-testid="group-counts">{groupCountsText(group.counts)}{group.exploited > 0 ? `; ${group.exploited} known to be exploited` : ''}</span>
            </p>
            {shown.length > 0 && (
              <ul className="space-y-2">
                {shown.map((vulnerability) => (
                  <VulnerabilityItem key={vulnerability.id} vulnerability={vulnerability} cves={cves} policies={policies} />
                ))}
              </ul>
            )}
          </section>
        ))
      )}
      {hidden > 0 &&
        (expandable ? (
          <button
            type="button"
            onClick={() => setShowAll(true)}
            className="rounded-md text-sm font-semibold text-blue-700 underline hover:text-blue-900 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-400"
          >
            Show all {vulnerabilities.length} issues
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
