import * as z from 'zod';
import type { Grade, RiskLevel, Severity } from './audit.js';
import { plansIncluding } from './plans.js';
import { isHostName } from './target.js';

/**
 * The endpoint agents' contracts (SPEC §3 Agent, Agent summary, Agent report payload, Debug API
 * response; §7 the installer's registration and telemetry; DECISIONS "Agents API"), shared by the
 * agent-facing API, the dashboard's Local Agents page and the installers. zod and types only.
 *
 * Routes (lambdas/routes.ts names):
 * - agent-facing (the handler authenticates the `Authorization: Bearer` value):
 *   `register-agent` POST /api/agents/registrations (enrollment secret) → 201 AgentRegistrationResponse,
 *   `submit-agent-report` POST /api/agents/reports (the agent's own token) → 200 AgentReportResponse,
 *   `submit-agent-telemetry` POST /api/agents/telemetry (enrollment secret) → 200 AgentTelemetryResponse.
 * - signed in: `list-my-agents` GET /api/me/agents → AgentView[] (as `{ agents }`),
 *   `get-my-agents-summary` GET /api/me/agents/summary[?domain=] → AgentSummaryView,
 *   `get-my-agents-debug` GET /api/me/agents/debug → AgentDebugView,
 *   `get-agent-enrollment` GET /api/me/agents/enrollment → AgentEnrollmentView,
 *   `rotate-agent-secret` POST /api/me/agents/secret → AgentEnrollmentView (the new secret),
 *   `remove-agent` DELETE /api/me/agents/{agentId} → 204 (the machine may then enrol anew),
 *   `get-agent-installer` GET /agents/{installerFile}?domain= → the script, saved as savedInstallerFileName().
 */

// ---------------------------------------------------------------------------------------------
// Constants (SPEC §9 Agents)

export const OSQUERY_VERSION = '5.10.2';
export const AGENT_VERSION = '1.0.0';

export const agentPlatforms = ['windows', 'linux', 'macos'] as const;
export type AgentPlatform = (typeof agentPlatforms)[number];

export const agentStatuses = ['active', 'disconnected', 'error'] as const;
export type AgentStatus = (typeof agentStatuses)[number];

/** SPEC §9: the osquery schedule's intervals, in seconds (the installers' osquery.conf). */
export const AGENT_SCHEDULE_SECONDS = {
  system_info: 3600,
  processes: 300,
  users: 3600,
  listening_ports: 600,
} as const;

/**
 * An agent that has sent nothing for this long is `disconnected`: 30 minutes, i.e. six process
 * reports (every 300 s) missed in a row — long enough for a reboot or a short network outage.
 */
export const AGENT_DISCONNECT_AFTER_SECONDS = 30 * 60;

/** The largest body the agent routes accept (a report with thousands of packages fits easily). */
export const AGENT_MAX_BODY_BYTES = 1024 * 1024;

/** Row caps per result table: enough for a real workstation or server, small enough to store. */
export const AGENT_RESULT_LIMITS = {
  logged_in_users: 200,
  listening_ports: 500,
  high_resource_processes: 50,
  admin_users: 200,
  scheduled_tasks: 1000,
  persistence_mechanisms: 1000,
  installed_packages: 5000,
  network_interfaces: 200,
  running_services: 1000,
  antivirus_software: 20,
} as const;

export const RECENT_AGENT_REPORTS = 5;

/** 'Monitor Plus', 'A or B', 'A, B or C': the plans of the catalogue that include endpoint agents. */
const agentPlanNames = (() => {
  const names = plansIncluding('endpoint-agents').map((plan) => plan.name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}` : (names[0] ?? 'a paid plan');
})();

export const agentMessages = {
  planRequired: `Local endpoint monitoring with the osquery agent comes with ${agentPlanNames}. Upgrade your plan to enrol computers and download the installers; agents already installed keep reporting.`,
  secretRequired: 'Send the enrollment secret as "Authorization: Bearer <secret>".',
  secretInvalid: 'The enrollment secret is not valid. Download a new installer from the dashboard.',
  tokenRequired: 'Send the agent token as "Authorization: Bearer <token>".',
  tokenInvalid: 'Unknown agent or agent token. Register the agent again.',
  domainNotVerified: 'The domain is not one of the account\'s verified domains.',
  agentMismatch: 'The report\'s agent_id does not match the agent token.',
  tooLarge: `The request body is larger than ${AGENT_MAX_BODY_BYTES / 1024 / 1024} MB.`,
  installerFile: 'Unknown installer file.',
  installerDomain: 'Choose one of your verified domains (?domain=).',
  agentExists:
    'This machine is already enrolled. Only the agent itself can re-register it, by sending its current agent token (agent_token); if that token is lost, the account\'s owner or an admin removes the agent in the dashboard (Local Agents → Agent List → Remove) and the machine then enrols anew.',
  agentNotFound: 'There is no such agent in this account.',
  reportReplayed: 'This report, or a later one, was already received: each report needs a sequence greater than the last one sent.',
  reportTooOld: 'timestamp is more than 24 hours old: send a current report.',
  reportAhead: 'timestamp is more than 15 minutes ahead of our clock: check the machine\'s clock.',
} as const;

/** A report is taken only while fresh (issue 28 finding 13): dated at most this long ago… */
export const AGENT_REPORT_MAX_AGE_SECONDS = 24 * 3600;
/** …or at most this far ahead of the API's clock (a machine's clock drifts a little). */
export const AGENT_REPORT_MAX_AHEAD_SECONDS = 15 * 60;

// ---------------------------------------------------------------------------------------------
// Identifiers and shared pieces

/** Agent ids: `agt_` + 26 lower-case base32 characters (128 random bits). */
export const agentIdSchema = z.string({ error: 'agent_id must be text' }).regex(/^agt_[a-z2-7]{26}$/, 'Invalid agent_id');

const hostName = z
  .string({ error: 'A domain is required' })
  .trim()
  .toLowerCase()
  .max(253)
  .refine((value) => isHostName(value), 'Invalid domain');

const isoTimestamp = z.iso.datetime({ offset: true, error: 'timestamp must be an ISO 8601 date and time' });

/** A short free text as sent by a script (osquery reports every column as text). */
const text = (max: number) => z.string({ error: 'Must be text' }).max(max, `At most ${max} characters`);
const col = (max = 512) => text(max).optional();

const version = z.string({ error: 'A version is required' }).regex(/^[0-9A-Za-z.+~:_-]{1,64}$/, 'Invalid version');

// ---------------------------------------------------------------------------------------------
// Agent report payload (SPEC §3): every table is a list of osquery rows, columns as osquery names
// them and, as osquery's JSON output does, as text. The installers' osquery.conf selects exactly
// these columns (lambdas/agents/osquery-config.ts).

/** `system_info` joined with `os_version` (one row). `firewall_enabled` "1"/"0" where the platform reports it. */
export const systemInfoRowSchema = z.strictObject({
  hostname: text(255),
  computer_name: col(255),
  uuid: col(64),
  cpu_brand: col(255),
  cpu_logical_cores: col(16),
  physical_memory: col(32),
  hardware_vendor: col(255),
  hardware_model: col(255),
  os_name: text(255),
  os_version: text(64),
  os_build: col(64),
  kernel_version: col(128),
  firewall_enabled: z.enum(['0', '1', '']).optional(),
});

/** `logged_in_users`. */
export const loggedInUserRowSchema = z.strictObject({
  type: col(32),
  user: text(255),
  tty: col(64),
  host: col(255),
  time: col(32),
  pid: col(16),
});

/** `listening_ports` joined with `processes` (name, path). */
export const listeningPortRowSchema = z.strictObject({
  pid: col(16),
  port: z.string({ error: 'port must be text' }).regex(/^\d{1,5}$/, 'Invalid port'),
  protocol: z.enum(['6', '17', 'tcp', 'udp'], { error: 'protocol must be 6, 17, tcp or udp' }),
  family: col(8),
  address: text(64),
  name: col(255),
  path: col(1024),
});

/** `processes`, the top ones by memory or CPU time. */
export const processRowSchema = z.strictObject({
  pid: text(16),
  name: text(255),
  path: col(1024),
  cmdline: col(2048),
  resident_size: col(32),
  user_time: col(32),
  system_time: col(32),
  uid: col(16),
});

/** Members of the administrators group (Administrators, admin, sudo, wheel). */
export const adminUserRowSchema = z.strictObject({
  username: text(255),
  uid: col(64),
  groupname: col(255),
  description: col(512),
  directory: col(1024),
});

/** `scheduled_tasks` (Windows) or `crontab` (Linux, macOS) rows, in one shape. */
export const scheduledTaskRowSchema = z.strictObject({
  name: text(512),
  action: col(2048),
  path: col(1024),
  enabled: col(8),
  state: col(32),
  schedule: col(128),
  next_run_time: col(32),
});

/**
 * Programs started automatically: `autoexec`/`startup_items` (Windows), `startup_items`/`systemd_units`
 * (Linux), `launchd` (macOS), with the signature where the platform checks one (`authenticode.result`
 * on Windows, `signature.signed` on macOS; on Linux "trusted" when the unit file lies where packages put them,
 * /lib or /usr/lib, and "unknown" elsewhere, such as /etc/systemd/system).
 * `signature_status`: trusted | untrusted | missing | unknown (anything else reads as unknown).
 */
export const persistenceRowSchema = z.strictObject({
  name: text(512),
  path: text(1024),
  source: col(512),
  type: col(64),
  args: col(2048),
  username: col(255),
  signature_status: col(32),
  signer: col(512),
});

/** `programs` (Windows), `deb_packages`, `rpm_packages`, `homebrew_packages`, `apps` (macOS). `source`: the table. */
export const installedPackageRowSchema = z.strictObject({
  name: text(512),
  version: text(128),
  source: z.enum(['programs', 'deb_packages', 'rpm_packages', 'homebrew_packages', 'apps', 'python_packages', 'npm_packages', 'chocolatey_packages'], {
    error: 'source must name the osquery table the package came from',
  }),
  arch: col(32),
  release: col(128),
  publisher: col(512),
});

/** `interface_addresses` joined with `interface_details`. */
export const networkInterfaceRowSchema = z.strictObject({
  interface: text(255),
  address: text(64),
  mask: col(64),
  mac: col(32),
  type: col(32),
});

/** `services` (Windows), `systemd_units` (Linux), `launchd` (macOS) that are running. */
export const runningServiceRowSchema = z.strictObject({
  name: text(512),
  display_name: col(512),
  status: text(64),
  start_type: col(64),
  path: col(1024),
  user_account: col(255),
});

export const antivirusStatuses = ['running', 'stopped', 'outdated', 'unknown'] as const;
export type AntivirusStatus = (typeof antivirusStatuses)[number];

/** SPEC §3 antivirus_software[{name,status}] (`windows_security_products` on Windows; the known daemons elsewhere). */
export const antivirusRowSchema = z.strictObject({
  name: text(255),
  status: z.enum(antivirusStatuses, { error: `status must be one of ${antivirusStatuses.join(', ')}` }),
});

/** SPEC §3 encryption_status{enabled,type}: BitLocker, FileVault, LUKS, or "none". */
export const encryptionStatusSchema = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  type: text(64),
});

const rows = <T extends z.ZodType>(row: T, max: number) => z.array(row).max(max, `At most ${max} rows`);

export const agentReportResultsSchema = z.strictObject({
  system_info: z.array(systemInfoRowSchema).length(1, 'system_info must hold exactly one row'),
  logged_in_users: rows(loggedInUserRowSchema, AGENT_RESULT_LIMITS.logged_in_users),
  listening_ports: rows(listeningPortRowSchema, AGENT_RESULT_LIMITS.listening_ports),
  high_resource_processes: rows(processRowSchema, AGENT_RESULT_LIMITS.high_resource_processes),
  admin_users: rows(adminUserRowSchema, AGENT_RESULT_LIMITS.admin_users),
  scheduled_tasks: rows(scheduledTaskRowSchema, AGENT_RESULT_LIMITS.scheduled_tasks),
  persistence_mechanisms: rows(persistenceRowSchema, AGENT_RESULT_LIMITS.persistence_mechanisms),
  installed_packages: rows(installedPackageRowSchema, AGENT_RESULT_LIMITS.installed_packages),
  network_interfaces: rows(networkInterfaceRowSchema, AGENT_RESULT_LIMITS.network_interfaces),
  running_services: rows(runningServiceRowSchema, AGENT_RESULT_LIMITS.running_services),
  antivirus_software: rows(antivirusRowSchema, AGENT_RESULT_LIMITS.antivirus_software),
  encryption_status: encryptionStatusSchema,
});
export type AgentReportResults = z.output<typeof agentReportResultsSchema>;

/** SPEC §3 Agent report payload: `POST /api/agents/reports` with the agent's token. */
export const agentReportSchema = z.strictObject({
  client_domain: hostName,
  agent_id: agentIdSchema,
  timestamp: isoTimestamp,
  /**
   * Greater than the agent's previous report's (issue 28 finding 13: a replayed report is refused).
   * The installers' reporters send the Unix time in seconds; any increasing number will do.
   */
  sequence: z
    .number({ error: 'sequence must be a whole number' })
    .int('sequence must be a whole number')
    .min(1, 'sequence must be a positive whole number')
    .max(Number.MAX_SAFE_INTEGER, 'sequence is too large'),
  agent_version: version,
  platform: z.enum(agentPlatforms, { error: `platform must be one of ${agentPlatforms.join(', ')}` }),
  results: agentReportResultsSchema,
});
export type AgentReportInput = z.input<typeof agentReportSchema>;
export type AgentReport = z.output<typeof agentReportSchema>;

export type SystemInfoRow = z.output<typeof systemInfoRowSchema>;
export type ListeningPortRow = z.output<typeof listeningPortRowSchema>;
export type AdminUserRow = z.output<typeof adminUserRowSchema>;
export type PersistenceRow = z.output<typeof persistenceRowSchema>;
export type InstalledPackageRow = z.output<typeof installedPackageRowSchema>;
export type RunningServiceRow = z.output<typeof runningServiceRowSchema>;

export interface AgentReportResponse {
  success: true;
  agent_id: string;
  received_at: string;
}

// ---------------------------------------------------------------------------------------------
// Registration and install telemetry (SPEC §7): both authenticated with the enrollment secret.

/** `POST /api/agents/registrations`: the installer registers the machine once osquery is installed. */
export const agentRegistrationSchema = z.strictObject({
  email: z.email({ error: 'A valid email is required' }).max(254),
  domain: hostName,
  hostname: z.string({ error: 'hostname is required' }).trim().min(1, 'hostname is required').max(255),
  os: z.enum(agentPlatforms, { error: `os must be one of ${agentPlatforms.join(', ')}` }),
  osquery_version: version,
  agent_version: version,
  timestamp: isoTimestamp,
  /** The agent's current token, when it registers a machine already enrolled (a reinstall): without it the enrollment secret enrols only new machines. */
  agent_token: z.string({ error: 'agent_token must be text' }).max(200, 'At most 200 characters').optional(),
});
export type AgentRegistrationInput = z.input<typeof agentRegistrationSchema>;
export type AgentRegistration = z.output<typeof agentRegistrationSchema>;

/** 201: the per-agent identity. The token is shown once; only its hash is stored. */
export interface AgentRegistrationResponse {
  agent_id: string;
  agent_token: string;
}

export const installStatuses = ['started', 'completed', 'failed'] as const;
export type InstallStatus = (typeof installStatuses)[number];

/** SPEC §4 "Agent install steps", in order: the step an install message is about (the failing one on 'failed'). */
export const agentInstallSteps = ['admin-check', 'download', 'install', 'configure', 'validate', 'register'] as const;
export type AgentInstallStep = (typeof agentInstallSteps)[number];
export const isAgentInstallStep = (value: string): value is AgentInstallStep => (agentInstallSteps as readonly string[]).includes(value);

/** `POST /api/agents/telemetry`: install progress and failures (SPEC §7, 10 s timeout on the script's side). */
export const agentTelemetrySchema = z.strictObject({
  customer_email: z.email({ error: 'A valid email is required' }).max(254),
  customer_domain: hostName,
  hostname: z.string({ error: 'hostname is required' }).trim().min(1, 'hostname is required').max(255),
  os_version: text(255),
  install_status: z.enum(installStatuses, { error: `install_status must be one of ${installStatuses.join(', ')}` }),
  install_message: text(1000),
  install_details: text(4000),
  /** Optional (installers before it did not send it): the step this message is about; on 'failed', the step that failed. */
  install_step: z.enum(agentInstallSteps, { error: `install_step must be one of ${agentInstallSteps.join(', ')}` }).optional(),
  timestamp: isoTimestamp,
  installer_version: version,
});
export type AgentTelemetryInput = z.input<typeof agentTelemetrySchema>;
export type AgentTelemetry = z.output<typeof agentTelemetrySchema>;

export interface AgentTelemetryResponse {
  success: true;
}

// ---------------------------------------------------------------------------------------------
// What the dashboard reads

/** A CVE's severity as the knowledge base rates it (CVSS band, else the vendor's rating); `unknown` when unrated. */
export type AgentVulnerabilitySeverity = Exclude<Severity, 'info'> | 'unknown';

/** At most this many vulnerabilities are listed per agent (known exploited first, then by score); the count is exact. */
export const AGENT_VULNERABILITIES_LISTED = 100;

export interface AgentVulnerabilityView {
  cve: string;
  severity: AgentVulnerabilitySeverity;
  /** CVSS base score (0–10); for an unscored CVE the lower end of its rating's band, 0 when unrated. */
  score: number;
  /** One line of the knowledge base's summary. */
  title: string;
  package_name: string;
  installed_version: string;
  /** The lowest version the knowledge base knows this CVE does not affect, when it knows one. */
  fixed_version: string | null;
  /** On CISA's Known Exploited Vulnerabilities list. */
  kev: boolean;
  /**
   * A distribution package (deb, rpm): the distribution may have backported the fix while keeping the
   * upstream version number, so the match is a possibility (the package's finding weighs one level less).
   */
  backport_possible: boolean;
}

/** One configuration check in the spirit of the CIS benchmarks; `id` is stable (`cis.disk-encryption`). */
export interface AgentCisCheckView {
  id: string;
  title: string;
  passed: boolean;
  /** What was seen: "BitLocker off", "3 administrators: alice, bob, carol". */
  detail: string;
}

/** SPEC §3 Agent. Scores are null until the first report arrives. */
export interface AgentView {
  agent_id: string;
  /** `{product-slug}-{domain}` (the Wazuh naming, SPEC §3). */
  agent_name: string;
  hostname: string;
  /** The first non-loopback IPv4 (else IPv6) address the agent reported; the registering address until then. */
  ip: string;
  os: AgentPlatform;
  /** The OS name and version as reported ("Windows 11 Pro 23H2"), empty before the first report. */
  os_version: string;
  /** The agent's version. */
  version: string;
  osquery_version: string;
  client_domain: string;
  status: AgentStatus;
  /** Last time the agent was heard from (registration or report). */
  last_keep_alive: string;
  registered_at: string;
  last_report_at: string | null;
  vulnerabilities: AgentVulnerabilityView[];
  vulnerability_count: number;
  cis_fail_count: number;
  cis_checks: AgentCisCheckView[];
  security_score: number | null;
  security_grade: Grade | null;
  risk_level: RiskLevel | null;
}

export interface AgentListView {
  agents: AgentView[];
}

/** SPEC §3 Agent summary. `domain` is the `?domain=` asked for, or null for all the account's agents. */
export interface AgentSummaryView {
  domain: string | null;
  agents_found: number;
  agents_active: number;
  vulnerabilities_total: number;
  cis_fails_total: number;
  agents_data: AgentView[];
}

export interface AgentRecentReportView {
  agent_id: string;
  client_domain: string;
  audit_timestamp: string;
}

/** One install telemetry message (`POST /api/agents/telemetry`), as the installer sent it. */
export interface AgentInstallEventView {
  hostname: string;
  customer_domain: string;
  os_version: string;
  install_status: InstallStatus;
  install_message: string;
  /** The step the message is about (on 'failed', the step that failed); null when the installer did not say. */
  install_step: AgentInstallStep | null;
  timestamp: string;
  received_at: string;
}

/**
 * SPEC §3 Debug API response (`audit_count`: reports received; `recent_audits`: the last five, newest
 * first, `audit_timestamp` being when the API received each). `recent_installs`: the last five install telemetry messages, newest first (the Install
 * Agent walkthrough shows real progress from them).
 */
export interface AgentDebugView {
  success: boolean;
  audit_count: number;
  last_audit: string | null;
  recent_audits: AgentRecentReportView[];
  recent_installs: AgentInstallEventView[];
}

export interface AgentInstallerView {
  platform: AgentPlatform;
  /** The path to download, without `?domain=`: `/agents/{product-slug}-osquery-installer.bat|sh`. */
  path: string;
  /** The file name served (`{product-slug}-osquery-installer.bat|sh`). */
  fileName: string;
}

/**
 * `GET /api/me/agents/enrollment`: what the Install Agent tab shows. The secret is shown again on every
 * visit (the install commands carry it), so it is stored readable — see AgentEnrollment in lambdas/domain/agents.ts.
 */
export interface AgentEnrollmentView {
  secret: string;
  rotatedAt: string;
  /** The base URL the agents post to (`{apiBase}/api/agents/reports`), the site's own origin. */
  apiBase: string;
  /** The account's email, which the installers send as `email` / `customer_email`. */
  email: string;
  /** Verified domains an installer can be generated for (`?domain=`). */
  domains: string[];
  installers: AgentInstallerView[];
  osqueryVersion: string;
  agentVersion: string;
  /** AGENT_DISCONNECT_AFTER_SECONDS. */
  disconnectAfterSeconds: number;
}

// ---------------------------------------------------------------------------------------------
// Installer names (SPEC §2, §9)

export type InstallerExtension = 'bat' | 'sh';

export function installerExtension(platform: AgentPlatform): InstallerExtension {
  return platform === 'windows' ? 'bat' : 'sh';
}

/** The served name: `{product-slug}-osquery-installer.bat|sh`. */
export function installerFileName(slug: string, extension: InstallerExtension): string {
  return `${slug}-osquery-installer.${extension}`;
}

/** The name the download is saved under (SPEC §9: the domain with dots turned into hyphens). */
export function savedInstallerFileName(domain: string, extension: InstallerExtension): string {
  return `${domain.replace(/\./g, '-')}-osquery-installer.${extension}`;
}

/** `/agents/{installerFile}?domain={domain}`. */
export function installerDownloadPath(slug: string, extension: InstallerExtension, domain: string): string {
  return `/agents/${installerFileName(slug, extension)}?domain=${encodeURIComponent(domain)}`;
}

/** SPEC §3: agents are named `{product}-{domain}`. */
export function agentName(slug: string, domain: string): string {
  return `${slug}-${domain}`;
}

/** `GET /api/me/agents/summary` query. */
export const agentSummaryQuerySchema = z.object({ domain: hostName.optional() });
