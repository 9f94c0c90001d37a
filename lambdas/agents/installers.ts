/**
 * Installers generated per customer and domain (issue 10 "Installers"; DECISIONS "Agents API"): the
 * templates in windows-installer.template.ts and unix-installer.template.ts with the account's
 * enrollment secret, email, domain and the API's address filled in, and the osquery schedule and
 * reporter queries from osquery-queries.ts. Every value is quoted for the language it lands in.
 */
import { AGENT_VERSION, type AgentPlatform, installerFileName, type InstallerExtension, OSQUERY_VERSION } from '../domain/agents.contract.js';
import { osqueryConfig, PLATFORM_QUERIES, type QueriedField } from './osquery-queries.js';
import { UNIX_INSTALLER, UNIX_REPORTER } from './unix-installer.template.js';
import { WINDOWS_BATCH_HEADER, WINDOWS_POWERSHELL, WINDOWS_REPORTER } from './windows-installer.template.js';

export interface InstallerSettings {
  productName: string;
  productSlug: string;
  /** Where agents post: the site's origin (`{apiBase}/api/agents/…`). */
  apiBase: string;
  enrollmentSecret: string;
  customerEmail: string;
  clientDomain: string;
}

/** The official osquery package host (the osquery project's own). */
export const OSQUERY_MSI_URL = `https://pkg.osquery.io/windows/osquery-${OSQUERY_VERSION}.msi`;

/** A PowerShell single-quoted string: only the quote itself needs doubling. */
export function psQuote(value: string): string {
  return `'${value.replace(/['‘’‚‛]/g, "''")}'`;
}

/** A POSIX shell single-quoted string: a quote ends it, so it becomes '\''. */
export function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Text for a comment line: no line breaks or control characters. */
function commentText(value: string): string {
  return value.replace(/\p{Cc}+/gu, ' ');
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Installer template placeholder ${whole} has no value`);
    return value;
  });
}

const FIELDS = (platform: AgentPlatform) => Object.keys(PLATFORM_QUERIES[platform]) as QueriedField[];

/** The queries as PowerShell hashtable entries (`field = '…'`). */
function powershellQueries(): string {
  return FIELDS('windows')
    .map((field) => `  ${field} = ${psQuote(PLATFORM_QUERIES.windows[field])}`)
    .join('\n');
}

/** The queries as shell variables for both Unix platforms (`Q_field=…`, chosen by $PLATFORM). */
function shellQueries(): string {
  const lines = ['if [ "$PLATFORM" = macos ]; then'];
  for (const field of FIELDS('macos')) lines.push(`  Q_${field}=${shQuote(PLATFORM_QUERIES.macos[field])}`);
  lines.push('else');
  for (const field of FIELDS('linux')) lines.push(`  Q_${field}=${shQuote(PLATFORM_QUERIES.linux[field])}`);
  lines.push('fi');
  return lines.join('\n');
}

function windowsInstaller(settings: InstallerSettings): string {
  const common = {
    AGENT_VERSION: psQuote(AGENT_VERSION),
  };
  const reporter = fill(WINDOWS_REPORTER, { ...common, QUERIES: powershellQueries() });
  const header = fill(WINDOWS_BATCH_HEADER, {
    PRODUCT_COMMENT: commentText(settings.productName),
    DOMAIN_COMMENT: settings.clientDomain,
    FILE_COMMENT: installerFileName(settings.productSlug, 'bat'),
  });
  const script = fill(WINDOWS_POWERSHELL, {
    ...common,
    PRODUCT_NAME: psQuote(settings.productName),
    API_BASE: psQuote(settings.apiBase),
    ENROLLMENT_SECRET: psQuote(settings.enrollmentSecret),
    CUSTOMER_EMAIL: psQuote(settings.customerEmail),
    CLIENT_DOMAIN: psQuote(settings.clientDomain),
    OSQUERY_VERSION: psQuote(OSQUERY_VERSION),
    MSI_URL: psQuote(OSQUERY_MSI_URL),
    AGENT_DIR_NAME: psQuote(`${settings.productSlug}-agent`),
    TASK_NAME: psQuote(`${commentText(settings.productName)} osquery reporter`),
    OSQUERY_CONFIG: osqueryConfig('windows'),
    REPORTER: reporter,
  });
  // cmd.exe reads batch files line by line and needs CRLF; PowerShell takes either.
  return `${header}${script}`.replace(/\r?\n/g, '\r\n');
}

function unixInstaller(settings: InstallerSettings): string {
  const agentDir = shQuote(`/etc/${settings.productSlug}-agent`);
  const reporter = fill(UNIX_REPORTER, {
    PRODUCT_COMMENT: commentText(settings.productName),
    AGENT_VERSION: shQuote(AGENT_VERSION),
    AGENT_DIR: agentDir,
    QUERIES: shellQueries(),
  });
  // One .sh serves macOS and Linux, whose osquery tables differ: it carries both configurations and queries.
  return fill(UNIX_INSTALLER, {
    PRODUCT_COMMENT: commentText(settings.productName),
    DOMAIN_COMMENT: settings.clientDomain,
    FILE_COMMENT: installerFileName(settings.productSlug, 'sh'),
    OSQUERY_VERSION_COMMENT: OSQUERY_VERSION,
    PRODUCT_NAME: shQuote(settings.productName),
    API_BASE: shQuote(settings.apiBase),
    ENROLLMENT_SECRET: shQuote(settings.enrollmentSecret),
    CUSTOMER_EMAIL: shQuote(settings.customerEmail),
    CLIENT_DOMAIN: shQuote(settings.clientDomain),
    OSQUERY_VERSION: shQuote(OSQUERY_VERSION),
    AGENT_VERSION: shQuote(AGENT_VERSION),
    AGENT_DIR: agentDir,
    REPORTER_NAME: shQuote(`${settings.productSlug}-osquery-reporter`),
    LAUNCHD_LABEL: shQuote(`com.${settings.productSlug.replace(/-/g, '')}.osquery-reporter`),
    OSQUERY_CONFIG_LINUX: osqueryConfig('linux'),
    OSQUERY_CONFIG_MACOS: osqueryConfig('macos'),
    REPORTER: reporter,
  });
}

/** The installer script for a platform family: `bat` (Windows) or `sh` (macOS and Linux). */
export function renderInstaller(extension: InstallerExtension, settings: InstallerSettings): string {
  return extension === 'bat' ? windowsInstaller(settings) : unixInstaller(settings);
}
