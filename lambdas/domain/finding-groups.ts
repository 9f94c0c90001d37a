import type { CveDetail, IssueSeverity, Severity } from './audit.js';
import { SCORE_PENALTY } from './scoring.js';

/**
 * Issue 29 item 7: the report's issues grouped the way an owner decides what to do, not by scanner
 * area. "Fix now": known exploited (a CVE in CISA's KEV catalog) or critical; "Fix this month": high
 * and medium; "Good practice": low. Observations (info) stay apart: the score does not count them.
 *
 * Built once here from the view's own lists, so the results page, the PDF, the email and the API
 * show the same groups, and their counts add up to the score's inputs (DECISIONS "Issues vs
 * observations": score = 100 − 20 × critical − 5 × (high + medium + low), before the grade caps).
 */

export const findingGroupIds = ['fix-now', 'fix-this-month', 'good-practice'] as const;
export type FindingGroupId = (typeof findingGroupIds)[number];

export const FINDING_GROUP_TEXT: Readonly<Record<FindingGroupId, { title: string; description: string }>> = {
  'fix-now': { title: 'Fix now', description: 'Known to be exploited in attacks, or critical: fix these first, this week.' },
  'fix-this-month': { title: 'Fix this month', description: 'High and medium issues: plan them in, one at a time.' },
  'good-practice': { title: 'Good practice', description: 'Low issues: small hardening steps that make the site harder to attack.' },
};

export interface FindingGroupView {
  id: FindingGroupId;
  title: string;
  description: string;
  /** The group's issues by severity: each issue is in exactly one group. */
  counts: Record<IssueSeverity, number>;
  total: number;
  /** Issues in the group with a known-exploited (CISA KEV) CVE. */
  exploited: number;
  /** The group's issues, in the report's order (worst first). */
  findingIds: string[];
}

export interface FindingGroupsView {
  /** Always the three groups, in order; a group may be empty. */
  groups: FindingGroupView[];
  /** Observations (info): listed apart, not counted in the score. */
  observations: number;
  /** What the score's formula counted: the groups' counts summed. */
  scoreInputs: { critical: number; highMediumLow: number; deducted: number };
}

interface GroupedIssue {
  id: string;
  severity: IssueSeverity;
  cveDetails?: readonly Pick<CveDetail, 'exploited'>[];
}

export const isExploited = (issue: Pick<GroupedIssue, 'cveDetails'>): boolean => issue.cveDetails?.some((cve) => cve.exploited) ?? false;

export function findingGroupOf(issue: GroupedIssue): FindingGroupId {
  if (issue.severity === 'critical' || isExploited(issue)) return 'fix-now';
  if (issue.severity === 'high' || issue.severity === 'medium') return 'fix-this-month';
  return 'good-practice';
}

/** `issues`: the view's vulnerabilities (issues only, worst first); `observations`: how many info findings. */
export function buildFindingGroups(issues: readonly GroupedIssue[], observations: number): FindingGroupsView {
  const groups: FindingGroupView[] = findingGroupIds.map((id) => ({
    id,
    ...FINDING_GROUP_TEXT[id],
    counts: { critical: 0, high: 0, medium: 0, low: 0 },
    total: 0,
    exploited: 0,
    findingIds: [],
  }));
  for (const issue of issues) {
    const group = groups.find((g) => g.id === findingGroupOf(issue))!;
    group.counts[issue.severity] += 1;
    group.total += 1;
    if (isExploited(issue)) group.exploited += 1;
    group.findingIds.push(issue.id);
  }
  const sum = (severity: Exclude<Severity, 'info'>) => groups.reduce((total, g) => total + g.counts[severity], 0);
  const critical = sum('critical');
  const highMediumLow = sum('high') + sum('medium') + sum('low');
  return { groups, observations, scoreInputs: { critical, highMediumLow, deducted: SCORE_PENALTY.critical * critical + SCORE_PENALTY.other * highMediumLow } };
}

/** "2 critical, 1 high" for a group's counts; "" when empty. */
export function groupCountsText(counts: Readonly<Record<IssueSeverity, number>>): string {
  return (['critical', 'high', 'medium', 'low'] as const)
    .filter((severity) => counts[severity] > 0)
    .map((severity) => `${counts[severity]} ${severity}`)
    .join(', ');
}

/** A group's count as the emails write it: "2 (1 critical, 1 high; 1 known exploited)", or "0". */
export function groupSummaryText(group: Pick<FindingGroupView, 'total' | 'counts' | 'exploited'>): string {
  if (group.total === 0) return '0';
  return `${group.total} (${groupCountsText(group.counts)}${group.exploited > 0 ? `; ${group.exploited} known exploited` : ''})`;
}

/** The groups of a scan's findings (info ones are observations), as the report builds them. */
export function findingGroupsOf(findings: readonly (GroupedIssue | { id: string; severity: 'info' })[]): FindingGroupsView {
  const issues = findings.filter((finding): finding is GroupedIssue => finding.severity !== 'info');
  return buildFindingGroups(issues, findings.length - issues.length);
}

/** The groups as the report-ready email lists them, one line each: "Fix now: 2 (1 critical, 1 high)". */
export function findingGroupLines(view: FindingGroupsView): string[] {
  return view.groups.map((group) => `${group.title}: ${groupSummaryText(group)}`);
}
