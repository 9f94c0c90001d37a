import type { Finding, Severity } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import type { ServiceGuess } from './services.js';

export interface OpenPort extends ServiceGuess {
  port: number;
  banner?: string;
  tls?: boolean;
}

export interface PortScanSummary {
  address: string;
  scanned: number;
  open: OpenPort[];
  closed: number;
  filtered: number;
}

export type PortRisk = 'critical' | 'high' | 'medium' | 'low' | 'info';

interface ExposureRule {
  id: string;
  services: string[];
  ports: number[];
  severity: Severity;
  label: string;
  description: string;
  recommendation: string;
}

const REMOTE_ACCESS = 'Close it to the internet: reach it through a VPN or an allow-list of your own addresses.';

/**
 * What an exposed service means for a small business, most serious first. Severities follow how
 * these services are attacked in practice (credential stuffing, ransomware entry, unauthenticated
 * data stores), which each description states so the owner can weigh it.
 */
const rules: ExposureRule[] = [
  {
    id: 'ports.remote-access.telnet',
    services: ['telnet'],
    ports: [23],
    severity: 'high',
    label: 'Telnet',
    description: 'Telnet sends passwords and everything typed in clear text, and exposed Telnet is scanned for default passwords constantly.',
    recommendation: `Turn Telnet off and use SSH instead. ${REMOTE_ACCESS}`,
  },
  {
    id: 'ports.remote-access.rdp',
    services: ['ms-wbt-server', 'rdp'],
    ports: [3389],
    severity: 'high',
    label: 'Remote Desktop (RDP)',
    description: 'Internet-facing Remote Desktop is the most common way ransomware gangs get in: it is attacked with stolen and guessed passwords around the clock.',
    recommendation: REMOTE_ACCESS,
  },
  {
    id: 'ports.remote-access.vnc',
    services: ['vnc'],
    ports: [5800, 5900, 5901, 5902, 5903],
    severity: 'high',
    label: 'VNC remote control',
    description: 'VNC often has weak or no passwords and gives full control of the screen.',
    recommendation: REMOTE_ACCESS,
  },
  {
    id: 'ports.file-sharing.smb',
    services: ['microsoft-ds', 'netbios-ssn'],
    ports: [139, 445],
    severity: 'high',
    label: 'Windows file sharing (SMB)',
    description: 'SMB was the way in for WannaCry and NotPetya; it should never be reachable from the internet.',
    recommendation: 'Block ports 139 and 445 at the firewall or router.',
  },
  {
    id: 'ports.database.exposed',
    services: ['mysql', 'postgresql', 'ms-sql-s', 'oracle', 'mongodb', 'redis', 'elasticsearch', 'memcached', 'couchdb'],
    ports: [1433, 1521, 3306, 5432, 5984, 6379, 9200, 9300, 11211, 27017],
    severity: 'high',
    label: 'Database',
    description: 'A database reachable from the internet can be attacked directly; Redis, MongoDB, Elasticsearch and Memcached are often installed without any password.',
    recommendation: 'Let the database listen only on the server itself or a private network, and block the port at the firewall.',
  },
  {
    id: 'ports.remote-access.docker',
    services: ['docker'],
    ports: [2375],
    severity: 'critical',
    label: 'Docker API without TLS',
    description: 'An open Docker API lets anyone run programs on the server.',
    recommendation: 'Stop exposing the Docker socket over TCP; use SSH or TLS client certificates if remote control is needed.',
  },
  {
    id: 'ports.cleartext.ftp',
    services: ['ftp'],
    ports: [21],
    severity: 'medium',
    label: 'FTP',
    description: 'FTP sends logins and files in clear text, readable by anyone on the path.',
    recommendation: 'Use SFTP (over SSH) or FTPS instead, and close port 21.',
  },
  {
    id: 'ports.cleartext.mail-retrieval',
    services: ['pop3', 'imap'],
    ports: [110, 143],
    severity: 'low',
    label: 'POP3/IMAP without TLS',
    description: 'Mail can be fetched over these ports without encryption, so passwords may travel in clear text.',
    recommendation: 'Offer only the TLS ports (993 for IMAP, 995 for POP3) and close 110 and 143.',
  },
];

const finding = findingsFor('ports');

function matches(rule: ExposureRule, port: OpenPort): boolean {
  return rule.services.includes(port.service.replace(/^ssl\//, '')) || (port.service === 'unknown' && rule.ports.includes(port.port));
}

/** The risk the report shows beside each open port. */
export function portRisk(port: OpenPort): PortRisk {
  return rules.find((rule) => matches(rule, port))?.severity ?? 'info';
}

function describePort(port: OpenPort): string {
  const product = [port.product, port.version].filter(Boolean).join(' ');
  return `${port.port}/tcp ${port.service}${product ? ` (${product})` : ''}`;
}

/** Analyze: findings from a port scan's open ports and how unused ports answered. */
export function analyzeExposure(summary: PortScanSummary): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
    const hits = summary.open.filter((port) => matches(rule, port));
    if (hits.length === 0) continue;
    findings.push(
      finding({
        id: rule.id,
        title: `${rule.label} is open to the internet`,
        severity: rule.severity,
        category: 'Network Security',
        evidence: `${summary.address}: ${hits.map(describePort).join(', ')}`,
        description: rule.description,
        recommendation: rule.recommendation,
      }),
    );
  }
  const ssh = summary.open.filter((port) => port.service === 'ssh');
  if (ssh.length > 0) {
    findings.push(
      finding({
        id: 'ports.remote-access.ssh',
        title: 'SSH is reachable from the internet',
        severity: 'info',
        category: 'Network Security',
        evidence: `${summary.address}: ${ssh.map(describePort).join(', ')}`,
        description: 'SSH is safe when it accepts keys only and is kept up to date; with passwords allowed it is guessed at constantly.',
        recommendation: 'Allow key-based logins only (PasswordAuthentication no), and limit who can reach port 22 if you can.',
      }),
    );
  }
  // DECISIONS "Firewall": whether unused ports are filtered (no answer) or refused (RST).
  if (summary.filtered === 0 && summary.closed > 0) {
    findings.push(
      finding({
        id: 'ports.firewall.none',
        title: 'No firewall filtering detected',
        severity: 'low',
        category: 'Network Security',
        evidence: `${summary.address}: all ${summary.closed} unused ports of ${summary.scanned} answered with a refusal; none were silently dropped`,
        description: 'A firewall normally drops connections to ports that are not in use. Here every closed port answered, which suggests no firewall stands in front of the server, so any service started by mistake would be exposed at once.',
        recommendation: 'Turn on the host or network firewall and allow only the ports you serve (usually 80 and 443).',
      }),
    );
  }
  return findings;
}

export function firewallVerdict(summary: Pick<PortScanSummary, 'closed' | 'filtered'>): 'filtering' | 'none' | 'partial' {
  if (summary.filtered === 0) return 'none';
  if (summary.closed === 0) return 'filtering';
  return 'partial';
}
