/**
 * What `npm run scan -- --json` prints (bin/scan.ts): the whole report, its findings worst first. A
 * software finding carries its CVEs as `cveDetails` (DECISIONS "Per-CVE detail"), known exploited first.
 */
import type { CheckResult, Finding } from '../lambdas/domain/audit.js';
import type { ScannerProduct } from '../lambdas/domain/platform-guides.js';
import { siteAccessOf } from '../lambdas/domain/site-access-view.js';
import type { ScanReport } from '../lambdas/scanner/scan.js';

export const severityOrder: Finding['severity'][] = ['critical', 'high', 'medium', 'low', 'info'];

/**
 * JSON: the whole report, with counts by severity, the grade caps that held the score down, and
 * (DECISIONS "Blocked is a result") the wall that kept the scanner out, with the steps to let
 * `scanner` (the deployment's product) in; null when the scanner saw the site.
 */
export function reportJson(report: ScanReport, scanner?: ScannerProduct) {
  const counts = Object.fromEntries(severityOrder.map((s) => [s, report.findings.filter((f) => f.severity === s).length]));
  const dataOf = (name: string) => report.checks.find((c) => c.name === name)?.data;
  return {
    target: report.target,
    domain: report.domain,
    addresses: report.addresses,
    durationMs: report.durationMs,
    mode: report.mode,
    partial: report.partial,
    notChecked: report.notChecked,
    score: report.score,
    grade: report.grade,
    riskLevel: report.riskLevel,
    gradeCaps: report.caps,
    siteAccess: siteAccessOf(report.checks, scanner),
    /** Per-area grades shown beside the headline score: SSL Labs-style (TLS) and the HTTP Observatory's. */
    grades: {
      tls: (dataOf('tls') as { grade?: string } | undefined)?.grade,
      httpObservatory: (dataOf('http') as { observatory?: { grade?: string; score?: number } } | undefined)?.observatory,
    },
    counts,
    findings: [...report.findings].sort((a, b) => severityOrder.indexOf(a.severity) - severityOrder.indexOf(b.severity)),
    ports: dataOf('ports'),
    tls: dataOf('tls'),
    http: dataOf('http'),
    dns: dataOf('dns'),
    email: dataOf('email'),
    subdomains: dataOf('subdomains'),
    checks: report.checks.map((c: CheckResult) => ({ name: c.name, status: c.status, ...(c.cause ? { cause: c.cause } : {}), durationMs: c.durationMs, reason: c.reason })),
  };
}
