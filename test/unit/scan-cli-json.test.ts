import { describe, expect, it } from 'vitest';
import { reportJson } from '../../bin/scan-report.js';
import { scanApacheShop } from '../support/apache-software-check.js';

describe('npm run scan -- --json', () => {
  it("prints each software finding's CVEs as objects, known exploited first, with KEV, EPSS and the fix", async () => {
    // Prepare
    const report = await scanApacheShop();

    // Act: what the CLI writes, read back.
    const printed = JSON.parse(JSON.stringify(reportJson(report), null, 2));

    // Assess
    const apache = printed.findings.find((f: { id: string }) => f.id === 'cve.apache_http_server');
    expect(apache).toMatchObject({ severity: 'critical', title: 'Apache HTTP Server 2.4.49 has 61 known vulnerabilities (3 exploited in the wild)' });
    expect(apache.cves).toHaveLength(61);
    expect(apache.cveDetails.map((c: { id: string }) => c.id)).toEqual(apache.cves);
    expect(apache.cveDetails.slice(0, 4).map((c: { id: string; exploited: boolean; kevDateAdded?: string; ransomware?: boolean; fixedIn?: string }) => [c.id, c.exploited, c.kevDateAdded, c.ransomware, c.fixedIn])).toEqual([
      ['CVE-2021-41773', true, '2021-11-03', true, '2.4.50'],
      ['CVE-2021-42013', true, '2021-11-03', true, '2.4.51'],
      ['CVE-2024-38475', true, '2025-05-01', false, '2.4.60'],
      ['CVE-2026-44631', false, undefined, undefined, '2.4.68'],
    ]);
    expect(apache.cveDetails[0]).toMatchObject({ cvssScore: 9.8, severity: 'critical', epss: 0.99992, epssPercentile: 0.99986, summary: expect.stringContaining('path normalization') });
    expect(apache.cveDetails[2].cvssVector).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N');
  });
});
