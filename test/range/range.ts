/**
 * The scan range: real Debian servers, deliberately misconfigured (scan-range.md), started on
 * loopback addresses with configs generated into one run folder, and stopped by their PIDs; and one
 * firewalled, lossy host in its own network namespace (firewalled-host.ts sets up its network).
 *
 *   npx tsx test/range/range.ts up | down [--clean] | status
 *
 * or from code: `startRange()` / `stopRange()` (the range test's global setup uses them).
 * It installs nothing (CI does: `.ci/run`); it says which packages are missing. It needs root.
 *
 * Several users may share one range: each holds a lease (`up` from the CLI holds one until `down`,
 * a test run holds one for its process), and `stopRange()` stops the servers only when it
 * releases the last lease. `down` from the CLI stops them whatever the leases say.
 *
 * One file past 400 lines: bring-up, stopping, status, leases and the lock all work on the one
 * service table and the run folder's rules; the firewalled host's network is apart.
 */
import { execFile, spawn } from 'node:child_process';
import { closeSync, openSync, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureFirewalledNetwork, firewalledLinkUp, inNamespace, removeFirewalledNetwork } from './firewalled-host.js';
import { signRangeZones } from './dnssec-zones.js';
import { rangeLayout, rangeMailPlants, rangeWebPlants } from './layout.js';
import { ensureRangePki, type RangeTlsa } from './pki.js';

export { firewalledOpenPorts, rangeDnssec, rangeFacts, rangeLayout, rangeMailPlants, rangeTcpPorts, rangeTlsEndpoints, rangeWebPlants } from './layout.js';
export type { RangeHost, RangeHostName, RangeLayout } from './layout.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TEMPLATES = path.join(HERE, 'templates');

/** The run folder: configs, certificates, data, logs and PID files of every server. */
export const RANGE_DIR = checkedRunDir(process.env.RAMPART_RANGE_DIR ?? '/tmp/rampart-range');

/** Throwaway secrets of a range that only ever listens on loopback. */
const DB_PASSWORD = 'rampart-range-db';
const WP_ADMIN_PASSWORD = 'rampart-range-admin';

const CHILD_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C', HOME: '/root' };
const LOCK_WAIT_MS = 180_000;
/** File in the run folder listing the lo addresses the range added. */
const LOOPBACK_RECORD = 'loopback-addresses';
const START_TIMEOUT_MS = 60_000;
const STOP_WAIT_MS = 10_000;

export type ServiceName = 'nginx' | 'apache' | 'mariadb' | 'named' | 'sshd' | 'postfix' | 'fw-nginx' | 'fw-sshd';

export interface ServiceStatus {
  name: ServiceName;
  pid: number | undefined;
  /** Each TCP port of the service and whether it accepted a connection. */
  ports: { address: string; port: number; open: boolean }[];
  /** Behind the firewalled host's rules: a port they drop, and whether it stayed silent (no reset). */
  dropped?: { address: string; port: number; silent: boolean };
  up: boolean;
}

export interface Range {
  dir: string;
  layout: typeof rangeLayout;
  services: ServiceStatus[];
  /** Servers this call had to start (none when the range was already up). */
  started: ServiceName[];
  /** Wall milliseconds of each start, and of the whole bring-up. */
  timings: Partial<Record<ServiceName | 'wordpress' | 'total', number>>;
}

interface ServiceSpec {
  name: ServiceName;
  /** Relative to the run folder. */
  pidFile: string;
  /** Relative to the run folder; shown when the service fails to start. */
  logFile: string;
  ports: { address: string; port: number }[];
  /** Executable (or folder of executables, ending in /) of its processes, for ending leftovers. */
  executable: string;
  /** Runs inside the firewalled host's network namespace (its ports are behind the lossy firewall). */
  firewalled?: boolean;
}

const { nginx, apache, mail, ssh, dns } = rangeLayout.hosts;
const { firewalled } = rangeLayout;
const SERVICES: readonly ServiceSpec[] = [
  { name: 'nginx', pidFile: 'nginx/nginx.pid', logFile: 'nginx/error.log', ports: [{ address: nginx.address, port: 80 }, { address: nginx.address, port: 443 }], executable: '/usr/sbin/nginx' },
  { name: 'apache', pidFile: 'apache/run/apache2.pid', logFile: 'apache/error.log', ports: [{ address: apache.address, port: 80 }, { address: apache.address, port: 443 }], executable: '/usr/sbin/apache2' },
  { name: 'mariadb', pidFile: 'mariadb/mariadbd.pid', logFile: 'mariadb/error.log', ports: [{ address: apache.address, port: 3306 }], executable: '/usr/sbin/mariadbd' },
  { name: 'named', pidFile: 'named/named.pid', logFile: 'named/named.log', ports: [{ address: dns.address, port: 53 }], executable: '/usr/sbin/named' },
  { name: 'sshd', pidFile: 'ssh/sshd.pid', logFile: 'ssh/sshd.log', ports: [{ address: ssh.address, port: 22 }], executable: '/usr/sbin/sshd' },
  {
    name: 'postfix',
    pidFile: 'postfix/queue/pid/master.pid',
    logFile: 'postfix/maillog',
    ports: [{ address: mail.address, port: 25 }, { address: mail.address, port: 587 }],
    executable: '/usr/lib/postfix/sbin/',
  },
  { name: 'fw-nginx', pidFile: 'firewalled/nginx/nginx.pid', logFile: 'firewalled/nginx/error.log', ports: [{ address: firewalled.address, port: 80 }, { address: firewalled.address, port: 443 }], executable: '/usr/sbin/nginx', firewalled: true },
  { name: 'fw-sshd', pidFile: 'firewalled/ssh/sshd.pid', logFile: 'firewalled/ssh/sshd.log', ports: [{ address: firewalled.address, port: 22 }], executable: '/usr/sbin/sshd', firewalled: true },
];

/**
 * A connect through the firewalled host's 2% loss may lose its SYN; the kernel sends it again
 * after 1 s, so its ports get 3 s before they count as closed.
 */
const FIREWALLED_CONNECT_MS = 3_000;

/** Executables the range runs, with the Debian package that brings each. */
const REQUIRED: readonly { path: string; pkg: string }[] = [
  { path: '/usr/sbin/nginx', pkg: 'nginx' },
  { path: '/usr/sbin/apache2', pkg: 'apache2' },
  { path: '/usr/lib/apache2/modules/mod_ssl.so', pkg: 'apache2' },
  { path: '/usr/sbin/mariadbd', pkg: 'mariadb-server' },
  { path: '/usr/bin/mariadb-install-db', pkg: 'mariadb-server' },
  { path: '/usr/bin/mariadb', pkg: 'mariadb-client' },
  { path: '/usr/bin/php', pkg: 'php' },
  { path: '/usr/share/wordpress/wp-settings.php', pkg: 'wordpress' },
  { path: '/usr/share/wordpress/wp-content/themes/twentytwentythree/style.css', pkg: 'wordpress-theme-twentytwentythree' },
  { path: '/usr/sbin/named', pkg: 'bind9' },
  { path: '/usr/bin/dnssec-signzone', pkg: 'bind9-utils' },
  { path: '/usr/bin/delv', pkg: 'bind9-dnsutils' },
  { path: '/usr/sbin/sshd', pkg: 'openssh-server' },
  { path: '/usr/bin/ssh-keygen', pkg: 'openssh-client' },
  { path: '/usr/sbin/postfix', pkg: 'postfix' },
  { path: '/usr/bin/openssl', pkg: 'openssl' },
  { path: '/usr/sbin/ip', pkg: 'iproute2' },
  { path: '/usr/sbin/nft', pkg: 'nftables' },
];


export class RangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RangeError';
  }
}

/** The packages whose files the range needs and cannot find (empty when all is installed). */
export async function missingPackages(): Promise<{ path: string; pkg: string }[]> {
  const missing: { path: string; pkg: string }[] = [];
  for (const item of REQUIRED) {
    if (!(await exists(item.path))) missing.push(item);
  }
  if (!(await libphp())) missing.push({ path: '/usr/lib/apache2/modules/libphp*.so', pkg: 'libapache2-mod-php' });
  return missing;
}

/** Why the range cannot start here, or undefined when it can. */
export async function cannotStartReason(): Promise<string | undefined> {
  if (process.platform !== 'linux') return 'The scan range runs on Linux only.';
  if (process.getuid?.() !== 0) return 'The scan range needs root (its servers bind ports below 1024 and drop to their own users).';
  const missing = await missingPackages();
  if (missing.length > 0) {
    const packages = [...new Set(missing.map((m) => m.pkg))];
    return `The scan range needs Debian packages that are not installed: ${packages.join(' ')} (missing ${missing.map((m) => m.path).join(', ')}). Install them with: apt-get install -y ${packages.join(' ')} (or run .ci/run).`;
  }
  return undefined;
}

/**
 * Brings the range up (only what is not running already) and takes a lease on it for this process.
 * Resolves when every server answers on every port and WordPress is installed.
 */
export async function startRange(options: { lease?: string } = {}): Promise<Range> {
  const reason = await cannotStartReason();
  if (reason) throw new RangeError(reason);
  await fs.mkdir(path.join(RANGE_DIR, 'leases'), { recursive: true, mode: 0o755 });
  return withLock(async () => {
    await fs.writeFile(path.join(RANGE_DIR, 'leases', options.lease ?? `pid-${process.pid}`), `${process.pid}\n`);
    return bringUp();
  });
}

/**
 * Releases this process's lease and stops the range when no one else holds one (or always, with
 * `force`). Resolves with what it did.
 */
export async function stopRange(options: { lease?: string; force?: boolean } = {}): Promise<{ stopped: boolean; reason: string }> {
  if (!(await exists(RANGE_DIR))) return { stopped: false, reason: 'The range was not set up' };
  return withLock(async () => {
    const leases = path.join(RANGE_DIR, 'leases');
    await fs.rm(path.join(leases, options.lease ?? `pid-${process.pid}`), { force: true });
    if (!options.force) {
      const holders = await liveLeases();
      if (holders.length > 0) return { stopped: false, reason: `Left up: still leased by ${holders.join(', ')}` };
    }
    await stopAll();
    await fs.rm(leases, { recursive: true, force: true });
    return { stopped: true, reason: 'Stopped' };
  });
}

/** Each server's PID (when ours and alive) and whether each of its ports answers. */
export async function rangeStatus(): Promise<ServiceStatus[]> {
  // Without the link the firewalled host's address would route off the machine: no connect then.
  const linkUp = await firewalledLinkUp();
  const dropped = (linkUp ? tcpSilent(firewalled.address, firewalled.droppedPort) : Promise.resolve(false)).then((silent) => ({
    address: firewalled.address,
    port: firewalled.droppedPort,
    silent,
  }));
  return Promise.all(
    SERVICES.map(async (spec) => {
      const pid = await ownPid(spec);
      const reachable = !spec.firewalled || linkUp;
      const ports = await Promise.all(spec.ports.map(async (p) => ({ ...p, open: reachable && (await portAnswers(spec, p)) })));
      const up = pid !== undefined && ports.every((p) => p.open);
      if (!spec.firewalled) return { name: spec.name, pid, ports, up };
      // A listener that answers while the firewall is gone is not the firewalled host.
      const wall = await dropped;
      return { name: spec.name, pid, ports, dropped: wall, up: up && wall.silent };
    }),
  );
}

function portAnswers(spec: ServiceSpec, { address, port }: { address: string; port: number }): Promise<boolean> {
  return tcpOpen(address, port, spec.firewalled ? FIREWALLED_CONNECT_MS : undefined);
}

/** Throws unless every server of the range is up (for tests that expect the global setup to have run). */
export async function assertRangeUp(): Promise<void> {
  const down = (await rangeStatus()).filter((s) => !s.up);
  if (down.length > 0) {
    throw new RangeError(`The scan range is not up (${down.map((s) => s.name).join(', ')}). Run it through npm run test:range, or npm run range:up first.`);
  }
}

// ---------------------------------------------------------------------------------------------
// Bring-up

async function bringUp(): Promise<Range> {
  const started = performance.now();
  const timings: Range['timings'] = {};
  const before = await rangeStatus();
  const running = new Set(before.filter((s) => s.up).map((s) => s.name));
  const toStart = SERVICES.filter((s) => !running.has(s.name));

  // A port held by something that is not ours would make the server fail to bind: say so plainly.
  // The firewalled host's address is checked only while its link is up: without the link it would
  // route off the machine (and only the range's own namespace can hold that address anyway).
  const linkUp = await firewalledLinkUp();
  for (const spec of toStart) {
    // A half-started server of ours (PID alive, a port silent), or children that outlived it
    // (an nginx worker keeps listening after its master is killed).
    await stopService(spec);
    await endLeftovers([spec]);
    if (spec.firewalled && !linkUp) continue;
    for (const { address, port } of spec.ports) {
      if (await tcpOpen(address, port)) {
        throw new RangeError(`${address}:${port} is already in use by a process the range did not start; ${spec.name} cannot listen there.`);
      }
    }
  }
  if (running.size === 0) await cleanRunDir();
  await addLoopbackAddresses();
  if (toStart.some((s) => s.firewalled)) {
    await fs.mkdir(path.join(RANGE_DIR, 'firewalled'), { recursive: true, mode: 0o755 });
    await ensureFirewalledNetwork(path.join(RANGE_DIR, 'firewalled', 'firewall.nft'));
  }

  const timed = <T>(name: keyof Range['timings'], work: () => Promise<T>) => async () => {
    const t0 = performance.now();
    const result = await work();
    timings[name] = Math.round(performance.now() - t0);
    return result;
  };
  const starting = new Set(toStart.map((s) => s.name));
  const startIf = (name: ServiceName, work: () => Promise<void>) => (starting.has(name) ? timed(name, work)() : Promise.resolve());
  // Before any server: named's zones carry TLSA records of the key postfix serves.
  const tlsa = await ensureRangePki(RANGE_DIR, { run });

  const dbReady = startIf('mariadb', startMariadb);
  const wpFiles = starting.has('apache') ? prepareWordpress() : Promise.resolve();
  const tasks = [
    startIf('nginx', startNginx),
    startIf('named', () => startNamed(tlsa)),
    startIf('sshd', startSshd),
    startIf('postfix', startPostfix),
    startIf('fw-nginx', startFirewalledNginx),
    startIf('fw-sshd', startFirewalledSshd),
    dbReady,
    starting.has('mariadb') || starting.has('apache') ? Promise.all([dbReady, wpFiles]).then(timed('wordpress', installWordpress)) : Promise.resolve(),
    wpFiles.then(() => startIf('apache', startApache)),
  ];
  const outcomes = await Promise.allSettled(tasks);
  const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failures.length > 0) {
    // Leave nothing half-started behind: stop what this call started, keep what was running.
    for (const spec of toStart) await stopService(spec);
    throw new RangeError(`The scan range did not come up:\n${failures.map((f) => `- ${errorText(f.reason)}`).join('\n')}`);
  }
  const services = await rangeStatus();
  const down = services.filter((s) => !s.up);
  if (down.length > 0) throw new RangeError(`Started, yet not answering: ${down.map((s) => s.name).join(', ')}`);
  timings.total = Math.round(performance.now() - started);
  await fs.writeFile(path.join(RANGE_DIR, 'range.json'), `${JSON.stringify({ layout: rangeLayout, timings, startedAt: new Date().toISOString() }, null, 2)}\n`);
  return { dir: RANGE_DIR, layout: rangeLayout, services, started: toStart.map((s) => s.name), timings };
}

/** Removes every server's folder (not the leases, not the lock): a fresh range. */
async function cleanRunDir(): Promise<void> {
  for (const entry of await fs.readdir(RANGE_DIR)) {
    if (entry === 'leases' || entry === '.lock' || entry === LOOPBACK_RECORD) continue;
    await fs.rm(path.join(RANGE_DIR, entry), { recursive: true, force: true });
  }
}

/**
 * Gives lo each range address as a /32. Linux already routes all of 127.0.0.0/8 to lo, but named
 * and postfix listen only on addresses an interface carries. Records what it added, for `down`.
 */
async function addLoopbackAddresses(): Promise<void> {
  const present = await run('ip', ['-4', '-o', 'addr', 'show', 'dev', 'lo']);
  const record = path.join(RANGE_DIR, LOOPBACK_RECORD);
  for (const { address } of Object.values(rangeLayout.hosts)) {
    if (present.includes(`inet ${address}/`)) continue;
    await run('ip', ['addr', 'add', `${address}/32`, 'dev', 'lo']);
    await fs.appendFile(record, `${address}\n`);
  }
}

/** Removes the lo addresses the range added (and only those). */
async function removeLoopbackAddresses(): Promise<void> {
  const record = path.join(RANGE_DIR, LOOPBACK_RECORD);
  const added = (await fs.readFile(record, 'utf8').catch(() => '')).split('\n').filter((a) => /^127\.\d+\.\d+\.\d+$/.test(a));
  for (const address of new Set(added)) {
    await run('ip', ['addr', 'del', `${address}/32`, 'dev', 'lo']).catch(() => undefined);
  }
  await fs.rm(record, { force: true });
}

async function freshDir(name: string, owner?: string): Promise<string> {
  const dir = path.join(RANGE_DIR, name);
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  if (owner) await run('chown', [`${owner}:${owner}`, dir]);
  return dir;
}

async function startNginx(): Promise<void> {
  const dir = await freshDir('nginx');
  await fs.mkdir(path.join(dir, 'temp'));
  await fs.mkdir(path.join(dir, 'html', 'files'), { recursive: true });
  await selfSigned(dir, 'www.example.test', ['www.example.test', 'example.test', 'dev.example.test']);
  await render('nginx.conf', path.join(dir, 'nginx.conf'));
  await fs.copyFile(path.join(TEMPLATES, 'index.html'), path.join(dir, 'html', 'index.html'));
  await fs.copyFile(path.join(TEMPLATES, 'backup.sql'), path.join(dir, 'html', 'files', 'backup.sql'));
  await fs.chmod(path.join(dir, 'key.pem'), 0o600);
  // Issue 20: an expired security.txt on the site, and the MTA-STS policy host (certificate from the range CA).
  const { securityTxt } = rangeWebPlants;
  await fs.mkdir(path.join(dir, 'html', '.well-known'));
  await fs.writeFile(path.join(dir, 'html', securityTxt.path), `Contact: ${securityTxt.contact}\nExpires: ${securityTxt.expires}\n`);
  const { policy } = rangeMailPlants.mtaSts;
  await fs.mkdir(path.join(dir, 'mta-sts', '.well-known'), { recursive: true });
  await fs.writeFile(
    path.join(dir, 'mta-sts', '.well-known', 'mta-sts.txt'),
    [`version: ${policy.version}`, `mode: ${policy.mode}`, ...policy.mx.map((mx) => `mx: ${mx}`), `max_age: ${policy.maxAge}`, ''].join('\r\n'),
  );
  await runStarter('nginx', '/usr/sbin/nginx', ['-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], path.join(dir, 'start.log'));
  await waitUp(spec('nginx'));
}

async function startApache(): Promise<void> {
  const dir = path.join(RANGE_DIR, 'apache');
  const caDir = path.join(dir, 'ca');
  await fs.mkdir(path.join(dir, 'run'), { recursive: true });
  await fs.mkdir(caDir, { recursive: true });
  await fs.writeFile(path.join(caDir, 'index.txt'), '');
  await fs.writeFile(path.join(caDir, 'serial'), '1000\n');
  await render('openssl-ca.cnf', path.join(caDir, 'ca.cnf'), { CA_DIR: caDir });
  // The planted certificate: RSA-1024, SHA-1, a name that is not the site's, expired since 2021.
  await run('openssl', ['req', '-new', '-newkey', 'rsa:1024', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-subj', '/O=Old Shop/CN=old-shop.invalid', '-out', path.join(caDir, 'req.csr')]);
  await run('openssl', [
    'ca', '-batch', '-selfsign', '-notext', '-config', path.join(caDir, 'ca.cnf'), '-keyfile', path.join(dir, 'key.pem'),
    '-md', 'sha1', '-startdate', '20190101000000Z', '-enddate', '20210101000000Z',
    '-in', path.join(caDir, 'req.csr'), '-out', path.join(dir, 'cert.pem'),
  ]);
  const php = await libphp();
  if (!php) throw new RangeError('libphp*.so not found (package libapache2-mod-php)');
  await render('apache2.conf', path.join(dir, 'apache2.conf'), { LIBPHP: php });
  await runStarter('apache', '/usr/sbin/apache2', ['-d', dir, '-f', path.join(dir, 'apache2.conf'), '-k', 'start'], path.join(dir, 'start.log'));
  await waitUp(spec('apache'));
}

/** WordPress from Debian's package, copied (its own wp-config.php reads /etc/wordpress), with ours. */
async function prepareWordpress(): Promise<void> {
  await fs.rm(path.join(RANGE_DIR, 'wordpress'), { recursive: true, force: true });
  await freshDir('apache');
  const wp = path.join(RANGE_DIR, 'wordpress');
  await run('cp', ['-a', '/usr/share/wordpress', wp]);
  await fs.rm(path.join(wp, 'wp-config.php'), { force: true });
  await fs.rm(path.join(wp, '.htaccess'), { force: true }); // a link to /etc/wordpress/htaccess
  await render('wp-config.php', path.join(wp, 'wp-config.php'), { DB_PASSWORD });
  await fs.mkdir(path.join(wp, 'wp-content', 'mu-plugins'), { recursive: true });
  await fs.copyFile(path.join(TEMPLATES, 'rampart-range-offline.php'), path.join(wp, 'wp-content', 'mu-plugins', 'rampart-range-offline.php'));
  // Issue 20: a plugin at a vulnerable version, its readme.txt and its stylesheet (enqueued with ?ver= by a must-use plugin).
  const plugin = rangeWebPlants.wordpressPlugin;
  const values = { PLUGIN_SLUG: plugin.slug, PLUGIN_NAME: plugin.name, PLUGIN_VERSION: plugin.version, PLUGIN_ASSET: plugin.asset };
  const folder = path.join(wp, 'wp-content', 'plugins', plugin.slug);
  await fs.mkdir(path.dirname(path.join(folder, plugin.asset)), { recursive: true });
  await render('wp-plugin-readme.txt', path.join(folder, 'readme.txt'), values);
  await fs.writeFile(path.join(folder, plugin.asset), `/* ${plugin.name} ${plugin.version} (Rampart scan range) */\n`);
  await render('rampart-range-plugin.php', path.join(wp, 'wp-content', 'mu-plugins', 'rampart-range-plugin.php'), values);
}

async function installWordpress(): Promise<void> {
  const wp = path.join(RANGE_DIR, 'wordpress');
  const script = path.join(RANGE_DIR, 'apache', 'wp-install.php');
  await render('wp-install.php', script, { WP_ADMIN_PASSWORD });
  // sendmail_path: wp_install mails the admin; nothing in the range sends mail.
  await run('php', ['-d', 'sendmail_path=/bin/true', '-d', 'display_errors=stderr', script], { cwd: wp, timeoutMs: 60_000 });
}

async function startMariadb(): Promise<void> {
  const dir = await freshDir('mariadb', 'mysql');
  await fs.mkdir(path.join(dir, 'data'));
  await run('chown', ['mysql:mysql', path.join(dir, 'data')]);
  const cnf = path.join(dir, 'my.cnf');
  await render('my.cnf', cnf);
  await run('mariadb-install-db', [`--defaults-file=${cnf}`, '--user=mysql', '--skip-test-db', '--basedir=/usr'], { timeoutMs: 60_000 });
  const log = openSync(path.join(dir, 'mariadbd.out'), 'a');
  try {
    // mariadbd stays in the foreground: its own session, so it outlives this process.
    const child = spawn('/usr/sbin/mariadbd', [`--defaults-file=${cnf}`], { detached: true, stdio: ['ignore', log, log], env: CHILD_ENV, cwd: dir });
    child.unref();
  } finally {
    closeSync(log);
  }
  await waitUp(spec('mariadb'));
  const sql = [
    'CREATE DATABASE IF NOT EXISTS wordpress DEFAULT CHARACTER SET utf8mb4;',
    `CREATE USER IF NOT EXISTS 'wordpress'@'localhost' IDENTIFIED BY '${DB_PASSWORD}';`,
    "GRANT ALL PRIVILEGES ON wordpress.* TO 'wordpress'@'localhost';",
    // Planted: the database user may log in over the network, so 3306 greets any client (with its version).
    `CREATE USER IF NOT EXISTS 'wordpress'@'%' IDENTIFIED BY '${DB_PASSWORD}';`,
    "GRANT ALL PRIVILEGES ON wordpress.* TO 'wordpress'@'%';",
  ].join(' ');
  await run('mariadb', [`--defaults-file=${cnf}`, '--protocol=socket', '-uroot', '-e', sql]);
}

async function startNamed(tlsa: RangeTlsa): Promise<void> {
  const dir = await freshDir('named', 'bind');
  const { mtaSts, bimi } = rangeMailPlants;
  const { takeover } = rangeWebPlants;
  await render('named.conf', path.join(dir, 'named.conf'), { TAKEOVER_ZONE: takeover.serviceZone, TAKEOVER_TARGET: takeover.target });
  await render('example.test.zone', path.join(dir, 'example.test.zone'), {
    MTA_STS_RECORD: mtaSts.record,
    TLSA_CURRENT: tlsa.current,
    BIMI_RECORD: bimi.record,
    TAKEOVER_TARGET: takeover.target,
  });
  await render('service-standin.zone', path.join(dir, `${takeover.serviceZone}.zone`), { ZONE: takeover.serviceZone });
  await signRangeZones(dir, { render, run }, tlsa);
  await run('named-checkconf', ['-z', path.join(dir, 'named.conf')]);
  await runStarter('named', '/usr/sbin/named', ['-4', '-u', 'bind', '-c', path.join(dir, 'named.conf')], path.join(dir, 'start.log'));
  await waitUp(spec('named'));
}

async function startSshd(): Promise<void> {
  const dir = await freshDir('ssh');
  await fs.mkdir('/run/sshd', { recursive: true, mode: 0o755 }); // privilege separation folder
  await Promise.all([
    run('ssh-keygen', ['-q', '-t', 'rsa', '-b', '2048', '-N', '', '-C', 'rampart-range', '-f', path.join(dir, 'ssh_host_rsa_key')]),
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'rampart-range', '-f', path.join(dir, 'ssh_host_ed25519_key')]),
  ]);
  const config = path.join(dir, 'sshd_config');
  await render('sshd_config', config);
  await run('/usr/sbin/sshd', ['-t', '-f', config]);
  // sshd re-executes itself, so it must be started by its absolute path.
  await runStarter('sshd', '/usr/sbin/sshd', ['-f', config, '-E', path.join(dir, 'sshd.log')], path.join(dir, 'start.log'));
  await waitUp(spec('sshd'));
}

async function startPostfix(): Promise<void> {
  const dir = await freshDir('postfix');
  // Config apart from queue and data: postfix warns about files in its config folder not owned by root.
  const etc = path.join(dir, 'etc');
  await fs.mkdir(etc);
  await fs.mkdir(path.join(dir, 'queue'));
  await fs.mkdir(path.join(dir, 'data'));
  await run('chown', ['postfix:postfix', path.join(dir, 'data')]);
  // The self-signed certificate pki.ts made, whose key the TLSA records name.
  await fs.copyFile(path.join(RANGE_DIR, 'pki', 'mail.pem'), path.join(etc, 'cert.pem'));
  await fs.copyFile(path.join(RANGE_DIR, 'pki', 'mail.key'), path.join(etc, 'key.pem'));
  await fs.chmod(path.join(etc, 'key.pem'), 0o600);
  await render('main.cf', path.join(etc, 'main.cf'));
  await render('master.cf', path.join(etc, 'master.cf'));
  // `start` creates the queue folders with their owners, then daemonizes the master.
  await runStarter('postfix', '/usr/sbin/postfix', ['-c', etc, 'start'], path.join(dir, 'start.log'));
  await waitUp(spec('postfix'));
}

/** The firewalled host's web server: a plain nginx site on 80 and 443 inside the namespace. */
async function startFirewalledNginx(): Promise<void> {
  const dir = await freshDir('firewalled/nginx');
  await fs.mkdir(path.join(dir, 'temp'));
  await fs.mkdir(path.join(dir, 'html'));
  await fs.writeFile(path.join(dir, 'html', 'index.html'), '<!doctype html><title>Firewalled shop</title><p>Open: 22, 80, 443. Everything else is dropped.</p>\n');
  await selfSigned(dir, 'shop.example.test', ['shop.example.test']);
  await fs.chmod(path.join(dir, 'key.pem'), 0o600);
  await render('firewalled-nginx.conf', path.join(dir, 'nginx.conf'));
  const { command, args } = inNamespace('/usr/sbin/nginx', ['-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')]);
  await runStarter('fw-nginx', command, args, path.join(dir, 'start.log'));
  await waitUp(spec('fw-nginx'));
}

/** The firewalled host's OpenSSH (default algorithms: the planted faults are on 127.0.0.5). */
async function startFirewalledSshd(): Promise<void> {
  const dir = await freshDir('firewalled/ssh');
  await fs.mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'rampart-range-fw', '-f', path.join(dir, 'ssh_host_ed25519_key')]);
  const config = path.join(dir, 'sshd_config');
  await render('firewalled-sshd_config', config);
  await run('/usr/sbin/sshd', ['-t', '-f', config]);
  const { command, args } = inNamespace('/usr/sbin/sshd', ['-f', config, '-E', path.join(dir, 'sshd.log')]);
  await runStarter('fw-sshd', command, args, path.join(dir, 'start.log'));
  await waitUp(spec('fw-sshd'));
}

/** A self-signed RSA-2048 / SHA-256 certificate valid for a year: cert.pem and key.pem in `dir`. */
async function selfSigned(dir: string, commonName: string, names: string[]): Promise<void> {
  await run('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-sha256', '-nodes', '-days', '365',
    '-subj', `/O=Example Test/CN=${commonName}`, '-addext', `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Stopping

async function stopAll(): Promise<void> {
  await Promise.all(SERVICES.map((s) => stopService(s)));
  await endLeftovers(SERVICES);
  await removeLoopbackAddresses();
  await removeFirewalledNetwork();
}

async function stopService(service: ServiceSpec): Promise<void> {
  const pid = await ownPid(service);
  if (pid === undefined) return;
  if (service.name === 'postfix') {
    await run('/usr/sbin/postfix', ['-c', path.join(RANGE_DIR, 'postfix', 'etc'), 'stop'], { timeoutMs: 15_000 }).catch(() => undefined);
  } else {
    signal(pid, 'SIGTERM');
  }
  if (!(await waitGone(pid, STOP_WAIT_MS))) {
    signal(pid, 'SIGKILL');
    await waitGone(pid, 2_000);
  }
}

/**
 * Ends processes of the given services that outlived their parent: only those running one of the
 * services' executables and working in (or configured from) the run folder, each by its PID. Two
 * services share nginx and sshd: the network namespace tells the firewalled host's from loopback's.
 */
async function endLeftovers(services: readonly ServiceSpec[]): Promise<void> {
  const pids = (await fs.readdir('/proc')).filter((e) => /^\d+$/.test(e)).map(Number);
  const ownNet = await fs.readlink('/proc/self/ns/net').catch(() => '');
  for (const pid of pids) {
    if (pid === process.pid) continue;
    const exe = await fs.readlink(`/proc/${pid}/exe`).catch(() => '');
    const elsewhere = (await fs.readlink(`/proc/${pid}/ns/net`).catch(() => ownNet)) !== ownNet;
    const ours = services.some((s) => (s.executable.endsWith('/') ? exe.startsWith(s.executable) : exe === s.executable) && Boolean(s.firewalled) === elsewhere);
    if (ours && (await belongsToRange(pid))) {
      signal(pid, 'SIGKILL');
      await waitGone(pid, 2_000);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Processes, ports, leases

function spec(name: ServiceName): ServiceSpec {
  const found = SERVICES.find((s) => s.name === name);
  if (!found) throw new RangeError(`No service ${name}`);
  return found;
}

/** The PID in the service's PID file, when that process is alive and is the range's. */
async function ownPid(service: ServiceSpec): Promise<number | undefined> {
  const text = await fs.readFile(path.join(RANGE_DIR, service.pidFile), 'utf8').catch(() => '');
  const pid = Number.parseInt(text.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 1) return undefined;
  return (await belongsToRange(pid)) ? pid : undefined;
}

/** True when the process was started from the run folder: its command line names it, or it works in it. */
async function belongsToRange(pid: number): Promise<boolean> {
  const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (cmdline === '') return false;
  if (cmdline.split('\0').some((arg) => arg.includes(`${RANGE_DIR}/`))) return true;
  const cwd = await fs.readlink(`/proc/${pid}/cwd`).catch(() => '');
  return cwd === RANGE_DIR || cwd.startsWith(`${RANGE_DIR}/`);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (!alive(pid) || (await zombie(pid))) return true;
    await sleep(100);
  }
  return !alive(pid);
}

async function zombie(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return / Z /.test(stat.slice(stat.lastIndexOf(')')));
}

/** Resolves when every port of the service accepts a connection (bounded). */
async function waitUp(service: ServiceSpec, ms = START_TIMEOUT_MS): Promise<void> {
  if (service.firewalled && !(await firewalledLinkUp())) throw new RangeError(`${service.name}: the firewalled host's link is not up; not connecting to ${firewalled.address}`);
  for (let waited = 0; waited < ms; waited += 100) {
    const open = await Promise.all(service.ports.map((p) => tcpOpen(p.address, p.port)));
    if (open.every(Boolean) && (await ownPid(service)) !== undefined) return;
    await sleep(100);
  }
  throw new RangeError(`${service.name} did not answer on ${service.ports.map((p) => `${p.address}:${p.port}`).join(', ')} within ${ms} ms.\n${await logTail(service)}`);
}

async function logTail(service: ServiceSpec): Promise<string> {
  const text = await fs.readFile(path.join(RANGE_DIR, service.logFile), 'utf8').catch(() => '(no log)');
  return text.split('\n').slice(-15).join('\n');
}

/** True when address:port accepts a TCP connection within 500 ms. */
export function tcpOpen(address: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * True when address:port neither accepts nor refuses within `ms`: a firewall dropped the SYN. One
 * lost SYN cannot fake it (a drop is what it looks for); a missing firewall answers with a reset.
 */
export function tcpSilent(address: string, port: number, ms = 400): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port });
    const done = (silent: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(silent);
    };
    const timer = setTimeout(() => done(true), ms);
    socket.once('connect', () => done(false));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ETIMEDOUT'));
  });
}

async function liveLeases(): Promise<string[]> {
  const names = await fs.readdir(path.join(RANGE_DIR, 'leases')).catch(() => [] as string[]);
  return names.filter((name) => {
    const pid = /^pid-(\d+)$/.exec(name)?.[1];
    return pid === undefined || alive(Number(pid));
  });
}

/** Runs `work` holding the range's lock (a folder made atomically), waiting a bounded time for it. */
async function withLock<T>(work: () => Promise<T>): Promise<T> {
  await fs.mkdir(RANGE_DIR, { recursive: true, mode: 0o755 });
  const lock = path.join(RANGE_DIR, '.lock');
  for (let waited = 0; ; waited += 250) {
    try {
      await fs.mkdir(lock);
      await fs.writeFile(path.join(lock, 'pid'), `${process.pid}\n`);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await fs.readFile(path.join(lock, 'pid'), 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && !alive(holder)) {
        await fs.rm(lock, { recursive: true, force: true }); // its holder died
        continue;
      }
      if (waited >= LOCK_WAIT_MS) throw new RangeError(`The range is locked by process ${holder} (${lock}); waited ${LOCK_WAIT_MS} ms.`);
      await sleep(250);
    }
  }
  try {
    return await work();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Files and commands

/** Writes a template with {{KEY}} filled in; a placeholder without a value is an error. */
async function render(template: string, target: string, extra: Record<string, string> = {}): Promise<void> {
  const values: Record<string, string> = {
    DIR: RANGE_DIR,
    NGINX_ADDR: nginx.address,
    APACHE_ADDR: apache.address,
    MAIL_ADDR: mail.address,
    SSH_ADDR: ssh.address,
    DNS_ADDR: dns.address,
    FW_ADDR: firewalled.address,
    ...extra,
  };
  const text = await fs.readFile(path.join(TEMPLATES, template), 'utf8');
  const rendered = text.replace(/\{\{([A-Z_]+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new RangeError(`Template ${template} uses {{${key}}}, which has no value`);
    return value;
  });
  await fs.writeFile(target, rendered, { mode: 0o644 });
}

/** Runs a command to completion (bounded); rejects with its stderr when it fails. */
function run(command: string, args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd, env: CHILD_ENV, timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new RangeError(`${command} ${args.join(' ')} failed: ${String(stderr).trim() || error.message}`));
      else resolve(String(stdout));
    });
  });
}

/**
 * Runs a server's start command, which daemonizes and exits. Its output goes to a file (a pipe
 * would stay open in the daemon); resolves when the command itself exits with 0.
 */
async function runStarter(name: string, command: string, args: string[], logPath: string): Promise<void> {
  const log = openSync(logPath, 'a');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(command, args, { detached: true, stdio: ['ignore', log, log], env: CHILD_ENV, cwd: RANGE_DIR });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new RangeError(`${name}: ${command} did not return within ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    if (code !== 0) {
      const out = await fs.readFile(logPath, 'utf8').catch(() => '');
      throw new RangeError(`${name}: ${command} ${args.join(' ')} exited with ${code}\n${out.split('\n').slice(-15).join('\n')}`);
    }
  } finally {
    closeSync(log);
  }
}

async function libphp(): Promise<string | undefined> {
  const dir = '/usr/lib/apache2/modules';
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const found = names.filter((n) => /^libphp[\d.]*\.so$/.test(n)).sort().at(-1);
  return found ? path.join(dir, found) : undefined;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The run folder is written into every config: an absolute path of plain characters only. */
function checkedRunDir(dir: string): string {
  const normal = path.resolve(dir);
  if (!/^\/[A-Za-z0-9._/-]+$/.test(normal) || normal.split('/').length < 3) {
    throw new RangeError(`RAMPART_RANGE_DIR must be an absolute path of letters, digits, . _ - and / at least two levels deep (got ${dir})`);
  }
  return normal;
}

// ---------------------------------------------------------------------------------------------
// CLI

function printStatus(services: ServiceStatus[]): void {
  for (const s of services) {
    const ports = [
      ...s.ports.map((p) => `${p.address}:${p.port} ${p.open ? 'open' : 'closed'}`),
      ...(s.dropped ? [`${s.dropped.address}:${s.dropped.port} ${s.dropped.silent ? 'dropped' : 'NOT DROPPED'}`] : []),
    ].join(', ');
    console.log(`${s.up ? 'up  ' : 'DOWN'} ${s.name.padEnd(8)} pid ${String(s.pid ?? '-').padEnd(8)} ${ports}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...flags] = argv;
  switch (command) {
    case 'up': {
      const range = await startRange({ lease: 'cli' });
      printStatus(range.services);
      console.log(range.started.length === 0 ? 'range: already up' : `range: started ${range.started.join(', ')} in ${range.timings.total} ms`);
      console.log(`range: run folder ${range.dir}; resolver ${rangeLayout.resolver.host}:${rangeLayout.resolver.port}; never scan port 2024`);
      return 0;
    }
    case 'down': {
      const result = await stopRange({ lease: 'cli', force: true });
      if (flags.includes('--clean')) await fs.rm(RANGE_DIR, { recursive: true, force: true });
      console.log(`range: ${result.reason.toLowerCase()}${flags.includes('--clean') ? `; removed ${RANGE_DIR}` : ''}`);
      return 0;
    }
    case 'status': {
      const services = await rangeStatus();
      printStatus(services);
      return services.every((s) => s.up) ? 0 : 1;
    }
    default:
      console.error('usage: tsx test/range/range.ts up | down [--clean] | status');
      return 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`range: ${errorText(error)}`);
      process.exit(1);
    },
  );
}
