/**
 * Realistic osquery-shaped agent reports for tests, the demo account and `npm run agent:report`
 * (issue 10 "A report generator"): a Windows 11 workstation, an Ubuntu server or a macOS laptop, with
 * any of the problems the scoring looks for planted on purpose. Deterministic: the same seed gives the
 * same report, byte for byte. `planted` says what was planted, so a test can state exact outcomes.
 */
import {
  AGENT_VERSION,
  type AgentPlatform,
  type AgentReportInput,
  agentReportSchema,
} from '../domain/agents.contract.js';
import { AGENT_CHECKS, type AgentCheckId } from './agent-scoring.js';

export const AGENT_PROBLEMS = [
  'vulnerable-packages',
  'disk-unencrypted',
  'no-antivirus',
  'firewall-off',
  'extra-admins',
  'risky-ports',
  'unsigned-persistence',
] as const;
export type AgentProblem = (typeof AGENT_PROBLEMS)[number];

/** The check each problem fails (vulnerable packages fail none: they are vulnerabilities). */
const PROBLEM_CHECK: Record<Exclude<AgentProblem, 'vulnerable-packages'>, AgentCheckId> = {
  'disk-unencrypted': AGENT_CHECKS.diskEncryption,
  'no-antivirus': AGENT_CHECKS.antivirus,
  'firewall-off': AGENT_CHECKS.firewall,
  'extra-admins': AGENT_CHECKS.adminUsers,
  'risky-ports': AGENT_CHECKS.riskyPorts,
  'unsigned-persistence': AGENT_CHECKS.persistence,
};

export interface GenerateOptions {
  platform: AgentPlatform;
  /** Any text or number: the same seed, the same report. */
  seed: string | number;
  agentId: string;
  clientDomain: string;
  timestamp: Date | string;
  /** The report's sequence; by default the timestamp in milliseconds, so later reports count as newer. */
  sequence?: number;
  /** Planted problems; none = a well-kept machine. */
  problems?: readonly AgentProblem[];
  hostname?: string;
  /** Extra filler packages (harmless names), to make large reports. */
  extraPackages?: number;
}

export interface PlantedPackage {
  name: string;
  version: string;
  /** The knowledge base's product id it matches. */
  product: string;
  /** The upstream version the matcher sees. */
  upstreamVersion: string;
}

export interface GeneratedReport {
  report: AgentReportInput;
  planted: {
    problems: AgentProblem[];
    /** Vulnerable packages, one per product and version (a library and its tool at one version are listed once). */
    vulnerablePackages: PlantedPackage[];
    /** The checks that fail, in the scoring's order. */
    failedChecks: AgentCheckId[];
  };
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32 over an FNV-1a hash of the seed)

function seededRandom(seed: string | number): () => number {
  let h = 0x811c9dc5;
  for (const char of String(seed)) h = Math.imul(h ^ char.charCodeAt(0), 0x01000193);
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = ReturnType<typeof seededRandom>;
const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const hex = (random: Random, length: number) => Array.from({ length }, () => '0123456789abcdef'[int(random, 0, 15)]).join('');
const mac = (random: Random) => Array.from({ length: 6 }, () => hex(random, 2)).join(':');
const uuid = (random: Random) => `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-a${hex(random, 3)}-${hex(random, 12)}`.toUpperCase();

// ---------------------------------------------------------------------------------------------
// What each platform looks like

type Results = AgentReportInput['results'];
type Row<K extends keyof Results> = Results[K] extends readonly (infer R)[] ? R : never;

interface Platform {
  hostname: (random: Random) => string;
  systemInfo: (random: Random, hostname: string, firewallOn: boolean) => Row<'system_info'>;
  /** Filler packages no knowledge-base product matches. */
  filler: readonly [string, string][];
  /** Packages the knowledge base matches at versions with known vulnerabilities. */
  vulnerable: readonly PlantedPackage[];
  /** A product the knowledge base knows, at a version it has no vulnerability for. */
  safe: readonly [string, string][];
  source: Row<'installed_packages'>['source'];
  admins: (user: string) => Row<'admin_users'>[];
  extraAdmins: Row<'admin_users'>[];
  users: (random: Random, user: string) => Row<'logged_in_users'>[];
  ports: (random: Random) => Row<'listening_ports'>[];
  riskyPorts: (random: Random) => Row<'listening_ports'>[];
  processes: (random: Random) => Row<'high_resource_processes'>[];
  tasks: Row<'scheduled_tasks'>[];
  persistence: Row<'persistence_mechanisms'>[];
  unsignedPersistence: Row<'persistence_mechanisms'>[];
  services: Row<'running_services'>[];
  antivirus: { running: Row<'antivirus_software'>[]; problem: Row<'antivirus_software'>[] };
  encryption: { on: Results['encryption_status']; off: Results['encryption_status'] };
  interfaces: (random: Random) => Row<'network_interfaces'>[];
}

const FIRST_NAMES = ['alex', 'sam', 'jordan', 'casey', 'morgan', 'riley', 'taylor', 'jamie'];

const windows: Platform = {
  hostname: (random) => `DESKTOP-${hex(random, 7).toUpperCase()}`,
  systemInfo: (random, hostname, firewallOn) => ({
    hostname,
    computer_name: hostname,
    uuid: uuid(random),
    cpu_brand: pick(random, ['Intel(R) Core(TM) i7-1265U', 'AMD Ryzen 7 PRO 6850U with Radeon Graphics', 'Intel(R) Core(TM) i5-1345U']),
    cpu_logical_cores: String(pick(random, [8, 12, 16])),
    physical_memory: String(pick(random, [16, 32]) * 1024 ** 3),
    hardware_vendor: pick(random, ['Dell Inc.', 'LENOVO', 'HP']),
    hardware_model: pick(random, ['Latitude 7440', '21HD0031AU', 'EliteBook 840 G10']),
    os_name: 'Microsoft Windows 11 Pro',
    os_version: '10.0.22631',
    os_build: '22631',
    kernel_version: '10.0.22621.3085',
    firewall_enabled: firewallOn ? '1' : '0',
  }),
  filler: [
    ['Microsoft Edge', '121.0.2277.83'],
    ['Google Chrome', '121.0.6167.140'],
    ['Mozilla Firefox (x64 en-US)', '122.0'],
    ['7-Zip 23.01 (x64)', '23.01'],
    ['Notepad++ (64-bit x64)', '8.6.2'],
    ['Microsoft Visual C++ 2015-2022 Redistributable (x64) - 14.38.33130', '14.38.33130.0'],
    ['Microsoft 365 Apps for business - en-us', '16.0.17231.20236'],
    ['Zoom Workplace (64-bit)', '5.17.5'],
    ['Slack (Machine - MSI)', '4.36.140'],
    ['Git', '2.43.0'],
    ['Python 3.12.1 (64-bit)', '3.12.1150.0'],
    ['Node.js', '20.11.0'],
    ['Adobe Acrobat (64-bit)', '23.008.20470'],
    ['VLC media player', '3.0.20'],
    ['Microsoft Teams Meeting Add-in for Microsoft Office', '1.23.33413'],
    ['Microsoft Update Health Tools', '5.72.0.0'],
    ['Dell SupportAssist', '3.14.2.45'],
    ['Windows PC Health Check', '3.7.2204.15001'],
    ['Microsoft OneDrive', '24.010.0114.0003'],
    ['Visual Studio Code (User)', '1.86.0'],
  ],
  vulnerable: [
    { name: 'Apache Tomcat 9.0 Tomcat9 (remove only)', version: '9.0.30', product: 'tomcat', upstreamVersion: '9.0.30' },
    { name: 'Win64 OpenSSL v1.1.1k', version: '1.1.1k', product: 'openssl', upstreamVersion: '1.1.1k' },
    { name: 'PostgreSQL 15 ', version: '15.2-1', product: 'postgresql', upstreamVersion: '15.2-1' },
  ],
  safe: [],
  source: 'programs',
  admins: (user) => [
    { username: 'Administrator', uid: '500', groupname: 'Administrators', description: 'Built-in account for administering the computer/domain', directory: '' },
    { username: user, uid: '1001', groupname: 'Administrators', description: '', directory: `C:\\Users\\${user}` },
  ],
  extraAdmins: [
    { username: 'helpdesk', uid: '1002', groupname: 'Administrators', description: 'IT support', directory: 'C:\\Users\\helpdesk' },
    { username: 'backup-svc', uid: '1003', groupname: 'Administrators', description: 'Backup service account', directory: 'C:\\Users\\backup-svc' },
  ],
  users: (random, user) => [{ type: 'active', user, tty: 'console', host: '', time: String(1_706_000_000 + int(random, 0, 600_000)), pid: String(int(random, 2000, 9000)) }],
  ports: (random) => [
    { pid: String(int(random, 900, 1100)), port: '135', protocol: '6', family: '2', address: '0.0.0.0', name: 'svchost.exe', path: 'C:\\Windows\\System32\\svchost.exe' },
    { pid: String(int(random, 700, 900)), port: '49664', protocol: '6', family: '2', address: '0.0.0.0', name: 'lsass.exe', path: 'C:\\Windows\\System32\\lsass.exe' },
    { pid: String(int(random, 3000, 4000)), port: '5040', protocol: '6', family: '2', address: '0.0.0.0', name: 'svchost.exe', path: 'C:\\Windows\\System32\\svchost.exe' },
    { pid: String(int(random, 4000, 5000)), port: '7680', protocol: '6', family: '2', address: '0.0.0.0', name: 'svchost.exe', path: 'C:\\Windows\\System32\\svchost.exe' },
    { pid: String(int(random, 5000, 6000)), port: '5353', protocol: '17', family: '2', address: '0.0.0.0', name: 'msedge.exe', path: 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe' },
  ],
  riskyPorts: (random) => [
    { pid: '4', port: '445', protocol: '6', family: '2', address: '0.0.0.0', name: 'System', path: '' },
    { pid: String(int(random, 1100, 1300)), port: '3389', protocol: '6', family: '2', address: '0.0.0.0', name: 'svchost.exe', path: 'C:\\Windows\\System32\\svchost.exe' },
  ],
  processes: (random) =>
    [
      ['MsMpEng.exe', 'C:\\ProgramData\\Microsoft\\Windows Defender\\Platform\\4.18.23110.3-0\\MsMpEng.exe'],
      ['msedge.exe', 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe'],
      ['Teams.exe', 'C:\\Users\\Public\\AppData\\Local\\Microsoft\\Teams\\current\\Teams.exe'],
      ['explorer.exe', 'C:\\Windows\\explorer.exe'],
      ['OUTLOOK.EXE', 'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE'],
    ].map(([name, path]) => ({
      pid: String(int(random, 1000, 20000)),
      name: name!,
      path: path!,
      cmdline: `"${path!}"`,
      resident_size: String(int(random, 80, 900) * 1024 * 1024),
      user_time: String(int(random, 1000, 900000)),
      system_time: String(int(random, 500, 300000)),
      uid: '',
    })),
  tasks: [
    { name: 'MicrosoftEdgeUpdateTaskMachineCore', action: 'C:\\Program Files (x86)\\Microsoft\\EdgeUpdate\\MicrosoftEdgeUpdate.exe /c', path: '\\MicrosoftEdgeUpdateTaskMachineCore', enabled: '1', state: 'ready', schedule: '', next_run_time: '1706140800' },
    { name: 'GoogleUpdateTaskMachineUA', action: 'C:\\Program Files (x86)\\Google\\Update\\GoogleUpdate.exe /ua /installsource scheduler', path: '\\GoogleUpdateTaskMachineUA', enabled: '1', state: 'ready', schedule: '', next_run_time: '1706137200' },
    { name: 'Scheduled Start', action: 'sc.exe start wuauserv', path: '\\Microsoft\\Windows\\WindowsUpdate\\Scheduled Start', enabled: '1', state: 'ready', schedule: '', next_run_time: '1706148000' },
  ],
  persistence: [
    { name: 'SecurityHealth', path: 'C:\\Windows\\system32\\SecurityHealthSystray.exe', source: 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run', type: 'registry', args: '', username: '', signature_status: 'trusted', signer: 'Microsoft Windows' },
    { name: 'OneDrive', path: 'C:\\Program Files\\Microsoft OneDrive\\OneDrive.exe', source: 'HKEY_USERS\\S-1-5-21\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run', type: 'registry', args: '/background', username: '', signature_status: 'trusted', signer: 'Microsoft Corporation' },
    { name: 'RtkAudUService', path: 'C:\\Windows\\System32\\DriverStore\\FileRepository\\realtekservice.inf_amd64\\RtkAudUService64.exe', source: 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run', type: 'registry', args: '-background', username: '', signature_status: 'trusted', signer: 'Realtek Semiconductor Corp.' },
  ],
  unsignedPersistence: [
    { name: 'WinSysHelper', path: 'C:\\Users\\Public\\Libraries\\winsyshelper.exe', source: 'HKEY_USERS\\S-1-5-21\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run', type: 'registry', args: '-silent', username: '', signature_status: 'missing', signer: '' },
  ],
  services: [
    { name: 'WinDefend', display_name: 'Microsoft Defender Antivirus Service', status: 'RUNNING', start_type: 'AUTO_START', path: '"C:\\ProgramData\\Microsoft\\Windows Defender\\Platform\\4.18.23110.3-0\\MsMpEng.exe"', user_account: 'LocalSystem' },
    { name: 'mpssvc', display_name: 'Windows Defender Firewall', status: 'RUNNING', start_type: 'AUTO_START', path: 'C:\\Windows\\system32\\svchost.exe -k LocalServiceNoNetworkFirewall -p', user_account: 'NT Authority\\LocalService' },
    { name: 'osqueryd', display_name: 'osqueryd', status: 'RUNNING', start_type: 'AUTO_START', path: '"C:\\Program Files\\osquery\\osqueryd\\osqueryd.exe" --flagfile="C:\\Program Files\\osquery\\osquery.flags"', user_account: 'LocalSystem' },
    { name: 'Spooler', display_name: 'Print Spooler', status: 'RUNNING', start_type: 'AUTO_START', path: 'C:\\Windows\\System32\\spoolsv.exe', user_account: 'LocalSystem' },
    { name: 'wuauserv', display_name: 'Windows Update', status: 'RUNNING', start_type: 'DEMAND_START', path: 'C:\\Windows\\system32\\svchost.exe -k netsvcs -p', user_account: 'LocalSystem' },
  ],
  antivirus: { running: [{ name: 'Microsoft Defender Antivirus', status: 'running' }], problem: [{ name: 'Microsoft Defender Antivirus', status: 'stopped' }] },
  encryption: { on: { enabled: true, type: 'BitLocker' }, off: { enabled: false, type: 'none' } },
  interfaces: (random) => [
    { interface: '12', address: `192.168.${int(random, 0, 20)}.${int(random, 20, 240)}`, mask: '255.255.255.0', mac: mac(random), type: 'Wireless' },
    { interface: '12', address: `fe80::${hex(random, 4)}:${hex(random, 4)}:${hex(random, 4)}:${hex(random, 4)}%12`, mask: 'ffff:ffff:ffff:ffff::', mac: mac(random), type: 'Wireless' },
    { interface: '1', address: '127.0.0.1', mask: '255.0.0.0', mac: '', type: 'Software Loopback' },
  ],
};

const linux: Platform = {
  hostname: (random) => `${pick(random, ['web', 'app', 'api', 'mail', 'db'])}-${int(random, 1, 9).toString().padStart(2, '0')}`,
  systemInfo: (random, hostname, firewallOn) => ({
    hostname,
    computer_name: hostname,
    uuid: uuid(random),
    cpu_brand: pick(random, ['Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz', 'AMD EPYC 7R13 Processor']),
    cpu_logical_cores: String(pick(random, [2, 4, 8])),
    physical_memory: String(pick(random, [4, 8, 16]) * 1024 ** 3),
    hardware_vendor: 'Amazon EC2',
    hardware_model: pick(random, ['t3.medium', 'm6i.large', 'c6a.xlarge']),
    os_name: 'Ubuntu',
    os_version: '22.04.4 LTS (Jammy Jellyfish)',
    os_build: '',
    kernel_version: '6.5.0-1014-aws',
    firewall_enabled: firewallOn ? '1' : '0',
  }),
  filler: [
    ['adduser', '3.118ubuntu5'],
    ['apt', '2.4.11'],
    ['base-files', '12ubuntu4.6'],
    ['bash', '5.1-6ubuntu1.1'],
    ['ca-certificates', '20230311ubuntu0.22.04.1'],
    ['coreutils', '8.32-4.1ubuntu1.1'],
    ['cron', '3.0pl1-137ubuntu3'],
    ['curl', '7.81.0-1ubuntu1.15'],
    ['dash', '0.5.11+git20210903+057cd650a4ed-3build1'],
    ['dbus', '1.12.20-2ubuntu4.1'],
    ['dpkg', '1.21.1ubuntu2.2'],
    ['e2fsprogs', '1.46.5-2ubuntu1.1'],
    ['gnupg', '2.2.27-3ubuntu2.1'],
    ['grep', '3.7-1build1'],
    ['gzip', '1.10-4ubuntu4.1'],
    ['iproute2', '5.15.0-1ubuntu2'],
    ['less', '590-1ubuntu0.22.04.1'],
    ['libc6', '2.35-0ubuntu3.6'],
    ['libpam0g', '1.4.0-11ubuntu2.4'],
    ['logrotate', '3.19.0-1ubuntu1.1'],
    ['netbase', '6.3'],
    ['passwd', '1:4.8.1-2ubuntu2.1'],
    ['procps', '2:3.3.17-6ubuntu2.1'],
    ['python3', '3.10.6-1~22.04'],
    ['rsyslog', '8.2112.0-2ubuntu2.2'],
    ['sed', '4.8-1ubuntu2'],
    ['sudo', '1.9.9-1ubuntu2.4'],
    ['systemd', '249.11-0ubuntu3.12'],
    ['tar', '1.34+dfsg-1ubuntu0.1.22.04.2'],
    ['tzdata', '2024a-0ubuntu0.22.04'],
    ['ufw', '0.36.1-4ubuntu0.1'],
    ['unattended-upgrades', '2.8ubuntu1'],
    ['util-linux', '2.37.2-4ubuntu3'],
    ['vim-tiny', '2:8.2.3995-1ubuntu2.15'],
    ['zlib1g', '1:1.2.11.dfsg-2ubuntu9.2'],
  ],
  vulnerable: [
    { name: 'openssh-server', version: '1:8.9p1-3ubuntu0.6', product: 'openssh', upstreamVersion: '8.9p1-3ubuntu0.6' },
    { name: 'apache2', version: '2.4.52-1ubuntu4.7', product: 'apache_http_server', upstreamVersion: '2.4.52-1ubuntu4.7' },
    { name: 'openssl', version: '3.0.2-0ubuntu1.15', product: 'openssl', upstreamVersion: '3.0.2-0ubuntu1.15' },
    { name: 'redis-server', version: '5:6.0.16-1ubuntu1', product: 'redis', upstreamVersion: '6.0.16-1ubuntu1' },
  ],
  // libssl3 is the same OpenSSL as the openssl tool: it must count once.
  safe: [['vsftpd', '3.0.5-0ubuntu1']],
  source: 'deb_packages',
  admins: (user) => [{ username: user, uid: '1000', groupname: 'sudo', description: user, directory: `/home/${user}` }],
  extraAdmins: [
    { username: 'deploy', uid: '1001', groupname: 'sudo', description: 'deploy', directory: '/home/deploy' },
    { username: 'contractor', uid: '1002', groupname: 'sudo', description: 'contractor', directory: '/home/contractor' },
  ],
  users: (random, user) => [{ type: 'user', user, tty: 'pts/0', host: `203.0.113.${int(random, 2, 250)}`, time: String(1_706_000_000 + int(random, 0, 600_000)), pid: String(int(random, 2000, 9000)) }],
  ports: (random) => [
    { pid: String(int(random, 700, 900)), port: '22', protocol: '6', family: '2', address: '0.0.0.0', name: 'sshd', path: '/usr/sbin/sshd' },
    { pid: String(int(random, 900, 1200)), port: '443', protocol: '6', family: '2', address: '0.0.0.0', name: 'apache2', path: '/usr/sbin/apache2' },
    { pid: String(int(random, 900, 1200)), port: '80', protocol: '6', family: '2', address: '0.0.0.0', name: 'apache2', path: '/usr/sbin/apache2' },
    { pid: String(int(random, 1200, 1400)), port: '6379', protocol: '6', family: '2', address: '127.0.0.1', name: 'redis-server', path: '/usr/bin/redis-server' },
    { pid: String(int(random, 1400, 1500)), port: '21', protocol: '6', family: '2', address: '127.0.0.1', name: 'vsftpd', path: '/usr/sbin/vsftpd' },
    { pid: String(int(random, 500, 700)), port: '53', protocol: '17', family: '2', address: '127.0.0.53', name: 'systemd-resolve', path: '/usr/lib/systemd/systemd-resolved' },
  ],
  riskyPorts: (random) => [
    { pid: String(int(random, 1500, 1600)), port: '23', protocol: '6', family: '2', address: '0.0.0.0', name: 'inetd', path: '/usr/sbin/inetutils-inetd' },
    { pid: String(int(random, 1600, 1700)), port: '21', protocol: '6', family: '10', address: '::', name: 'vsftpd', path: '/usr/sbin/vsftpd' },
  ],
  processes: (random) =>
    [
      ['apache2', '/usr/sbin/apache2', '/usr/sbin/apache2 -k start', '33'],
      ['redis-server', '/usr/bin/redis-server', '/usr/bin/redis-server 127.0.0.1:6379', '113'],
      ['osqueryd', '/opt/osquery/bin/osqueryd', '/opt/osquery/bin/osqueryd --flagfile /etc/osquery/osquery.flags --config_path /etc/osquery/osquery.conf', '0'],
      ['systemd-journald', '/usr/lib/systemd/systemd-journald', '/lib/systemd/systemd-journald', '0'],
      ['sshd', '/usr/sbin/sshd', 'sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups', '0'],
    ].map(([name, path, cmdline, uid]) => ({
      pid: String(int(random, 300, 30000)),
      name: name!,
      path: path!,
      cmdline: cmdline!,
      resident_size: String(int(random, 8, 600) * 1024 * 1024),
      user_time: String(int(random, 100, 90000)),
      system_time: String(int(random, 50, 30000)),
      uid: uid!,
    })),
  tasks: [
    { name: '/etc/cron.d/e2scrub_all', action: '/usr/libexec/e2fsprogs/e2scrub_all_cron', path: '/etc/cron.d/e2scrub_all', enabled: '1', state: '', schedule: '30 3 * * 0', next_run_time: '' },
    { name: '/etc/crontab', action: 'cd / && run-parts --report /etc/cron.hourly', path: '/etc/crontab', enabled: '1', state: '', schedule: '17 * * * *', next_run_time: '' },
    { name: 'certbot.timer', action: '/usr/bin/certbot -q renew', path: '/lib/systemd/system/certbot.timer', enabled: '1', state: 'active', schedule: '*-*-* 00,12:00:00', next_run_time: '' },
  ],
  persistence: [
    { name: 'ssh.service', path: '/lib/systemd/system/ssh.service', source: 'systemd_units', type: 'service', args: '', username: 'root', signature_status: 'trusted', signer: 'openssh-server' },
    { name: 'apache2.service', path: '/lib/systemd/system/apache2.service', source: 'systemd_units', type: 'service', args: '', username: 'root', signature_status: 'trusted', signer: 'apache2' },
    { name: 'osqueryd.service', path: '/usr/lib/systemd/system/osqueryd.service', source: 'systemd_units', type: 'service', args: '', username: 'root', signature_status: 'trusted', signer: 'osquery' },
  ],
  unsignedPersistence: [
    { name: 'kworker-update.service', path: '/etc/systemd/system/kworker-update.service', source: 'systemd_units', type: 'service', args: '/var/tmp/.cache/kworker', username: 'root', signature_status: 'unknown', signer: '' },
  ],
  services: [
    { name: 'ssh.service', display_name: 'OpenBSD Secure Shell server', status: 'active', start_type: 'enabled', path: '/lib/systemd/system/ssh.service', user_account: 'root' },
    { name: 'apache2.service', display_name: 'The Apache HTTP Server', status: 'active', start_type: 'enabled', path: '/lib/systemd/system/apache2.service', user_account: 'root' },
    { name: 'redis-server.service', display_name: 'Advanced key-value store', status: 'active', start_type: 'enabled', path: '/lib/systemd/system/redis-server.service', user_account: 'redis' },
    { name: 'osqueryd.service', display_name: 'The osquery Daemon', status: 'active', start_type: 'enabled', path: '/usr/lib/systemd/system/osqueryd.service', user_account: 'root' },
    { name: 'cron.service', display_name: 'Regular background program processing daemon', status: 'active', start_type: 'enabled', path: '/lib/systemd/system/cron.service', user_account: 'root' },
  ],
  // Linux is not marked down for having no antivirus (agent-scoring.ts): none is reported either way.
  antivirus: { running: [], problem: [] },
  encryption: { on: { enabled: true, type: 'LUKS' }, off: { enabled: false, type: 'none' } },
  interfaces: (random) => [
    { interface: 'ens5', address: `172.31.${int(random, 0, 63)}.${int(random, 2, 250)}`, mask: '255.255.240.0', mac: mac(random), type: 'ether' },
    { interface: 'lo', address: '127.0.0.1', mask: '255.0.0.0', mac: '00:00:00:00:00:00', type: 'loopback' },
    { interface: 'lo', address: '::1', mask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', mac: '00:00:00:00:00:00', type: 'loopback' },
  ],
};

const macos: Platform = {
  hostname: (random) => `${pick(random, FIRST_NAMES)}s-MacBook-Pro`,
  systemInfo: (random, hostname, firewallOn) => ({
    hostname: `${hostname}.local`,
    computer_name: hostname.replace(/-/g, ' '),
    uuid: uuid(random),
    cpu_brand: pick(random, ['Apple M2 Pro', 'Apple M3']),
    cpu_logical_cores: String(pick(random, [8, 10, 12])),
    physical_memory: String(pick(random, [16, 32]) * 1024 ** 3),
    hardware_vendor: 'Apple Inc.',
    hardware_model: pick(random, ['Mac14,9', 'Mac15,3']),
    os_name: 'macOS',
    os_version: '14.3',
    os_build: '23D56',
    kernel_version: '23.3.0',
    firewall_enabled: firewallOn ? '1' : '0',
  }),
  filler: [
    ['git', '2.43.0'],
    ['node', '21.6.1'],
    ['python@3.12', '3.12.1_1'],
    ['wget', '1.21.4'],
    ['jq', '1.7.1'],
    ['gnupg', '2.4.4'],
    ['ripgrep', '14.1.0'],
    ['awscli', '2.15.15'],
    ['terraform', '1.5.7'],
    ['ffmpeg', '6.1.1_2'],
  ],
  vulnerable: [{ name: 'nginx', version: '1.18.0', product: 'nginx', upstreamVersion: '1.18.0' }],
  safe: [],
  source: 'homebrew_packages',
  admins: (user) => [
    { username: 'root', uid: '0', groupname: 'admin', description: 'System Administrator', directory: '/var/root' },
    { username: user, uid: '501', groupname: 'admin', description: user, directory: `/Users/${user}` },
  ],
  extraAdmins: [{ username: 'itadmin', uid: '502', groupname: 'admin', description: 'IT Admin', directory: '/Users/itadmin' }],
  users: (random, user) => [{ type: 'user', user, tty: 'console', host: '', time: String(1_706_000_000 + int(random, 0, 600_000)), pid: String(int(random, 100, 900)) }],
  ports: (random) => [
    { pid: String(int(random, 400, 600)), port: '5000', protocol: '6', family: '2', address: '0.0.0.0', name: 'ControlCenter', path: '/System/Library/CoreServices/ControlCenter.app/Contents/MacOS/ControlCenter' },
    { pid: String(int(random, 600, 800)), port: '8080', protocol: '6', family: '2', address: '127.0.0.1', name: 'nginx', path: '/opt/homebrew/opt/nginx/bin/nginx' },
  ],
  riskyPorts: (random) => [
    { pid: String(int(random, 800, 900)), port: '5900', protocol: '6', family: '2', address: '0.0.0.0', name: 'screensharingd', path: '/System/Library/CoreServices/RemoteManagement/screensharingd.bundle/Contents/MacOS/screensharingd' },
  ],
  processes: (random) =>
    [
      ['WindowServer', '/System/Library/PrivateFrameworks/SkyLight.framework/Resources/WindowServer'],
      ['Google Chrome Helper (Renderer)', '/Applications/Google Chrome.app/Contents/Frameworks/Google Chrome Framework.framework/Helpers/Google Chrome Helper (Renderer).app/Contents/MacOS/Google Chrome Helper (Renderer)'],
      ['Slack Helper', '/Applications/Slack.app/Contents/Frameworks/Slack Helper.app/Contents/MacOS/Slack Helper'],
    ].map(([name, path]) => ({
      pid: String(int(random, 100, 90000)),
      name: name!,
      path: path!,
      cmdline: path!,
      resident_size: String(int(random, 100, 1500) * 1024 * 1024),
      user_time: String(int(random, 100, 90000)),
      system_time: String(int(random, 50, 30000)),
      uid: '501',
    })),
  tasks: [{ name: 'com.apple.backupd-auto', action: '/System/Library/CoreServices/backupd.bundle/Contents/Resources/backupd-helper', path: '/System/Library/LaunchDaemons/com.apple.backupd-auto.plist', enabled: '1', state: '', schedule: '3600', next_run_time: '' }],
  persistence: [
    { name: 'com.google.keystone.daemon', path: '/Library/LaunchDaemons/com.google.keystone.daemon.plist', source: 'launchd', type: 'daemon', args: '', username: 'root', signature_status: 'trusted', signer: 'Developer ID Application: Google LLC (EQHXZ8M8AV)' },
    { name: 'io.osquery.agent', path: '/Library/LaunchDaemons/io.osquery.agent.plist', source: 'launchd', type: 'daemon', args: '', username: 'root', signature_status: 'trusted', signer: 'Developer ID Application: OSQUERY A Series of LF Projects, LLC (3522FA9PXF)' },
  ],
  unsignedPersistence: [
    { name: 'com.updater.helper', path: '/Users/Shared/.updater/helper', source: 'launchd', type: 'agent', args: '', username: '', signature_status: 'untrusted', signer: '' },
  ],
  services: [
    { name: 'com.apple.mDNSResponder', display_name: 'mDNSResponder', status: 'running', start_type: 'RunAtLoad', path: '/usr/sbin/mDNSResponder', user_account: '_mdnsresponder' },
    { name: 'io.osquery.agent', display_name: 'osqueryd', status: 'running', start_type: 'RunAtLoad', path: '/opt/osquery/lib/osquery.app/Contents/MacOS/osqueryd', user_account: 'root' },
  ],
  antivirus: { running: [{ name: 'XProtect', status: 'running' }], problem: [{ name: 'XProtect', status: 'outdated' }] },
  encryption: { on: { enabled: true, type: 'FileVault' }, off: { enabled: false, type: 'none' } },
  interfaces: (random) => [
    { interface: 'en0', address: `10.0.${int(random, 0, 9)}.${int(random, 10, 250)}`, mask: '255.255.255.0', mac: mac(random), type: 'ether' },
    { interface: 'lo0', address: '127.0.0.1', mask: '255.0.0.0', mac: '', type: 'loopback' },
  ],
};

const PLATFORMS: Record<AgentPlatform, Platform> = { windows, linux, macos };

/** The checks a problem fails on this platform (Linux has no antivirus check). */
function failedCheckOf(platform: AgentPlatform, problem: AgentProblem): AgentCheckId | undefined {
  if (problem === 'vulnerable-packages') return undefined;
  if (problem === 'no-antivirus' && platform === 'linux') return undefined;
  return PROBLEM_CHECK[problem];
}

const CHECK_ORDER: readonly AgentCheckId[] = Object.values(AGENT_CHECKS);

/** A fresh report of one machine (see the module comment). */
export function generateAgentReport(options: GenerateOptions): GeneratedReport {
  const random = seededRandom(options.seed);
  const spec = PLATFORMS[options.platform];
  const problems = AGENT_PROBLEMS.filter((problem) => options.problems?.includes(problem));
  const has = (problem: AgentProblem) => problems.includes(problem);
  const hostname = options.hostname ?? spec.hostname(random);
  const user = pick(random, FIRST_NAMES);

  const fillerCount = Math.min(spec.filler.length, int(random, Math.ceil(spec.filler.length * 0.7), spec.filler.length));
  const filler = spec.filler.slice(0, fillerCount).map(([name, version]) => ({ name, version, source: spec.source }));
  const extra = Array.from({ length: options.extraPackages ?? 0 }, (_, i) => ({ name: `${options.platform === 'windows' ? 'Line of Business App' : 'lib-internal'}-${i + 1}`, version: `1.${i % 50}.${i % 7}`, source: spec.source }));
  const vulnerable = has('vulnerable-packages') ? spec.vulnerable : [];
  const installed = [
    ...filler,
    ...spec.safe.map(([name, version]) => ({ name, version, source: spec.source })),
    ...vulnerable.map((p) => ({ name: p.name, version: p.version, source: spec.source })),
    // The OpenSSL library beside the tool, at the same version: one OpenSSL to the scoring.
    ...vulnerable.filter((p) => p.name === 'openssl' && options.platform === 'linux').map((p) => ({ name: 'libssl3', version: p.version, source: spec.source })),
    ...extra,
  ].map((row) => ({ ...row, arch: options.platform === 'windows' ? '' : options.platform === 'linux' ? 'amd64' : 'arm64', release: '', publisher: '' }));

  const results: Results = {
    system_info: [spec.systemInfo(random, hostname, !has('firewall-off'))],
    logged_in_users: spec.users(random, user),
    listening_ports: [...spec.ports(random), ...(has('risky-ports') ? spec.riskyPorts(random) : [])],
    high_resource_processes: spec.processes(random),
    admin_users: [...spec.admins(user), ...(has('extra-admins') ? spec.extraAdmins : [])],
    scheduled_tasks: spec.tasks,
    persistence_mechanisms: [...spec.persistence, ...(has('unsigned-persistence') ? spec.unsignedPersistence : [])],
    installed_packages: installed,
    network_interfaces: spec.interfaces(random),
    running_services: spec.services,
    antivirus_software: has('no-antivirus') ? spec.antivirus.problem : spec.antivirus.running,
    encryption_status: has('disk-unencrypted') ? spec.encryption.off : spec.encryption.on,
  };
  const timestamp = typeof options.timestamp === 'string' ? options.timestamp : options.timestamp.toISOString();
  const report: AgentReportInput = {
    client_domain: options.clientDomain,
    agent_id: options.agentId,
    timestamp,
    sequence: options.sequence ?? Date.parse(timestamp),
    agent_version: AGENT_VERSION,
    platform: options.platform,
    results,
  };
  // A generator that produced what the API refuses would make every test that uses it lie.
  agentReportSchema.parse(report);
  const failed = new Set(problems.map((problem) => failedCheckOf(options.platform, problem)).filter((id): id is AgentCheckId => id !== undefined));
  return {
    report,
    planted: { problems, vulnerablePackages: [...vulnerable], failedChecks: CHECK_ORDER.filter((id) => failed.has(id)) },
  };
}

/** The hostname a seed gives on a platform (the CLI and the demo name machines before generating). */
export function generatedHostname(platform: AgentPlatform, seed: string | number): string {
  return PLATFORMS[platform].hostname(seededRandom(seed));
}
