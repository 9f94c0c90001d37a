import type { AgentCisCheckView, AgentPlatform, AgentVulnerabilityView } from './agents.contract.js';
import type { Audit, CheckResult, Finding } from './audit.js';
import { cveDetailsOf, softwareCveRecords } from './cve-details.js';
import {
  ESSENTIAL_EIGHT_DISCLAIMER,
  ESSENTIAL_EIGHT_STATUS_LABELS,
  type EssentialEightEvidence,
  type EssentialEightStatus,
  type EssentialEightStrategyId,
  type EssentialEightStrategyView,
  type EssentialEightView,
  essentialEightStrategyIds,
} from './essential-eight.contract.js';
import { checksRunInFull, landingOf } from './scan-site.js';
import { record, records, str } from './unknown-values.js';

/**
 * Issue 21 "Essential Eight readiness": what the web scan and the endpoint agents observed, mapped to
 * the ACSC Essential Eight at Maturity Level One. Pure: the latest scan, the agents' latest reports
 * and the clock in, one status per strategy out.
 *
 * The mapping is the data below (ESSENTIAL_EIGHT): per strategy, the web-scan findings and agent
 * checks that count as evidence for or against, and the computed rules (patch windows, end of life).
 * A strategy is `evidence-against` when anything counts against it, else `evidence-for` when
 * anything counts for it, else `not-assessable`; `neutral` evidence is shown and moves nothing.
 * One file past 400 lines because it is one table and the rules it names, reviewed together: most of
 * its length is the table's plain text (each strategy's requirement and how-to-check steps).
 *
 * Decisions (kept here, where the rules are):
 * - Known exploited (CISA KEV) CVEs: overdue 48 hours after CISA listed them (kevDateAdded, the date a
 *   working exploit was known), judged at the scan's completion. A KEV CVE without a listing date
 *   (agent reports keep none) counts as overdue: the catalogue's entries are almost always older.
 * - Other CVEs: overdue when the same finding has shown the same CVE in every scan of the domain for
 *   more than two weeks (first seen from the scan history); seen for less, or only once, they are
 *   neutral with the date the two weeks end. An agent keeps no history of its packages, so its
 *   non-KEV vulnerabilities are neutral.
 * - A version match on a distribution's package (backport possible) is neutral: the distribution may
 *   have patched it without changing the version.
 * - An operating system out of security support (endoflife.date) is evidence against patching
 *   operating systems; a supported one is evidence for, never proof that updates are installed.
 * - Multi-factor authentication, application control, Office macros, user application hardening and
 *   backups cannot be seen to be in place from outside: nothing observed counts for them. Services
 *   that can only take a password (Telnet, FTP, VNC, directly exposed Remote Desktop, WordPress
 *   XML-RPC) count against MFA; a downloadable backup or database dump counts against backups.
 * - DECISIONS "Rescan target": the web scan counts *for* a strategy only through a check that ran in
 *   full (scan-site.ts `checksRunInFull`: finished, not limited, on a scan that loaded the site's
 *   landing page). A scan that did not see the site is no evidence that its software is patched;
 *   what it did see against a strategy still counts.
 */

export const KEV_PATCH_WINDOW_HOURS = 48;
export const PATCH_WINDOW_DAYS = 14;

/** An agent's operating system against endoflife.date, looked up by the caller; undefined when the data does not cover it. */
export interface AgentOsSupport {
  /** "Windows 10 22H2", "Ubuntu 22.04". */
  name: string;
  /** End of security support: a date, true (ended, undated), false (none announced). */
  eol: string | boolean;
  ended: boolean;
}

/** What the mapping reads of one agent: its latest scored report. */
export interface EssentialEightAgent {
  hostname: string;
  platform: AgentPlatform;
  /** "Microsoft Windows 11 Pro 10.0.22631". */
  osVersion: string;
  /** The agent's last report. */
  reportedAt: string;
  osSupport?: AgentOsSupport;
  /** As stored with the agent (the first ones, known exploited first). */
  vulnerabilities: readonly AgentVulnerabilityView[];
  vulnerabilityCount: number;
  cisChecks: readonly AgentCisCheckView[];
}

export interface EssentialEightInput {
  domain: string;
  /** The domain's latest completed scan, if any. */
  audit?: Pick<Audit, 'id' | 'targetUrl' | 'completedAt' | 'checks'>;
  /** When each `findingId cveId` pair was first seen in the unbroken run of scans up to `audit` (cveFirstSeen). */
  cveFirstSeen?: ReadonlyMap<string, string>;
  /** The domain's agents that have reported. */
  agents: readonly EssentialEightAgent[];
  /** All the domain's agents, reporting or not (for the sources line); defaults to the reporting ones. */
  agentsTotal?: number;
  now: Date;
}

type Effect = EssentialEightEvidence['effect'];

/** A web-scan finding (by id, or by prefix when the id ends with `*`) that counts for a strategy. */
interface FindingRule {
  readonly ids: readonly string[];
  readonly effect: Effect;
  readonly why: string;
}

/** An agent's configuration check (lambdas/agents/agent-scoring.ts AGENT_CHECKS) when it passed or failed. */
interface AgentCheckRule {
  readonly checkId: string;
  readonly passed?: { readonly effect: Effect; readonly why: string };
  readonly failed?: { readonly effect: Effect; readonly why: string };
}

interface StrategyDefinition {
  readonly title: string;
  readonly requirement: string;
  readonly howToCheck: readonly string[];
  readonly findings: readonly FindingRule[];
  readonly agentChecks: readonly AgentCheckRule[];
  /** The rules that need arithmetic (patch windows, end of life, paths). */
  readonly derived?: (input: EssentialEightInput) => EssentialEightEvidence[];
}

const OPERATING_SYSTEMS: ReadonlySet<string> = new Set(['debian', 'ubuntu', 'rhel', 'centos', 'windows-server', 'windows', 'macos']);

/** The mapping: for each of the Eight at Maturity Level One, what counts, and how to check the rest. */
export const ESSENTIAL_EIGHT: Record<EssentialEightStrategyId, StrategyDefinition> = {
  'patch-applications': {
    title: 'Patch applications',
    requirement:
      'Security fixes for internet-facing services are applied within 48 hours when a working exploit exists (such as a CVE on CISA\'s Known Exploited Vulnerabilities list), and within two weeks otherwise; office software, web browsers, email clients, PDF readers and security products are patched within two weeks; applications the vendor no longer supports are removed.',
    howToCheck: [
      'List the software your website and servers run (web server, CMS and its plugins, PHP or other runtime, hosting control panel) and the version of each.',
      'Compare each version with the vendor\'s security advisories: anything on CISA\'s Known Exploited Vulnerabilities list must be patched within 48 hours, everything else within two weeks of the fix being released.',
      'On every computer, check that automatic updates are on for Microsoft 365 or other office software, web browsers, PDF readers and security software, and that none is more than two weeks behind.',
      'Remove software the vendor no longer supports.',
      'Keep a record of when each fix was released and when you applied it.',
    ],
    findings: [],
    agentChecks: [],
    derived: (input) => [...webPatchEvidence(input), ...agentPatchEvidence(input)],
  },
  'patch-operating-systems': {
    title: 'Patch operating systems',
    requirement:
      'Operating system security fixes are applied within 48 hours on internet-facing servers when a working exploit exists (two weeks otherwise), and within one month on workstations and other servers; operating systems the vendor no longer supports are replaced.',
    howToCheck: [
      'Windows: Settings -> Windows Update -> Update history shows the date of the last quality update; it should be within the last month (run winver to see the version).',
      'macOS: System Settings -> General -> Software Update should show no pending security update older than a month.',
      'Linux servers: "apt list --upgradable" or "dnf check-update" should list no security update older than two weeks, and the release should still be supported.',
      'For a website on managed hosting (Shopify, Wix, Squarespace, managed WordPress), ask the host or check its documentation: it patches the servers for you.',
      'Replace any operating system past its end of support (Windows 10 without Extended Security Updates, Windows Server 2012, Ubuntu 18.04 and older).',
    ],
    findings: [],
    agentChecks: [],
    derived: (input) => [...webOsEvidence(input), ...agentOsEvidence(input)],
  },
  'multi-factor-authentication': {
    title: 'Multi-factor authentication',
    requirement:
      'Staff logins to internet-facing services and to online services that hold your sensitive data (Microsoft 365 or Google Workspace, accounting, banking, your website\'s admin) need a second factor, and so do customers\' logins where you offer them.',
    howToCheck: [
      'Microsoft 365: in the Microsoft Entra admin centre, check that security defaults or a Conditional Access policy require MFA for every user. Google Workspace: Admin console -> Security -> 2-Step Verification -> enforcement on.',
      'Check that your website\'s admin login (WordPress: a two-factor plugin), hosting control panel, domain registrar, DNS host and accounting software each ask for a second factor.',
      'Remote access (VPN, Remote Desktop gateway) should ask for a second factor.',
      'Turn off password-only protocols that bypass MFA: POP, IMAP and SMTP basic authentication, FTP, Telnet.',
    ],
    findings: [
      { ids: ['ports.remote-access.telnet'], effect: 'against', why: 'Telnet takes a password only: it cannot ask for a second factor.' },
      { ids: ['ports.cleartext.ftp'], effect: 'against', why: 'FTP takes a password only: it cannot ask for a second factor.' },
      { ids: ['ports.remote-access.vnc'], effect: 'against', why: 'VNC takes a password only: it cannot ask for a second factor.' },
      {
        ids: ['ports.remote-access.rdp'],
        effect: 'against',
        why: 'Remote Desktop answers directly on the internet; its own login asks for a password only, so MFA needs a gateway or add-on in front of it.',
      },
      { ids: ['wordpress.xmlrpc-enabled'], effect: 'against', why: 'WordPress XML-RPC accepts a user name and password, and most two-factor plugins do not cover it.' },
      { ids: ['ports.remote-access.ssh'], effect: 'neutral', why: 'SSH is reachable: make sure it takes keys (or keys plus a second factor), not passwords.' },
    ],
    agentChecks: [],
  },
  'restrict-administrative-privileges': {
    title: 'Restrict administrative privileges',
    requirement:
      'Administrator rights are given only after a request is approved; administrator accounts are separate from everyday accounts and cannot browse the web or read email; administration is done from a separate environment.',
    howToCheck: [
      'Windows: run "net localgroup administrators" (or Computer Management -> Local Users and Groups -> Administrators). macOS: System Settings -> Users & Groups shows "Admin" under each administrator. Linux: "getent group sudo wheel".',
      'Each person should have an everyday account without administrator rights and, only if their job needs it, a separate administrator account.',
      'Check that administrator accounts have no mailbox and are blocked from browsing the web.',
      'Keep a record of who asked for administrator rights, who approved them and when they were last reviewed.',
    ],
    findings: [
      { ids: ['ports.remote-access.docker'], effect: 'against', why: 'The Docker API answers without any login: anyone on the internet gets administrator control of the server.' },
      {
        ids: ['subdomains.exposed-environment'],
        effect: 'neutral',
        why: 'Admin or development hosts answer on the internet: make sure only approved administrators can reach their logins.',
      },
    ],
    agentChecks: [
      {
        checkId: 'cis.admin-users',
        passed: { effect: 'for', why: 'At most one administrator account besides the built-in ones.' },
        failed: { effect: 'against', why: 'Several accounts hold administrator rights: ML1 expects them only for approved, separate administrator accounts.' },
      },
    ],
  },
  'application-control': {
    title: 'Application control',
    requirement:
      'On workstations, only approved programs, scripts, installers and libraries can run from user profiles and temporary folders.',
    howToCheck: [
      'Windows: in PowerShell, "Get-AppLockerPolicy -Effective" should show rules, or your device management (Intune) should show a Windows Defender Application Control or AppLocker policy applied to every workstation.',
      'As an ordinary user, copy a harmless program you have not approved into Downloads and try to run it: it should be blocked.',
      'Check that blocked attempts are logged and that the allowed list is reviewed at least once a year.',
    ],
    findings: [],
    agentChecks: [
      {
        checkId: 'cis.persistence-signatures',
        failed: { effect: 'neutral', why: 'Unsigned programs start automatically: an application control policy decides whether such programs may run.' },
      },
    ],
    derived: (input) => agentUserFolderPrograms(input),
  },
  'office-macros': {
    title: 'Configure Microsoft Office macro settings',
    requirement:
      'Macros are turned off for users who do not need them, macros in files from the internet are blocked, macros are scanned by antivirus, and users cannot change these settings.',
    howToCheck: [
      'In Intune or Group Policy, check the Office policies: "VBA Macro Notification Settings" set to disable macros (except for approved users), "Block macros from running in Office files from the Internet" enabled, and "Turn on macro runtime scan" enabled.',
      'In Word, File -> Options -> Trust Center -> Trust Center Settings -> Macro Settings: the options should be greyed out because a policy sets them.',
      'Keep a list of the people with a business need for macros, and why.',
    ],
    findings: [],
    agentChecks: [],
  },
  'user-application-hardening': {
    title: 'User application hardening',
    requirement:
      'Web browsers do not run Java or show web advertisements from the internet, Internet Explorer 11 is disabled or removed, and users cannot change browser security settings.',
    howToCheck: [
      'Open chrome://policy or edge://policy on a staff computer: an ad-blocking extension and the security settings should be listed as enforced by policy.',
      'Check that Internet Explorer 11 is disabled (Windows Features) and that Java is not enabled in any browser.',
      'As an ordinary user, try to change a browser security setting: it should be locked.',
    ],
    findings: [],
    agentChecks: [],
  },
  'regular-backups': {
    title: 'Regular backups',
    requirement:
      'Backups of important data, software and settings are made and kept as the business needs, restores are tested, and ordinary accounts cannot reach or change backups other than their own.',
    howToCheck: [
      'List what you back up (files, Microsoft 365 or Google mail and documents, the website and its database, accounting), how often, and where the copies are kept (keep one offline or unchangeable).',
      'Restore a file and the website from backup at least once a year, and write down that it worked.',
      'Check that ordinary staff accounts cannot open or delete the backups, and that no backup is reachable on the website.',
      'Microsoft 365 and Google Workspace keep deleted items for a while only: use a backup service for their data.',
    ],
    findings: [
      { ids: ['exposure.backup-file'], effect: 'against', why: 'A backup file can be downloaded from the website by anyone: backups must be reachable only by authorised accounts.' },
      { ids: ['exposure.sql-dump'], effect: 'against', why: 'A database dump can be downloaded from the website by anyone: backups must be reachable only by authorised accounts.' },
    ],
    agentChecks: [],
  },
};

// ---------------------------------------------------------------------------------------------
// Shared pieces

const DAY_MS = 86_400_000;
const day = (iso: string) => iso.slice(0, 10);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = (items: readonly string[], max = 3) => (items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', '));
const addMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

function scanWhere(input: EssentialEightInput, finding?: Finding): string {
  const audit = input.audit!;
  const evidence = finding?.evidence ? `: ${finding.evidence.length > 160 ? `${finding.evidence.slice(0, 159)}…` : finding.evidence}` : '';
  return `Web scan of ${input.domain} on ${day(audit.completedAt ?? input.now.toISOString())}${evidence}`;
}

const agentWhere = (agent: EssentialEightAgent) => `Agent on ${agent.hostname} (${agent.osVersion || agent.platform}), report of ${day(agent.reportedAt)}`;

function scanEvidence(input: EssentialEightInput, effect: Effect, what: string, finding?: Finding): EssentialEightEvidence {
  return { effect, source: 'web-scan', what, where: scanWhere(input, finding), seenAt: input.audit!.completedAt ?? input.now.toISOString(), ...(finding ? { findingId: finding.id } : {}) };
}

const agentEvidence = (agent: EssentialEightAgent, effect: Effect, what: string): EssentialEightEvidence => ({ effect, source: 'agent', what, where: agentWhere(agent), seenAt: agent.reportedAt });

/** Checks that finished: a skipped or failed check saw nothing, which is no evidence either way. */
const finishedChecks = (audit: EssentialEightInput['audit']): CheckResult[] => (audit?.checks ?? []).filter((check) => check.status === 'ok');

/** Whether the scan's check ran in full, so that what it did not see may count for a strategy. */
const ranInFull = (audit: EssentialEightInput['audit'], name: string): boolean => audit !== undefined && checksRunInFull(audit).has(name);

function matchesRule(rule: FindingRule, id: string): boolean {
  return rule.ids.some((pattern) => (pattern.endsWith('*') ? id.startsWith(pattern.slice(0, -1)) : id === pattern));
}

// ---------------------------------------------------------------------------------------------
// Patch applications

/** The key cveFirstSeen uses: one CVE of one finding. */
export const cveKey = (findingId: string, cveId: string) => `${findingId} ${cveId}`;

/**
 * When each CVE of each finding of the newest scan was first seen in the unbroken run of scans that
 * showed it (newest first in; a scan without it ends the run). Scans' CVEs are read as the report
 * reads them (cve-details.ts), so scans from before per-CVE detail count too.
 */
export function cveFirstSeen(scans: readonly Pick<Audit, 'completedAt' | 'checks'>[]): Map<string, string> {
  const keysOf = (scan: Pick<Audit, 'checks'>) => {
    const keys = new Set<string>();
    const stored = softwareCveRecords(scan.checks);
    for (const check of scan.checks) for (const finding of check.findings) for (const detail of cveDetailsOf(finding, stored) ?? []) keys.add(cveKey(finding.id, detail.id));
    return keys;
  };
  const [newest, ...older] = scans;
  const firstSeen = new Map<string, string>();
  if (!newest?.completedAt) return firstSeen;
  let alive = keysOf(newest);
  for (const key of alive) firstSeen.set(key, newest.completedAt);
  for (const scan of older) {
    if (!scan.completedAt || alive.size === 0) break;
    const keys = keysOf(scan);
    alive = new Set([...alive].filter((key) => keys.has(key)));
    for (const key of alive) firstSeen.set(key, scan.completedAt);
  }
  return firstSeen;
}

/** Software check data groups whose match is by version only on a distribution's package. */
function backportPossible(checks: readonly CheckResult[]): Set<string> {
  const software = checks.find((check) => check.name === 'software');
  return new Set(
    records(record(software?.data)?.vulnerabilities)
      .filter((group) => group.confidence === 'backport-possible')
      .map((group) => str(group.findingId))
      .filter((id): id is string => id !== undefined),
  );
}

/** "Apache HTTP Server 2.4.49" from "Apache HTTP Server 2.4.49 has 3 known vulnerabilities …". */
const productOf = (finding: Finding) => finding.title.replace(/\s+(?:has|may have)\s.*$/, '');

function webPatchEvidence(input: EssentialEightInput): EssentialEightEvidence[] {
  const audit = input.audit;
  if (!audit?.completedAt) return [];
  const observed = audit.completedAt;
  const checks = finishedChecks(audit);
  const stored = softwareCveRecords(audit.checks);
  const backport = backportPossible(audit.checks);
  const out: EssentialEightEvidence[] = [];

  for (const finding of checks.flatMap((check) => check.findings)) {
    const details = cveDetailsOf(finding, stored);
    if (!details) continue;
    const product = productOf(finding);
    const kev = details.filter((d) => d.exploited);
    const other = details.filter((d) => !d.exploited);
    if (backport.has(finding.id)) {
      out.push(scanEvidence(input, 'neutral', `${product}: ${plural(details.length, 'CVE')} match the version, but it is a distribution's package that may already carry the fixes: check the distribution's security tracker.`, finding));
      continue;
    }
    const kevDeadline = (d: (typeof kev)[number]) => (d.kevDateAdded ? addMs(`${d.kevDateAdded}T00:00:00.000Z`, KEV_PATCH_WINDOW_HOURS * 3_600_000) : undefined);
    const overdueKev = kev.filter((d) => {
      const deadline = kevDeadline(d);
      return deadline === undefined || deadline < observed;
    });
    if (overdueKev.length > 0) {
      const named = overdueKev.map((d) => (d.kevDateAdded ? `${d.id} (known exploited since ${d.kevDateAdded})` : `${d.id} (known exploited)`));
      out.push(scanEvidence(input, 'against', `${product} is unpatched more than 48 hours after a working exploit was known: ${list(named)}.`, finding));
      continue;
    }
    const firstSeen = other.map((d) => input.cveFirstSeen?.get(cveKey(finding.id, d.id)) ?? observed).sort()[0];
    const otherOverdue = firstSeen !== undefined && Date.parse(observed) - Date.parse(firstSeen) > PATCH_WINDOW_DAYS * DAY_MS;
    if (otherOverdue) {
      out.push(scanEvidence(input, 'against', `${product} has had ${plural(other.length, 'known vulnerability', 'known vulnerabilities')} unpatched since ${day(firstSeen)}, more than two weeks before this scan (${list(other.map((d) => d.id))}).`, finding));
      continue;
    }
    const parts: string[] = [];
    if (kev.length > 0) parts.push(`${list(kev.map((d) => d.id))} became known exploited on ${list([...new Set(kev.map((d) => d.kevDateAdded!))])}: patch by ${day(kev.map(kevDeadline).sort().at(-1)!)} (48 hours)`);
    if (firstSeen !== undefined) parts.push(`${plural(other.length, 'known vulnerability', 'known vulnerabilities')} first seen on ${day(firstSeen)}: patch by ${day(addMs(firstSeen, PATCH_WINDOW_DAYS * DAY_MS))} (two weeks)`);
    out.push(scanEvidence(input, 'neutral', `${product} is still inside ML1's patch window: ${parts.join('; ')}.`, finding));
  }

  const software = checks.find((check) => check.name === 'software');
  const endOfLife = records(record(software?.data)?.endOfLife);
  const operatingSystemFindings = new Set(endOfLife.filter((s) => OPERATING_SYSTEMS.has(str(s.product) ?? '')).map((s) => str(s.findingId)));
  for (const finding of software?.findings ?? []) {
    if (!finding.id.startsWith('eol.') || operatingSystemFindings.has(finding.id)) continue;
    out.push(scanEvidence(input, 'against', `${finding.title}. ML1 removes software the vendor no longer supports.`, finding));
  }

  if (software && !ranInFull(audit, 'software')) {
    const landing = landingOf(audit.checks);
    out.push(
      scanEvidence(
        input,
        'neutral',
        landing.loaded
          ? 'The software check of this scan did not run in full, so the versions it saw do not show that the site is patched.'
          : `This scan could not load the site's landing page (${landing.reason ?? 'no answer'}), so nothing it did not see counts for patching.`,
      ),
    );
  } else if (software && !out.some((e) => e.effect === 'against')) {
    const versions = records(record(software.data)?.technologies)
      .filter((t) => str(t.version) && t.confidence !== 'low' && t.versionScope !== 'line')
      .map((t) => `${str(t.name) ?? 'unknown'} ${str(t.version)!}`);
    const unique = [...new Set(versions)];
    if (unique.length > 0) {
      out.push(
        scanEvidence(
          input,
          'for',
          `Versions seen on the site: ${list(unique, 6)}. None is past ML1's patch windows for a known vulnerability or out of vendor support.`,
        ),
      );
    }
  }
  return out;
}

function agentPatchEvidence(input: EssentialEightInput): EssentialEightEvidence[] {
  return input.agents.map((agent) => {
    const kev = agent.vulnerabilities.filter((v) => v.kev && !v.backport_possible);
    if (kev.length > 0) {
      const named = [...new Set(kev.map((v) => `${v.cve} in ${v.package_name} ${v.installed_version}`))];
      return agentEvidence(agent, 'against', `${plural(kev.length, 'known exploited vulnerability', 'known exploited vulnerabilities')} (CISA KEV) in installed software: ${list(named)}. KEV entries are almost always older than 48 hours.`);
    }
    if (agent.vulnerabilityCount === 0) return agentEvidence(agent, 'for', 'No known vulnerability in the installed software the agent reported.');
    return agentEvidence(
      agent,
      'neutral',
      `${plural(agent.vulnerabilityCount, 'known vulnerability', 'known vulnerabilities')} in installed software, none known exploited (or only in distribution packages that may be patched). The agent keeps no history, so the two-week window cannot be judged: update them.`,
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Patch operating systems

function webOsEvidence(input: EssentialEightInput): EssentialEightEvidence[] {
  const software = finishedChecks(input.audit).find((check) => check.name === 'software');
  if (!software) return [];
  return records(record(software.data)?.endOfLife)
    .filter((status) => OPERATING_SYSTEMS.has(str(status.product) ?? ''))
    .map((status) => {
      const name = str(status.name) ?? str(status.product)!;
      const eol = typeof status.eol === 'string' ? status.eol : undefined;
      const finding = software.findings.find((f) => f.id === str(status.findingId));
      if (status.ended === true) {
        return scanEvidence(input, 'against', `${name}, seen in the server's banners, is out of security support${eol ? ` since ${eol}` : ''}: ML1 replaces operating systems the vendor no longer supports.`, finding);
      }
      if (!ranInFull(input.audit, 'software')) return scanEvidence(input, 'neutral', `${name} was seen in the server's banners, but the software check did not run in full, so this scan is no evidence for patching it.`);
      return scanEvidence(input, 'for', `${name}, seen in the server's banners, still gets security fixes${eol ? ` (until ${eol})` : ''}. Whether they are installed on time can only be checked on the server.`);
    });
}

function agentOsEvidence(input: EssentialEightInput): EssentialEightEvidence[] {
  return input.agents.map((agent) => {
    const os = agent.osSupport;
    const eol = os && typeof os.eol === 'string' ? os.eol : undefined;
    if (!os) return agentEvidence(agent, 'neutral', `${agent.osVersion || agent.platform}: its support dates are not in our lifecycle data; check it with the vendor.`);
    if (os.ended) return agentEvidence(agent, 'against', `${os.name} is out of security support${eol ? ` since ${eol}` : ''}: ML1 replaces operating systems the vendor no longer supports.`);
    return agentEvidence(agent, 'for', `${os.name} still gets security fixes${eol ? ` (until ${eol})` : ''}. Check on the machine that they are installed within a month.`);
  });
}

// ---------------------------------------------------------------------------------------------
// Application control

/** A Windows startup program in a user profile or temporary folder: where ML1 application control blocks anything unapproved. */
const USER_WRITABLE = /\\Users\\[^\\]+\\(?:AppData|Downloads|Desktop)\\|\\Temp\\|\\Windows\\Temp\\/i;

function agentUserFolderPrograms(input: EssentialEightInput): EssentialEightEvidence[] {
  return input.agents.flatMap((agent) => {
    const check = agent.cisChecks.find((c) => c.id === 'cis.persistence-signatures');
    if (agent.platform !== 'windows' || !check || check.passed || !USER_WRITABLE.test(check.detail)) return [];
    return [agentEvidence(agent, 'against', `An unsigned program starts automatically from a user profile or temporary folder (${check.detail}): ML1 application control would block it.`)];
  });
}

// ---------------------------------------------------------------------------------------------
// The view

function ruleEvidence(input: EssentialEightInput, definition: StrategyDefinition): EssentialEightEvidence[] {
  const out: EssentialEightEvidence[] = [];
  if (input.audit?.completedAt) {
    for (const finding of finishedChecks(input.audit).flatMap((check) => check.findings)) {
      const rule = definition.findings.find((r) => matchesRule(r, finding.id));
      if (rule) out.push(scanEvidence(input, rule.effect, `${finding.title}. ${rule.why}`, finding));
    }
  }
  for (const agent of input.agents) {
    for (const rule of definition.agentChecks) {
      const check = agent.cisChecks.find((c) => c.id === rule.checkId);
      const outcome = check ? (check.passed ? rule.passed : rule.failed) : undefined;
      if (check && outcome) out.push(agentEvidence(agent, outcome.effect, `${check.detail}. ${outcome.why}`));
    }
  }
  return out;
}

const ORDER: Record<Effect, number> = { against: 0, for: 1, neutral: 2 };

/** Against wins, then for; neutral evidence alone leaves a strategy not assessable. */
export function statusOf(evidence: readonly Pick<EssentialEightEvidence, 'effect'>[]): EssentialEightStatus {
  if (evidence.some((e) => e.effect === 'against')) return 'evidence-against';
  if (evidence.some((e) => e.effect === 'for')) return 'evidence-for';
  return 'not-assessable';
}

export function strategyView(id: EssentialEightStrategyId, input: EssentialEightInput): EssentialEightStrategyView {
  const definition = ESSENTIAL_EIGHT[id];
  const evidence = [...ruleEvidence(input, definition), ...(definition.derived?.(input) ?? [])].sort((a, b) => ORDER[a.effect] - ORDER[b.effect]);
  const status = statusOf(evidence);
  return {
    id,
    title: definition.title,
    requirement: definition.requirement,
    status,
    statusLabel: ESSENTIAL_EIGHT_STATUS_LABELS[status],
    evidence,
    howToCheck: [...definition.howToCheck],
  };
}

/** The readiness view of one domain: the Eight in the ACSC's order, each with one status. */
export function essentialEightView(input: EssentialEightInput): EssentialEightView {
  const audit = input.audit?.completedAt ? input.audit : undefined;
  const scoped = { ...input, audit };
  return {
    domain: input.domain,
    maturityLevel: 'ML1',
    disclaimer: ESSENTIAL_EIGHT_DISCLAIMER,
    generatedAt: input.now.toISOString(),
    sources: {
      webScan: audit ? { auditId: audit.id, completedAt: audit.completedAt! } : null,
      agents: { reporting: input.agents.length, total: Math.max(input.agentsTotal ?? input.agents.length, input.agents.length) },
    },
    strategies: essentialEightStrategyIds.map((id) => strategyView(id, scoped)),
  };
}
