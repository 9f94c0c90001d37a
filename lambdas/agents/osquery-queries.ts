/**
 * The osquery SQL behind each field of the agent report payload (SPEC §3), per platform. Each query
 * selects exactly the columns of the field's row in lambdas/domain/agents.contract.ts (aliased,
 * long texts cut to the contract's lengths), so the reporter can send osqueryi's JSON as it is.
 * The installers write these into osquery.conf's schedule (SPEC §9 intervals) and into the reporter.
 */
import { AGENT_SCHEDULE_SECONDS, type AgentPlatform, type AgentReportResults } from '../domain/agents.contract.js';

/** Every field of the payload's results (encryption_status is a row the reporter turns into the object). */
export type QueriedField = keyof AgentReportResults;

export interface ScheduledQuery {
  field: QueriedField;
  sql: string;
  /** Seconds between runs in osquery's own schedule. */
  interval: number;
}

const HOUR = 3600;

/**
 * Intervals: the spec's four (system info 3600 s, processes 300 s, users 3600 s, listening ports
 * 600 s); the other inventories change rarely and run hourly.
 */
export const FIELD_INTERVALS: Record<QueriedField, number> = {
  system_info: AGENT_SCHEDULE_SECONDS.system_info,
  high_resource_processes: AGENT_SCHEDULE_SECONDS.processes,
  logged_in_users: AGENT_SCHEDULE_SECONDS.users,
  admin_users: AGENT_SCHEDULE_SECONDS.users,
  listening_ports: AGENT_SCHEDULE_SECONDS.listening_ports,
  scheduled_tasks: HOUR,
  persistence_mechanisms: HOUR,
  installed_packages: HOUR,
  network_interfaces: HOUR,
  running_services: HOUR,
  antivirus_software: HOUR,
  encryption_status: HOUR,
};

const cut = (column: string, length: number, alias = column.replace(/^\w+\./, '')) => `substr(COALESCE(${column}, ''), 1, ${length}) AS ${alias}`;

const loggedInUsers = `SELECT type, ${cut('user', 255)}, tty, ${cut('host', 255)}, CAST(time AS TEXT) AS time, CAST(pid AS TEXT) AS pid FROM logged_in_users LIMIT 200`;

const listeningPorts = `SELECT CAST(l.pid AS TEXT) AS pid, CAST(l.port AS TEXT) AS port, CAST(l.protocol AS TEXT) AS protocol, CAST(l.family AS TEXT) AS family, l.address, ${cut('p.name', 255)}, ${cut('p.path', 1000)} FROM listening_ports l LEFT JOIN processes p USING (pid) WHERE l.port > 0 AND l.protocol IN (6, 17) LIMIT 500`;

const processes = `SELECT CAST(pid AS TEXT) AS pid, ${cut('name', 255)}, ${cut('path', 1000)}, ${cut('cmdline', 2000)}, CAST(resident_size AS TEXT) AS resident_size, CAST(user_time AS TEXT) AS user_time, CAST(system_time AS TEXT) AS system_time, CAST(uid AS TEXT) AS uid FROM processes ORDER BY resident_size DESC LIMIT 10`;

const networkInterfaces = `SELECT ${cut('a.interface', 255)}, a.address, a.mask, COALESCE(d.mac, '') AS mac, CAST(COALESCE(d.type, '') AS TEXT) AS type FROM interface_addresses a LEFT JOIN interface_details d ON d.interface = a.interface LIMIT 200`;

const adminUsers = (where: string) =>
  `SELECT ${cut('u.username', 255)}, CAST(u.uid AS TEXT) AS uid, ${cut('g.groupname', 255)}, ${cut('u.description', 500)}, ${cut('u.directory', 1000)} FROM user_groups ug JOIN users u ON u.uid = ug.uid JOIN groups g ON g.gid = ug.gid WHERE ${where} LIMIT 200`;

const crontab = `SELECT ${cut('path', 500, 'name')}, ${cut('command', 2000, 'action')}, ${cut('path', 1000)}, '1' AS enabled, '' AS state, minute || ' ' || hour || ' ' || day_of_month || ' ' || month || ' ' || day_of_week AS schedule, '' AS next_run_time FROM crontab LIMIT 1000`;

/** Linux and macOS daemons whose names tell an antivirus is running. */
const UNIX_ANTIVIRUS = ['clamd', 'falcon-sensor', 'falcond', 'wdavdaemon', 'mdatp', 'savd', 'SophosScanD', 'esets_daemon', 'bdsecd', 'ds_agent', 'cbagentd', 'SentinelAgent', 'sentinelone-agent'];
const unixAntivirus = `SELECT name, 'running' AS status FROM processes WHERE name IN (${UNIX_ANTIVIRUS.map((n) => `'${n}'`).join(', ')}) GROUP BY name`;

export const PLATFORM_QUERIES: Record<AgentPlatform, Record<QueriedField, string>> = {
  windows: {
    system_info: `SELECT s.hostname, s.computer_name, s.uuid, s.cpu_brand, CAST(s.cpu_logical_cores AS TEXT) AS cpu_logical_cores, CAST(s.physical_memory AS TEXT) AS physical_memory, s.hardware_vendor, s.hardware_model, o.name AS os_name, o.version AS os_version, o.build AS os_build, (SELECT version FROM kernel_info) AS kernel_version, COALESCE((SELECT CASE WHEN firewall = 'Good' THEN '1' WHEN firewall IN ('Poor', 'Snoozed') THEN '0' ELSE '' END FROM windows_security_center), '') AS firewall_enabled FROM system_info s, os_version o`,
    logged_in_users: loggedInUsers,
    listening_ports: listeningPorts,
    high_resource_processes: processes,
    // S-1-5-32-544: the local Administrators group, whatever the language of its name.
    admin_users: adminUsers(`g.group_sid = 'S-1-5-32-544'`),
    scheduled_tasks: `SELECT ${cut('name', 500)}, ${cut('action', 2000)}, ${cut('path', 1000)}, CAST(enabled AS TEXT) AS enabled, state, '' AS schedule, CAST(next_run_time AS TEXT) AS next_run_time FROM scheduled_tasks WHERE hidden = 0 LIMIT 1000`,
    // authenticode.result: trusted, missing (unsigned), invalid, distrusted, untrusted …
    persistence_mechanisms: `SELECT ${cut('a.name', 500)}, ${cut('a.path', 1000)}, ${cut('a.source', 500)}, '' AS type, '' AS args, '' AS username, COALESCE(au.result, 'unknown') AS signature_status, ${cut('au.subject_name', 500, 'signer')} FROM autoexec a LEFT JOIN authenticode au ON au.path = a.path LIMIT 1000`,
    installed_packages: `SELECT ${cut('name', 500)}, ${cut('version', 120)}, 'programs' AS source, '' AS arch, '' AS release, ${cut('publisher', 500)} FROM programs WHERE name != '' AND version != '' LIMIT 5000`,
    network_interfaces: networkInterfaces,
    running_services: `SELECT ${cut('name', 500)}, ${cut('display_name', 500)}, status, start_type, ${cut('path', 1000)}, ${cut('user_account', 255)} FROM services WHERE status = 'RUNNING' LIMIT 1000`,
    antivirus_software: `SELECT ${cut('name', 255)}, CASE WHEN state = 'On' AND signatures_up_to_date = 1 THEN 'running' WHEN state = 'On' THEN 'outdated' WHEN state IN ('Off', 'Snoozed', 'Expired') THEN 'stopped' ELSE 'unknown' END AS status FROM windows_security_products WHERE type = 'Antivirus' LIMIT 20`,
    encryption_status: `SELECT CASE WHEN protection_status = 1 THEN 'true' ELSE 'false' END AS enabled, 'BitLocker' AS type FROM bitlocker_info WHERE drive_letter = 'C:'`,
  },
  linux: {
    // The firewall: ufw, firewalld or nftables when one of them is installed; unknown ('') otherwise.
    system_info: `SELECT s.hostname, s.computer_name, s.uuid, s.cpu_brand, CAST(s.cpu_logical_cores AS TEXT) AS cpu_logical_cores, CAST(s.physical_memory AS TEXT) AS physical_memory, s.hardware_vendor, s.hardware_model, o.name AS os_name, o.version AS os_version, COALESCE(o.build, '') AS os_build, (SELECT version FROM kernel_info) AS kernel_version, CASE WHEN (SELECT COUNT(*) FROM systemd_units WHERE id IN ('ufw.service', 'firewalld.service', 'nftables.service') AND load_state = 'loaded') = 0 THEN '' WHEN (SELECT COUNT(*) FROM systemd_units WHERE id IN ('ufw.service', 'firewalld.service', 'nftables.service') AND active_state = 'active') > 0 THEN '1' ELSE '0' END AS firewall_enabled FROM system_info s, os_version o`,
    logged_in_users: loggedInUsers,
    listening_ports: listeningPorts,
    high_resource_processes: processes,
    admin_users: adminUsers(`g.groupname IN ('sudo', 'wheel', 'admin')`),
    scheduled_tasks: crontab,
    // Unit files where packages put them (/lib, /usr/lib) count as trusted; /etc and elsewhere are someone's own.
    persistence_mechanisms: `SELECT ${cut('id', 500, 'name')}, ${cut('fragment_path', 1000, 'path')}, 'systemd_units' AS source, 'service' AS type, '' AS args, ${cut('user', 255, 'username')}, CASE WHEN fragment_path LIKE '/lib/systemd/%' OR fragment_path LIKE '/usr/lib/systemd/%' THEN 'trusted' ELSE 'unknown' END AS signature_status, '' AS signer FROM systemd_units WHERE id LIKE '%.service' AND active_state = 'active' AND fragment_path != '' LIMIT 1000`,
    installed_packages: `SELECT ${cut('name', 500)}, ${cut('version', 120)}, 'deb_packages' AS source, arch, '' AS release, '' AS publisher FROM deb_packages UNION ALL SELECT ${cut('name', 500)}, ${cut('version', 120)}, 'rpm_packages' AS source, arch, ${cut('release', 120)}, ${cut('vendor', 500, 'publisher')} FROM rpm_packages LIMIT 5000`,
    network_interfaces: networkInterfaces,
    running_services: `SELECT ${cut('id', 500, 'name')}, ${cut('description', 500, 'display_name')}, active_state AS status, '' AS start_type, ${cut('fragment_path', 1000, 'path')}, ${cut('user', 255, 'user_account')} FROM systemd_units WHERE id LIKE '%.service' AND active_state = 'active' AND sub_state = 'running' LIMIT 1000`,
    antivirus_software: unixAntivirus,
    encryption_status: `SELECT 'true' AS enabled, COALESCE(NULLIF(type, ''), 'LUKS') AS type FROM disk_encryption WHERE encrypted = 1 LIMIT 1`,
  },
  macos: {
    system_info: `SELECT s.hostname, s.computer_name, s.uuid, s.cpu_brand, CAST(s.cpu_logical_cores AS TEXT) AS cpu_logical_cores, CAST(s.physical_memory AS TEXT) AS physical_memory, s.hardware_vendor, s.hardware_model, o.name AS os_name, o.version AS os_version, o.build AS os_build, (SELECT version FROM kernel_info) AS kernel_version, COALESCE((SELECT CASE WHEN global_state > 0 THEN '1' ELSE '0' END FROM alf), '') AS firewall_enabled FROM system_info s, os_version o`,
    logged_in_users: loggedInUsers,
    listening_ports: listeningPorts,
    high_resource_processes: processes,
    admin_users: adminUsers(`g.groupname = 'admin'`),
    scheduled_tasks: crontab,
    persistence_mechanisms: `SELECT ${cut('l.label', 500, 'name')}, ${cut('l.path', 1000)}, 'launchd' AS source, CASE WHEN l.path LIKE '%LaunchDaemons%' THEN 'daemon' ELSE 'agent' END AS type, ${cut('l.program_arguments', 2000, 'args')}, ${cut('l.username', 255)}, CASE WHEN s.signed = 1 THEN 'trusted' WHEN s.signed = 0 THEN 'untrusted' ELSE 'unknown' END AS signature_status, ${cut('s.authority', 500, 'signer')} FROM launchd l LEFT JOIN signature s ON s.path = l.program WHERE l.path NOT LIKE '/System/%' AND l.run_at_load = '1' LIMIT 1000`,
    installed_packages: `SELECT ${cut('name', 500)}, ${cut('version', 120)}, 'homebrew_packages' AS source, '' AS arch, '' AS release, '' AS publisher FROM homebrew_packages UNION ALL SELECT ${cut('name', 500)}, ${cut('bundle_short_version', 120, 'version')}, 'apps' AS source, '' AS arch, '' AS release, '' AS publisher FROM apps WHERE bundle_short_version != '' LIMIT 5000`,
    network_interfaces: networkInterfaces,
    running_services: `SELECT ${cut('label', 500, 'name')}, '' AS display_name, 'loaded' AS status, CASE WHEN run_at_load = '1' THEN 'RunAtLoad' ELSE '' END AS start_type, ${cut('program', 1000, 'path')}, ${cut('username', 255, 'user_account')} FROM launchd WHERE path NOT LIKE '/System/%' LIMIT 1000`,
    antivirus_software: `SELECT 'XProtect' AS name, CASE WHEN (SELECT COUNT(*) FROM xprotect_meta) > 0 THEN 'running' ELSE 'unknown' END AS status UNION ALL ${unixAntivirus}`,
    encryption_status: `SELECT 'true' AS enabled, 'FileVault' AS type FROM disk_encryption WHERE encrypted = 1 LIMIT 1`,
  },
};

/** The queries of a platform with their intervals, in the payload's order. */
export function scheduledQueries(platform: AgentPlatform): ScheduledQuery[] {
  return (Object.keys(FIELD_INTERVALS) as QueriedField[]).map((field) => ({ field, sql: PLATFORM_QUERIES[platform][field], interval: FIELD_INTERVALS[field] }));
}

/**
 * osquery.conf (JSON): the schedule (snapshots, so each run logs the whole table) and the options
 * osqueryd needs. The daemon keeps its own results log; the reporter sends the payload.
 */
export function osqueryConfig(platform: AgentPlatform): string {
  const schedule = Object.fromEntries(scheduledQueries(platform).map((q) => [q.field, { query: q.sql, interval: q.interval, snapshot: true }]));
  return JSON.stringify(
    {
      options: { host_identifier: 'hostname', schedule_splay_percent: 10, utc: 'true', logger_plugin: 'filesystem', disable_events: 'true' },
      schedule,
    },
    null,
    2,
  );
}
