import { describe, expect, it } from 'vitest';
import { analyzeSoftware, type ProbedResponse, type SoftwareData } from '../../../lambdas/scanner/checks/software.check.js';
import { mergeComponents, pageComponents, wordpressCheckComponents } from '../../../lambdas/scanner/checks/software/wordpress-components.js';
import { loadWordPressVulns } from '../../../lambdas/scanner/vulndb/wordpress.js';
import { probeOf } from './software-support.js';

const WORDFENCE_RECORD = /^https:\/\/www\.wordfence\.com\/threat-intel\/vulnerabilities\/id\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A WordPress shop's landing page as a browser loads it: core 6.4.3, two plugins and a theme with their own ?ver=. */
const SHOP_PAGE = `<!doctype html><html><head>
<meta name="generator" content="WordPress 6.4.3">
<link rel='stylesheet' id='wp-block-library-css' href='https://shop.example/wp-includes/css/dist/block-library/style.min.css?ver=6.4.3' media='all' />
<link rel='stylesheet' id='duplicator-css' href='https://shop.example/wp-content/plugins/duplicator/assets/css/style.css?ver=1.3.26' media='all' />
<link rel='stylesheet' id='15zine-css' href='https://shop.example/wp-content/themes/15zine/style.css?ver=3.2.9' media='all' />
<script src='https://shop.example/wp-content/plugins/social-warfare/assets/js/script.min.js?ver=3.5.3'></script>
<script src='https://shop.example/wp-content/plugins/akismet/_inc/akismet-frontend.js?ver=6.4.3'></script>
<script src='https://other-blog.example/wp-content/plugins/wp-file-manager/lib/js/elfinder.min.js?ver=6.8'></script>
</head><body>Shop</body></html>`;

const page = (body = SHOP_PAGE): ProbedResponse => ({ url: 'https://shop.example/', status: 200, headers: { 'content-type': ['text/html; charset=UTF-8'] }, body, redirects: [] });

describe('WordPress plugins and themes in the software check', () => {
  it('reads the plugins and themes the page loads from its own hosts, with their ?ver= (all a passive scan has)', () => {
    expect(pageComponents('https://shop.example/', SHOP_PAGE)).toEqual([
      { kind: 'plugin', slug: 'duplicator', version: '1.3.26', versionSource: 'asset-ver', seenIn: 'asset URLs on https://shop.example/' },
      { kind: 'plugin', slug: 'social-warfare', version: '3.5.3', versionSource: 'asset-ver', seenIn: 'asset URLs on https://shop.example/' },
      // ?ver= equal to the core release is WordPress's stamp, not akismet's version.
      { kind: 'plugin', slug: 'akismet', version: null, versionSource: 'none', seenIn: 'asset URLs on https://shop.example/' },
      { kind: 'theme', slug: '15zine', version: '3.2.9', versionSource: 'asset-ver', seenIn: 'asset URLs on https://shop.example/' },
    ]);
  });

  it('matches a plugin seen on the page to its CVEs: the KEV one first, with the CISA date, the fixed version and the Wordfence record', async () => {
    // Prepare
    const wordpressVulns = await loadWordPressVulns();

    // Act
    const output = analyzeSoftware(probeOf({ page: page() }), { wordpressVulns });

    // Assess
    const duplicator = output.findings.find((f) => f.id === 'cve.wordpress-plugin.duplicator')!;
    expect(duplicator).toMatchObject({
      check: 'software',
      category: 'Vulnerabilities',
      title: 'WordPress plugin duplicator 1.3.26 has 6 known vulnerabilities (1 exploited in the wild)',
      severity: 'critical',
      cvssScore: 9.8,
      cves: ['CVE-2020-11738', 'CVE-2022-2551', 'CVE-2023-6114', 'CVE-2022-2552', 'CVE-2024-6210', 'CVE-2023-51681'],
      evidence: 'duplicator 1.3.26 from the ?ver= on its asset URLs (seen in asset URLs on https://shop.example/)',
    });
    expect(duplicator.cveDetails?.[0]).toEqual({
      id: 'CVE-2020-11738',
      cvssScore: 7.5,
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
      severity: 'high',
      exploited: true,
      kevDateAdded: '2021-11-03',
      ransomware: false,
      epss: expect.any(Number),
      epssPercentile: expect.any(Number),
      fixedIn: '1.3.28',
      summary: 'Directory Traversal (versions before 1.3.28)',
      references: [expect.stringMatching(WORDFENCE_RECORD)],
    });
    expect(duplicator.cveDetails?.every((detail) => detail.references?.length === 1)).toBe(true);
    expect(duplicator.recommendation).toMatch(/^Update duplicator to a release later than 1\.5\.9 \(Plugins → Installed Plugins in the WordPress admin\)/);
    expect(duplicator.recommendation).toContain('CVE-2020-11738 is being exploited in the wild (CISA KEV)');
    expect(duplicator.description).toContain('Copyright 2012-2026 Defiant Inc.');
    expect(duplicator.description).toContain('confirm it in the WordPress admin');

    const theme = output.findings.find((f) => f.id === 'cve.wordpress-theme.15zine')!;
    expect(theme).toMatchObject({ title: 'WordPress theme 15zine 3.2.9 has 1 known vulnerability', cves: ['CVE-2020-36510'] });
    expect(theme.recommendation).toMatch(/^Update 15zine to 3\.3\.0 or later \(Appearance → Themes/);
    // The other site's plugin is not this site's; the plugin without a version is not matched.
    expect(output.findings.map((f) => f.id)).not.toContain('cve.wordpress-plugin.wp-file-manager');
    expect(output.findings.map((f) => f.id)).not.toContain('cve.wordpress-plugin.akismet');
  });

  it("takes the WordPress check's readme.txt version over the page's ?ver= and names the plugin by its readme", async () => {
    // Prepare: an active scan, where the WordPress check read social-warfare's readme.txt.
    const wordpress = {
      status: 'used',
      data: {
        detected: true,
        version: '6.4.3',
        plugins: [{ slug: 'social-warfare', version: '3.5.2', source: 'readme.txt', name: 'Social Warfare' }],
        themes: [{ slug: '15zine', version: '3.3.0', source: 'style.css', name: '15Zine' }],
      },
    };

    // Act
    const output = analyzeSoftware(probeOf({ page: page(), others: { ...probeOf({}).others, wordpress } }), { wordpressVulns: await loadWordPressVulns() });

    // Assess
    const social = output.findings.find((f) => f.id === 'cve.wordpress-plugin.social-warfare')!;
    expect(social.title).toMatch(/^WordPress plugin Social Warfare \(social-warfare\) 3\.5\.2 has \d+ known vulnerabilities \(1 exploited in the wild\)$/);
    expect(social.cves?.[0]).toBe('CVE-2019-9978');
    expect(social.cveDetails?.[0]).toMatchObject({ id: 'CVE-2019-9978', exploited: true, kevDateAdded: '2021-11-03', fixedIn: '3.5.3' });
    expect(social.evidence).toBe('social-warfare 3.5.2 from the Stable tag of its readme.txt (seen in the WordPress check)');
    expect(social.description).not.toContain('confirm it');
    // style.css says 3.3.0, which is fixed: no theme finding although the page's ?ver= says 3.2.9.
    expect(output.findings.map((f) => f.id)).not.toContain('cve.wordpress-theme.15zine');

    const data = output.data as unknown as SoftwareData;
    expect(data.vulnerabilities.find((v) => v.findingId === 'cve.wordpress-plugin.social-warfare')).toMatchObject({
      product: 'wordpress-plugin:social-warfare',
      productName: 'WordPress plugin Social Warfare (social-warfare)',
      version: '3.5.2',
      exploited: 1,
      versionConfidence: 'high',
    });
    expect(data.technologies.find((t) => t.name === 'WordPress plugin social-warfare' && t.version === '3.5.2')).toMatchObject({ findingId: 'cve.wordpress-plugin.social-warfare' });
    expect(data.technologies.find((t) => t.name === 'WordPress theme 15zine')).toMatchObject({ version: '3.3.0', knownVulnerabilities: 0 });
  });

  it('lists plugins and themes but matches none without the knowledge base part loaded', () => {
    const output = analyzeSoftware(probeOf({ page: page() }));

    expect(output.findings.filter((f) => f.id.startsWith('cve.wordpress-'))).toEqual([]);
    expect((output.data as unknown as SoftwareData).wordpressComponents.map((c) => `${c.kind} ${c.slug} ${c.version}`)).toEqual([
      'plugin duplicator 1.3.26',
      'plugin social-warfare 3.5.3',
      'plugin akismet null',
      'theme 15zine 3.2.9',
    ]);
  });

  it('merges the two readings: the WordPress check first, the page where the check has no version', () => {
    const fromCheck = wordpressCheckComponents({ plugins: [{ slug: 'akismet', version: null, source: 'none' }, { slug: 'duplicator', version: '1.5.10', source: 'readme.txt' }] });
    const fromPage = pageComponents('https://shop.example/', SHOP_PAGE);

    expect(mergeComponents(fromCheck, fromPage).map((c) => `${c.kind} ${c.slug} ${c.version} ${c.versionSource}`)).toEqual([
      'plugin akismet null none',
      'plugin duplicator 1.5.10 readme.txt',
      'plugin social-warfare 3.5.3 asset-ver',
      'theme 15zine 3.2.9 asset-ver',
    ]);
  });
});
