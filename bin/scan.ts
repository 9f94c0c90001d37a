/**
 * `npm run scan -- <url|domain> [--json] [--passive] [--ports 100|1000] [--resolver host:port]
 *   [--exclude-ports 2024,…] [--allow-private] [--timeout s]`
 *
 * The same scan engine the worker runs, from the command line. The operator's own tool: active
 * (full power) unless `--passive`, which reproduces what an unverified requester gets (DECISIONS
 * "Scan modes"). Exit code 0 when the scan ran (whatever it found), 2 for a bad target or bad arguments.
 */
import { parseArgs } from 'node:util';
import { configSchema, parseResolvers } from '../lambdas/config.js';
import type { Finding } from '../lambdas/domain/audit.js';
import { DomainError } from '../lambdas/domain/errors.js';
import { gradeCapHeading } from '../lambdas/domain/grade-caps.js';
import type { ScannerProduct } from '../lambdas/domain/platform-guides.js';
import { scannerProduct } from '../lambdas/domain/site-access-view.js';
import { parseWebTarget } from '../lambdas/domain/target.js';
import { scan, type ScanReport } from '../lambdas/scanner/scan.js';
import { reportJson, severityOrder } from './scan-report.js';

const usage = 'Usage: npm run scan -- <url|domain> [--json] [--passive] [--ports 100|1000] [--resolver host:port[,…]] [--exclude-ports 2024,…] [--allow-private] [--timeout seconds]';

function fail(code: string, message: string): never {
  console.error(`${code}: ${message}`);
  console.error(usage);
  process.exit(2);
}

function parsePorts(list: string | undefined): number[] {
  if (!list) return [];
  const ports = list.split(',').map((p) => Number(p.trim()));
  if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) fail('invalid_arguments', `--exclude-ports must list port numbers, not "${list}"`);
  return ports;
}

/**
 * A software finding's known exploited CVEs, one line each: "CVE-2021-41773 (CVSS 9.8, KEV since
 * 2021-11-03, ransomware)", with the source record where its licence asks for a link (Wordfence).
 */
function exploitedCves(finding: Finding): string[] {
  return (finding.cveDetails ?? [])
    .filter((cve) => cve.exploited)
    .map((cve) => {
      const facts = [cve.cvssScore !== undefined ? `CVSS ${cve.cvssScore.toFixed(1)}` : '', cve.kevDateAdded ? `KEV since ${cve.kevDateAdded}` : 'KEV', cve.ransomware ? 'ransomware' : ''];
      return `${cve.id} (${facts.filter(Boolean).join(', ')})${cve.fixedIn ? ` fixed in ${cve.fixedIn}` : ''}${cve.references?.length ? ` ${cve.references.join(' ')}` : ''}`;
    });
}

function printHuman(report: ScanReport) {
  const line = (text = '') => console.log(text);
  line(`${report.target.url}  (${report.addresses.join(', ') || 'no address'})`);
  const { grades, siteAccess } = reportJson(report, cliProduct());
  if (siteAccess) {
    line(siteAccess.headline);
    line(`  ${siteAccess.reason}`);
    if (siteAccess.guide) siteAccess.guide.steps.forEach((step, i) => line(`  ${i + 1}. ${step}`));
  }
  line(`Grade ${report.grade}${report.partial ? ' (partial)' : ''}  score ${report.score}/100  risk ${report.riskLevel}  in ${(report.durationMs / 1000).toFixed(1)} s  ·  ${report.mode} scan`);
  for (const cap of report.caps) line(`  ${gradeCapHeading(cap)}: ${cap.reason}`);
  const observatory = grades.httpObservatory?.grade ? `${grades.httpObservatory.grade} (${grades.httpObservatory.score})` : 'n/a';
  line(`TLS grade ${grades.tls ?? 'n/a'}  ·  HTTP Observatory grade ${observatory}`);
  for (const severity of severityOrder) {
    const findings = report.findings.filter((f) => f.severity === severity);
    if (findings.length === 0) continue;
    line();
    line(`${severity.toUpperCase()} (${findings.length})`);
    for (const f of findings) {
      line(`  - ${f.title}${f.evidence ? ` — ${f.evidence}` : ''}  [${f.id}]`);
      for (const cve of exploitedCves(f)) line(`      exploited: ${cve}`);
    }
  }
  if (report.notChecked.length > 0) {
    line();
    line(`NOT CHECKED (${report.notChecked.length})`);
    for (const item of report.notChecked) line(`  - ${item.title}${item.part ? `: ${item.part}` : ''} — ${item.reason}`);
  }
  line();
  line('Checks:');
  for (const c of report.checks) line(`  ${c.name.padEnd(12)} ${c.status.padEnd(8)} ${String(c.durationMs ?? '-').padStart(6)} ms${c.reason ? `  ${c.reason}` : ''}`);
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      passive: { type: 'boolean', default: false },
      ports: { type: 'string', default: '100' },
      resolver: { type: 'string' },
      'exclude-ports': { type: 'string' },
      'allow-private': { type: 'boolean', default: false },
      timeout: { type: 'string', default: '40' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if (positionals.length !== 1) fail('invalid_arguments', 'give exactly one website to scan');
  const target = parseWebTarget(positionals[0]!);
  if (!target) fail('invalid_target', `"${positionals[0]}" is not a website address`);
  const topPorts = Number(values.ports);
  if (!Number.isInteger(topPorts) || topPorts < 1 || topPorts > 1000) fail('invalid_arguments', '--ports takes a number from 1 to 1000 (100 free, 1000 paid)');
  const timeout = Number(values.timeout);
  if (!(timeout > 0 && timeout <= 600)) fail('invalid_arguments', '--timeout takes seconds, 1 to 600');
  let resolvers: { host: string; port: number }[] = [];
  try {
    resolvers = parseResolvers(values.resolver ?? '');
  } catch (error) {
    fail('invalid_arguments', (error as Error).message);
  }

  try {
    const report = await scan(
      target,
      {
        resolvers,
        dnsTimeoutMs: 2500,
        allowPrivateTargets: values['allow-private'],
        topPorts,
        excludePorts: parsePorts(values['exclude-ports']),
        certificateTransparencyUrl: process.env.SCAN_CT_URL || undefined,
        // DECISIONS "Scanner identity": the deployment's name and site, as the Lambdas read them (defaults: the local ones).
        userAgent: cliUserAgent(),
        // DS records, ';'-separated, as the Lambdas' SCAN_DNSSEC_TRUST_ANCHORS (the scan range's: named/trust-anchor.ds).
        ...(process.env.SCAN_DNSSEC_TRUST_ANCHORS ? { dnssecTrustAnchors: process.env.SCAN_DNSSEC_TRUST_ANCHORS.split(';').map((a) => a.trim()).filter(Boolean) } : {}),
      },
      { deadlineMs: timeout * 1000, mode: values.passive ? 'passive' : 'active' },
    );
    if (values.json) console.log(JSON.stringify(reportJson(report, cliProduct()), null, 2));
    else printHuman(report);
  } catch (error) {
    if (error instanceof DomainError) fail(error.code, error.message);
    throw error;
  }
}

/** PRODUCT_NAME and SITE_URL from the environment, checked by the Lambdas' own schema: the scanner as a blocked report's steps name it. */
function cliProduct(): ScannerProduct {
  const parsed = configSchema.pick({ PRODUCT_NAME: true, SITE_URL: true }).safeParse({ PRODUCT_NAME: process.env.PRODUCT_NAME || undefined, SITE_URL: process.env.SITE_URL || undefined });
  if (!parsed.success) fail('invalid_arguments', `PRODUCT_NAME or SITE_URL: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return scannerProduct(parsed.data.PRODUCT_NAME, parsed.data.SITE_URL);
}

function cliUserAgent(): string {
  return cliProduct().userAgent;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
