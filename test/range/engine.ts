/**
 * Rampart's engine pointed at the range: the settings every range scan uses (the range's DNS
 * server as the only resolver, private targets allowed, port 2024 excluded) and one call to scan
 * a range host. Scanner assertions in the range tests go through `scanRangeHost`.
 */
import { parseWebTarget } from '../../lambdas/domain/target.js';
import { scan, type ScanOptions, type ScanReport, type ScanSettings } from '../../lambdas/scanner/scan.js';
import { readRangeTrustAnchors } from './dnssec-zones.js';
import { rangeLayout } from './layout.js';
import { readRangeCa } from './pki.js';
import { RANGE_DIR } from './range.js';

export const rangeScanSettings: ScanSettings = {
  resolvers: [{ ...rangeLayout.resolver }],
  dnsTimeoutMs: 2_000,
  allowPrivateTargets: true,
  topPorts: 1000,
  excludePorts: [...rangeLayout.excludePorts],
};

/**
 * Scans a range host (a name of example.test or a URL, e.g. 'https://wp.example.test') with the
 * engine. Pass the network clients in `options.net`; settings may be narrowed (never widened past
 * the exclude list: 2024 stays excluded whatever is given). DNSSEC is validated from the range's
 * own trust anchor, the key of its parent zone test. made at the last `up` (dnssec-zones.ts), and
 * certificates are trusted by Node's root store plus the range's own CA (pki.ts), which signs only
 * the MTA-STS policy host's certificate.
 */
export async function scanRangeHost(target: string, options: ScanOptions = {}, settings: Partial<ScanSettings> = {}): Promise<ScanReport> {
  const webTarget = parseWebTarget(target);
  if (!webTarget) throw new Error(`Not a web target: ${target}`);
  const excludePorts = [...new Set([...(settings.excludePorts ?? []), ...rangeLayout.excludePorts])];
  const dnssecTrustAnchors = settings.dnssecTrustAnchors ?? (await readRangeTrustAnchors(RANGE_DIR));
  const extraCaCertificates = settings.extraCaCertificates ?? (await readRangeCa(RANGE_DIR));
  return scan(
    webTarget,
    { ...rangeScanSettings, ...(dnssecTrustAnchors ? { dnssecTrustAnchors } : {}), ...(extraCaCertificates ? { extraCaCertificates } : {}), ...settings, excludePorts },
    options,
  );
}
