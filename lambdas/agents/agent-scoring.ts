/**
 * Scores one agent report (issue 10 "Scoring each agent"): installed packages matched against the
 * knowledge base the scanner uses (CVE, CVSS, CISA KEV), and configuration checks in the spirit of
 * the CIS benchmarks. Pure: the report in, the scored facts out.
 *
 * The score is the product's one formula (lambdas/domain/scoring.ts, DECISIONS "Issues vs
 * observations"): 100 − 20 × critical − 5 × (high + medium + low) over the agent's issues, where an
 * issue is one vulnerable package (however many CVEs it has — the scanner's grouping, so an old
 * MySQL does not sink the score by itself 1,000 times) or one failed check.
 */
import type { Grade, RiskLevel, Severity } from '../domain/audit.js';
import {
  AGENT_VULNERABILITIES_LISTED,
  type AdminUserRow,
  type AgentCisCheckView,
  type AgentReport,
  type AgentVulnerabilityView,
  type ListeningPortRow,
  type PersistenceRow,
} from '../domain/agents.contract.js';
import type { StoredAgentScore } from '../domain/agents.js';
import { grade, riskLevel, riskScore } from '../domain/scoring.js';
import { findingSeverity, matchVulnerabilities, type MatchedVulnerability } from '../scanner/vulndb/index.js';
import { rankScore } from '../scanner/vulndb/match.js';
import { isDistributionPackage, productOfPackage, upstreamVersion } from './package-products.js';

/** Stable ids of the configuration checks (history and the dashboard compare by them). */
export const AGENT_CHECKS = {
  diskEncryption: 'cis.disk-encryption',
  antivirus: 'cis.antivirus',
  firewall: 'cis.firewall',
  adminUsers: 'cis.admin-users',
  riskyPorts: 'cis.risky-ports',
  persistence: 'cis.persistence-signatures',
} as const;
export type AgentCheckId = (typeof AGENT_CHECKS)[keyof typeof AGENT_CHECKS];

/** What a failed check weighs in the score. */
export const AGENT_CHECK_SEVERITY: Record<AgentCheckId, Exclude<Severity, 'info'>> = {
  'cis.disk-encryption': 'high',
  'cis.antivirus': 'high',
  'cis.firewall': 'high',
  'cis.admin-users': 'medium',
  'cis.risky-ports': 'high',
  'cis.persistence-signatures': 'medium',
};

/**
 * Services that should not listen beyond the machine itself: cleartext logins (FTP 21, Telnet 23),
 * file sharing (SMB 445), remote desktops (RDP 3389, VNC 5900). Reachable remote access belongs
 * behind a VPN or a gateway.
 */
export const RISKY_PORTS: Readonly<Record<number, string>> = { 21: 'FTP', 23: 'Telnet', 445: 'SMB', 3389: 'RDP', 5900: 'VNC' };

export interface AgentScore {
  /** Every matched vulnerability, known exploited first, then by score (the caller lists the first ones). */
  vulnerabilities: AgentVulnerabilityView[];
  vulnerability_count: number;
  cis_checks: AgentCisCheckView[];
  cis_fail_count: number;
  security_score: number;
  security_grade: Grade;
  risk_level: RiskLevel;
  /** The first non-loopback, non-link-local address the agent reported (IPv4 preferred); '' when none. */
  ip: string;
  /** "Microsoft Windows 11 Pro 10.0.22631", "Ubuntu 22.04.4 LTS". */
  os_version: string;
}

function summaryLine(summary: string): string {
  const text = summary.replace(/…$/, '').trim();
  if (text.length <= 140) return text.replace(/\.$/, '');
  return `${text.slice(0, 139).replace(/\s+\S*$/, '')}…`;
}

interface PackageMatch {
  packageName: string;
  installedVersion: string;
  distribution: boolean;
  vulnerabilities: MatchedVulnerability[];
}

/** One match per product and version: `openssl` and `libssl3` at the same version are one OpenSSL. */
function matchPackages(report: AgentReport): PackageMatch[] {
  const groups = new Map<string, PackageMatch>();
  for (const row of report.results.installed_packages) {
    const product = productOfPackage(row);
    if (!product) continue;
    const version = upstreamVersion(row.version);
    const match = matchVulnerabilities(product, version);
    if (match.matchedVersion === undefined) continue;
    const key = `${product}@${match.matchedVersion}`;
    const existing = groups.get(key);
    // A distribution's package and an upstream build of the same version: the upstream one decides.
    const distribution = isDistributionPackage(row.source) && (existing?.distribution ?? true);
    if (existing) existing.distribution = distribution;
    else groups.set(key, { packageName: row.name, installedVersion: row.version, distribution, vulnerabilities: match.vulnerabilities });
  }
  return [...groups.values()].filter((group) => group.vulnerabilities.length > 0);
}

function vulnerabilityViews(matches: readonly PackageMatch[]): AgentVulnerabilityView[] {
  const views = matches.flatMap((match) =>
    match.vulnerabilities.map(
      (v): AgentVulnerabilityView => ({
        cve: v.id,
        severity: v.severity,
        score: rankScore(v),
        title: summaryLine(v.summary),
        package_name: match.packageName,
        installed_version: match.installedVersion,
        fixed_version: v.fixedIn ?? null,
        kev: v.exploited,
        backport_possible: match.distribution,
      }),
    ),
  );
  return views.sort((a, b) => Number(b.kev) - Number(a.kev) || b.score - a.score || a.cve.localeCompare(b.cve));
}

const isLoopback = (address: string) => /^127\./.test(address) || address === '::1' || address === 'localhost';
const isLinkLocal = (address: string) => /^169\.254\./.test(address) || /^fe80:/i.test(address);
const isIpv4 = (address: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(address);

function primaryAddress(report: AgentReport): string {
  const candidates = report.results.network_interfaces.map((row) => row.address.replace(/%.*$/, '')).filter((a) => a && !isLoopback(a) && !isLinkLocal(a));
  return candidates.find(isIpv4) ?? candidates[0] ?? '';
}

function osVersion(report: AgentReport): string {
  const info = report.results.system_info[0]!;
  return info.os_name.includes(info.os_version) ? info.os_name : `${info.os_name} ${info.os_version}`.trim();
}

const list = (items: readonly string[], max = 3) => (items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', '));

function diskEncryptionCheck(report: AgentReport): AgentCisCheckView {
  const { enabled, type } = report.results.encryption_status;
  return {
    id: AGENT_CHECKS.diskEncryption,
    title: 'System disk is encrypted',
    passed: enabled,
    detail: enabled ? `${type || 'Disk encryption'} on` : 'Disk encryption is off: a lost or stolen device exposes its data',
  };
}

/**
 * Windows and macOS only: the CIS benchmarks for Linux servers do not ask for an antivirus, so a
 * Linux agent is not marked down for having none.
 */
function antivirusCheck(report: AgentReport): AgentCisCheckView | undefined {
  if (report.platform === 'linux') return undefined;
  const products = report.results.antivirus_software;
  const running = products.filter((p) => p.status === 'running');
  let detail: string;
  if (running.length > 0) detail = `${list(running.map((p) => p.name))} running`;
  else if (products.length > 0) detail = `No antivirus running (${list(products.map((p) => `${p.name}: ${p.status}`))})`;
  else detail = 'No antivirus found';
  return { id: AGENT_CHECKS.antivirus, title: 'An antivirus is running', passed: running.length > 0, detail };
}

/** Only when the platform reported the firewall's state. */
function firewallCheck(report: AgentReport): AgentCisCheckView | undefined {
  const state = report.results.system_info[0]!.firewall_enabled;
  if (state !== '0' && state !== '1') return undefined;
  return { id: AGENT_CHECKS.firewall, title: 'Host firewall is on', passed: state === '1', detail: state === '1' ? 'Firewall on' : 'Firewall off' };
}

/**
 * Accounts with administrator rights beyond one. The system's own accounts are not people: root (uid
 * 0) and Windows' built-in Administrator (RID 500, disabled out of the box).
 */
function administrators(rows: readonly AdminUserRow[], platform: AgentReport['platform']): string[] {
  const builtIn = (row: AdminUserRow) => (platform === 'windows' ? row.uid === '500' || /-500$/.test(row.uid ?? '') : row.uid === '0' || row.username === 'root');
  return [...new Set(rows.filter((row) => !builtIn(row)).map((row) => row.username))].sort();
}

function adminUsersCheck(report: AgentReport): AgentCisCheckView {
  const admins = administrators(report.results.admin_users, report.platform);
  return {
    id: AGENT_CHECKS.adminUsers,
    title: 'At most one administrator account',
    passed: admins.length <= 1,
    detail: admins.length === 0 ? 'No administrator accounts besides the built-in ones' : `${admins.length} administrator${admins.length === 1 ? '' : 's'}: ${list(admins, 5)}`,
  };
}

/** `0.0.0.0:23 (telnetd)`: a risky service listening on an address other than loopback. */
export function riskyListeners(rows: readonly ListeningPortRow[]): ListeningPortRow[] {
  return rows.filter((row) => RISKY_PORTS[Number(row.port)] !== undefined && !isLoopback(row.address));
}

function riskyPortsCheck(report: AgentReport): AgentCisCheckView {
  const risky = riskyListeners(report.results.listening_ports);
  const described = [...new Set(risky.map((row) => `${row.port} ${RISKY_PORTS[Number(row.port)]}${row.name ? ` (${row.name})` : ''} on ${row.address}`))];
  return {
    id: AGENT_CHECKS.riskyPorts,
    title: 'No risky services listening on the network',
    passed: risky.length === 0,
    detail: risky.length === 0 ? 'FTP, Telnet, SMB, RDP and VNC are not listening beyond this machine' : `Listening: ${list(described)}`,
  };
}

/** Anything but `trusted` (a valid signature, or on Linux a file that belongs to an installed package). */
export function unsignedPersistence(rows: readonly PersistenceRow[]): PersistenceRow[] {
  return rows.filter((row) => (row.signature_status ?? '').toLowerCase() !== 'trusted');
}

function persistenceCheck(report: AgentReport): AgentCisCheckView {
  const unsigned = unsignedPersistence(report.results.persistence_mechanisms);
  return {
    id: AGENT_CHECKS.persistence,
    title: 'Programs that start automatically are signed',
    passed: unsigned.length === 0,
    detail:
      unsigned.length === 0
        ? `${report.results.persistence_mechanisms.length} startup entries, all signed`
        : `${unsigned.length} unsigned or unknown: ${list(unsigned.map((row) => `${row.name} (${row.path})`))}`,
  };
}

/** The configuration checks that apply to the report's platform, in a fixed order. */
export function configurationChecks(report: AgentReport): AgentCisCheckView[] {
  return [diskEncryptionCheck(report), antivirusCheck(report), firewallCheck(report), adminUsersCheck(report), riskyPortsCheck(report), persistenceCheck(report)].filter(
    (check): check is AgentCisCheckView => check !== undefined,
  );
}

export function scoreAgentReport(report: AgentReport): AgentScore {
  const matches = matchPackages(report);
  const vulnerabilities = vulnerabilityViews(matches);
  const checks = configurationChecks(report);
  const failed = checks.filter((check) => !check.passed);
  const issues = [
    ...matches.map((match) => ({ severity: findingSeverity(match.vulnerabilities, match.distribution ? 'backport-possible' : 'version-match') })),
    ...failed.map((check) => ({ severity: AGENT_CHECK_SEVERITY[check.id as AgentCheckId] })),
  ];
  const score = riskScore(issues);
  return {
    vulnerabilities,
    vulnerability_count: vulnerabilities.length,
    cis_checks: checks,
    cis_fail_count: failed.length,
    security_score: score,
    security_grade: grade(score),
    risk_level: riskLevel(score),
    ip: primaryAddress(report),
    os_version: osVersion(report),
  };
}

/** What is kept of a score with the agent: the first AGENT_VULNERABILITIES_LISTED vulnerabilities, the rest as counts. */
export function storedScore(score: AgentScore): StoredAgentScore {
  return {
    vulnerabilities: score.vulnerabilities.slice(0, AGENT_VULNERABILITIES_LISTED),
    vulnerabilityCount: score.vulnerability_count,
    cisChecks: score.cis_checks,
    cisFailCount: score.cis_fail_count,
    securityScore: score.security_score,
    securityGrade: score.security_grade,
    riskLevel: score.risk_level,
  };
}
