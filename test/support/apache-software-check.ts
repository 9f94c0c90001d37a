import type { ScanReport } from '../../lambdas/scanner/scan.js';
import type { CheckDefinition } from '../../lambdas/scanner/check.js';
import { mergeSightings } from '../../lambdas/scanner/checks/software/merge.js';
import { vulnerabilityFindings } from '../../lambdas/scanner/checks/software/vulnerabilities.js';
import { scan } from '../../lambdas/scanner/scan.js';
import { offlineNet } from './offline-net.js';

/**
 * The software check's analysis of one Server header (Apache/2.4.49: 61 known CVEs, three of them
 * in CISA's KEV catalog), without the network.
 */
export const apacheSoftwareCheck: CheckDefinition = {
  name: 'software',
  budgetMs: 1000,
  needsAddress: true,
  passive: 'runs',
  run: async () => {
    const outcome = vulnerabilityFindings(
      mergeSightings([
        { name: 'Apache HTTP Server', product: 'apache_http_server', category: 'web-server', version: '2.4.49', confidence: 'high', source: 'server-header', where: 'Server header on https://shop.example.test/', value: 'Apache/2.4.49' },
      ]),
    );
    return { findings: outcome.findings, data: { technologies: outcome.technologies, vulnerabilities: outcome.vulnerabilities } };
  },
};

/** The real scan engine on https://shop.example.test/ (a public address, no network) with only that check. */
export const scanApacheShop = (): Promise<ScanReport> =>
  scan(
    { url: 'https://shop.example.test/', host: 'shop.example.test' },
    { resolvers: [], dnsTimeoutMs: 1000, allowPrivateTargets: false },
    { resolver: { resolve4: async () => ['93.184.216.34'], resolve6: async () => [] }, net: offlineNet, checks: [apacheSoftwareCheck] },
  );
