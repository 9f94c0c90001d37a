/**
 * End-of-life software: every detected product with a release cycle in the knowledge base
 * (endoflife.date, lambdas/scanner/vulndb/eol.ts), and the operating system its banners show, becomes
 * "PHP 7.4 reached end of life on 2022-11-28: no security fixes since", dated against the scan's date,
 * with what to upgrade to. Pure: the scan date is an input.
 */
import type { Finding, Severity } from '../../../domain/audit.js';
import { cycleOf, hasEnded, type ReleaseCycle, releaseCycles, upgradeTargets } from '../../vulndb/eol.js';
import { nameKey } from './names.js';
import type { Technology } from './types.js';

/** One product and version whose release cycle was looked up. */
export interface EndOfLifeSubject {
  /** The endoflife.date product (php, apache-http-server, debian, windows-server …). */
  product: string;
  /** The version it was seen at ("7.4.33"; "12" for Debian 12). */
  version: string;
  /** What was seen, for the finding: "PHP 7.4.33", "Debian 12 (from the package +deb12u10)". */
  seen: string;
  /** Where it was seen. */
  seenIn: string[];
  /** The banner shows a distribution package: the distribution may still fix it (its own support dates count). */
  distribution?: string;
  /** Several cycles are possible (IIS 10.0 ships with Windows Server 2016 to 2025): ended only when all have. */
  alternatives?: string[];
  category: Technology['category'] | 'operating-system';
}

/** A subject's cycle and support on the scan date, for the check's data. */
export interface EndOfLifeStatus {
  product: string;
  version: string;
  cycle: string;
  name: string;
  /** End of security support: a date, true (ended, undated), false (none announced). */
  eol: string | boolean;
  ended: boolean;
  findingId?: string;
}

/** Knowledge-base product ids and display names → endoflife.date products. */
const PRODUCTS: Record<string, string> = {
  apache_http_server: 'apache-http-server',
  apachehttpserver: 'apache-http-server',
  nginx: 'nginx',
  php: 'php',
  python: 'python',
  django: 'django',
  laravel: 'laravel',
  magento: 'magento',
  wordpress: 'wordpress',
  drupal: 'drupal',
  joomla: 'joomla',
  jquery: 'jquery',
  bootstrap: 'bootstrap',
  angularjs: 'angularjs',
  react: 'react',
  nodejs: 'nodejs',
  openssl: 'openssl',
  mariadb: 'mariadb',
  mysql: 'mysql',
  postgresql: 'postgresql',
  redis: 'redis',
  tomcat: 'tomcat',
  apachetomcat: 'tomcat',
  exchange: 'exchange',
  microsoftexchangeserver: 'exchange',
};

/** IIS ships with Windows Server: its version names the release (IIS 10.0 is every release since 2016). */
const IIS_WINDOWS: Record<string, string[]> = {
  '6.0': ['2003-sp2'],
  '7.0': ['2008-sp2'],
  '7.5': ['2008-r2-sp1'],
  '8.0': ['2012'],
  '8.5': ['2012-r2'],
  '10.0': ['2016', '2019', '2022', '2025'],
};

/**
 * The distribution release a package's upstream version was first shipped in, where only one release
 * shipped it (general knowledge of the releases' packages, not endoflife.date data): OpenSSH and Apache
 * banners name the distribution but not its release.
 */
const PACKAGED_IN: Record<string, Record<string, Record<string, string>>> = {
  debian: { openssh: { '7.4p1': '9', '7.9p1': '10', '8.4p1': '11', '9.2p1': '12', '10.0p1': '13' } },
  ubuntu: {
    openssh: { '7.2p2': '16.04', '7.6p1': '18.04', '8.2p1': '20.04', '8.9p1': '22.04', '9.6p1': '24.04' },
    apache_http_server: { '2.4.18': '16.04', '2.4.29': '18.04', '2.4.41': '20.04', '2.4.52': '22.04', '2.4.58': '24.04' },
  },
  centos: { apache_http_server: { '2.2.3': '5', '2.2.15': '6', '2.4.6': '7', '2.4.37': '8' } },
  rhel: { apache_http_server: { '2.2.3': '5', '2.2.15': '6', '2.4.6': '7', '2.4.37': '8', '2.4.57': '9', '2.4.62': '9' } },
};

/** The operating system release a technology's banner shows, if it shows one. */
export function operatingSystemOf(technology: Technology): { product: string; version: string; how: string } | undefined {
  const hint = `${technology.backportHint ?? ''} ${technology.evidence.join(' ')}`;
  const debian = /[+~]deb(\d{1,2})u\d+/i.exec(hint) ?? /~deb(\d{1,2})\b/i.exec(hint);
  if (debian) return { product: 'debian', version: debian[1]!, how: `the package version ${debian[0].replace(/^[+~]/, '')}` };
  const ubuntu = /ubuntu\d*[.~](\d{2}\.\d{2})/i.exec(hint);
  if (ubuntu) return { product: 'ubuntu', version: ubuntu[1]!, how: `the package version ${ubuntu[0]}` };
  const el = /(?:^|[^a-z0-9])el(\d{1,2})(?:_\d+)?(?![a-z0-9])/i.exec(hint);
  const family = /\bCentOS\b/i.test(hint) ? 'centos' : /\b(?:Red Hat|RHEL)\b/i.test(hint) ? 'rhel' : undefined;
  if (el) return { product: family ?? 'rhel', version: el[1]!, how: `the package release el${el[1]}` };
  const distribution = /\bDebian\b/i.test(hint) ? 'debian' : /\bUbuntu\b/i.test(hint) ? 'ubuntu' : family;
  const packaged = distribution && technology.product && technology.version ? PACKAGED_IN[distribution]?.[technology.product]?.[technology.version.toLowerCase()] : undefined;
  if (distribution && packaged) return { product: distribution, version: packaged, how: `${technology.name} ${technology.version}, which only that release shipped` };
  return undefined;
}

/** The products with a release cycle among the technologies, and the operating systems their banners show. */
export function endOfLifeSubjects(technologies: readonly Technology[]): EndOfLifeSubject[] {
  const subjects: EndOfLifeSubject[] = [];
  const systems = new Map<string, EndOfLifeSubject>();
  for (const technology of technologies) {
    if (!technology.version || technology.confidence === 'low') continue;
    const version = technology.version;
    const seenIn = technology.seenIn;
    const product = PRODUCTS[technology.product ?? ''] ?? PRODUCTS[nameKey(technology.name)];
    if (product && (technology.versionScope !== 'line' || releaseCycles(product).some((cycle) => cycle.cycle === version))) {
      subjects.push({
        product,
        version,
        seen: `${technology.name} ${version}`,
        seenIn,
        ...(technology.distribution ? { distribution: technology.distribution } : {}),
        category: technology.category,
      });
    }
    if (technology.product === 'iis' && IIS_WINDOWS[version]) {
      const releases = IIS_WINDOWS[version]!;
      subjects.push({
        product: 'windows-server',
        version: releases[0]!,
        seen: `Microsoft IIS ${version}, which ships with ${releases.length === 1 ? 'this Windows Server release' : 'Windows Server 2016 and later'}`,
        seenIn,
        ...(releases.length > 1 ? { alternatives: releases.slice(1) } : {}),
        category: 'operating-system',
      });
    }
    const system = operatingSystemOf(technology);
    if (system) {
      const key = `${system.product}\u0000${system.version}`;
      const known = systems.get(key);
      if (known) known.seenIn = [...new Set([...known.seenIn, ...seenIn])];
      else systems.set(key, { product: system.product, version: system.version, seen: `${technology.name} ${version} (${system.how})`, seenIn: [...seenIn], category: 'operating-system' });
    }
  }
  return [...subjects, ...systems.values()];
}

/** "4 years and 2 months", "5 months", "12 days": how long before `today` the date was. */
export function timeSince(date: string, today: string): string {
  const [from, to] = [new Date(`${date}T00:00:00Z`), new Date(`${today}T00:00:00Z`)];
  let months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
  if (to.getUTCDate() < from.getUTCDate()) months--;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (months <= 0) return plural(Math.round((to.getTime() - from.getTime()) / 86_400_000), 'day');
  const years = Math.floor(months / 12);
  const rest = months % 12;
  if (years === 0) return plural(rest, 'month');
  return rest === 0 ? plural(years, 'year') : `${plural(years, 'year')} and ${plural(rest, 'month')}`;
}

function targetText(cycle: ReleaseCycle): string {
  const until = typeof cycle.eol === 'string' ? `, security fixes until ${cycle.eol}` : '';
  return `${cycle.name}${cycle.lts ? ' (LTS)' : ''}${cycle.latest ? ` (latest ${cycle.latest}${until})` : until ? ` (${until.slice(2)})` : ''}`;
}

/** Extended support a cycle past `eol` may still have (endoflife.date's extended phases were not kept). */
const EXTENDED: Record<string, string> = {
  debian: 'Debian LTS may extend security support for some packages for about two more years.',
  ubuntu: 'Ubuntu Pro (ESM) extends security fixes for subscribers.',
  rhel: 'Red Hat sells Extended Life-cycle Support for some releases.',
  centos: 'CentOS has no extended support; its successors are CentOS Stream, Rocky Linux and AlmaLinux.',
  'windows-server': 'Microsoft sells Extended Security Updates for some releases.',
  exchange: 'Microsoft sells Extended Security Updates for some releases.',
  wordpress: 'WordPress supports only its newest branch; older branches sometimes get security backports, without a promise.',
};

/** Client-side libraries run in visitors' browsers: end of life matters, but the server is not exposed by it. */
const CLIENT_SIDE: ReadonlySet<string> = new Set(['jquery', 'bootstrap', 'angularjs', 'react']);

/** The finding id of a product's end of life: `eol.<product>`, stable across scans. */
export function endOfLifeFindingId(product: string): string {
  return `eol.${product}`;
}

/**
 * One finding per subject whose cycle is out of security support on `today` (YYYY-MM-DD), and every
 * subject's status for the data. Severity: medium (no fixes for whatever is found next); low for a
 * browser library, and for a distribution package, whose distribution may still patch it.
 */
export function endOfLifeFindings(subjects: readonly EndOfLifeSubject[], today: string): { findings: Finding[]; statuses: EndOfLifeStatus[] } {
  const findings: Finding[] = [];
  const statuses: EndOfLifeStatus[] = [];
  const perProduct = new Map<string, number>();
  const resolved = subjects.flatMap((subject) => {
    const cycle = subject.product === 'windows-server' ? releaseCycles('windows-server').find((c) => c.cycle === subject.version) : cycleOf(subject.product, subject.version);
    return cycle ? [{ subject, cycle }] : [];
  });
  for (const { subject } of resolved) perProduct.set(subject.product, (perProduct.get(subject.product) ?? 0) + 1);
  for (const { subject, cycle } of resolved) {
    const alternatives = (subject.alternatives ?? []).map((id) => releaseCycles(subject.product).find((c) => c.cycle === id)).filter((c): c is ReleaseCycle => c !== undefined);
    const ended = hasEnded(cycle, today) && alternatives.every((alternative) => hasEnded(alternative, today));
    const id = (perProduct.get(subject.product) ?? 0) > 1 ? `${endOfLifeFindingId(subject.product)}-${cycle.cycle.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}` : endOfLifeFindingId(subject.product);
    statuses.push({ product: subject.product, version: subject.version, cycle: cycle.cycle, name: cycle.name, eol: cycle.eol, ended, ...(ended ? { findingId: id } : {}) });
    if (!ended || findings.some((f) => f.id === id)) continue;

    const dated = typeof cycle.eol === 'string';
    const title = dated ? `${cycle.name} reached end of life on ${cycle.eol}: no security fixes since` : `${cycle.name} has reached end of life: no security fixes`;
    const since = dated ? ` (${timeSince(cycle.eol as string, today)} before this scan of ${today})` : '';
    const { next, newest } = upgradeTargets(cycle, today);
    const upgrade = next
      ? newest && newest !== next
        ? `Upgrade to a supported release: ${targetText(next)} at least, or better the newest, ${targetText(newest)}.`
        : `Upgrade to a supported release: ${targetText(next)}.`
      : `No newer ${cycle.title} release is supported today: plan to replace it.`;
    const distributionNote = subject.distribution
      ? ` The banner shows a ${subject.distribution} package: distributions keep patching the versions they ship for as long as their own release is supported, so what counts for this server is that release's end of life.`
      : '';
    const extended = EXTENDED[subject.product] ? ` ${EXTENDED[subject.product]}` : '';
    const severity: Severity = CLIENT_SIDE.has(subject.product) || subject.distribution ? 'low' : 'medium';
    findings.push({
      id,
      check: 'software',
      title,
      severity,
      category: 'Vulnerabilities',
      evidence: `${subject.seen} (seen in ${subject.seenIn.slice(0, 3).join('; ')}${subject.seenIn.length > 3 ? ` and ${subject.seenIn.length - 3} more places` : ''}); ${cycle.name}: end of security support ${dated ? cycle.eol : 'passed (no date given)'} per endoflife.date`,
      description:
        `${cycle.name} is out of security support${dated ? ` since ${cycle.eol}${since}` : ''}: vulnerabilities found in it from then on are not fixed, ` +
        `and scanners and attackers know that.${distributionNote}${extended}`,
      recommendation: `${upgrade}${subject.distribution ? ' If this server gets its packages from the distribution, upgrade the distribution release itself.' : ''}`,
    });
  }
  return { findings, statuses };
}
