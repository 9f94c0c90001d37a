import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctQueryUrl, parseCtNames } from '../../../lambdas/scanner/checks/subdomains/ct.js';
import { analyzeExposure, exposedLabel } from '../../../lambdas/scanner/checks/subdomains/exposure.js';
import { TAKEOVER_SERVICES } from '../../../lambdas/scanner/checks/subdomains/fingerprints.js';
import { analyzeDanglingCnames, danglingVerdict, takeoverService } from '../../../lambdas/scanner/checks/subdomains/takeover.js';
import { SUBDOMAIN_WORDLIST } from '../../../lambdas/scanner/checks/subdomains/wordlist.js';
import { corpCtAnswer } from '../../fixtures/dns/zones.js';

describe('takeover-prone services (the knowledge base\'s can-i-take-over-xyz and subjack fingerprints)', () => {
  it.each([
    ['corp-assets.s3.amazonaws.com', 'AWS/S3'],
    ['corp-assets.s3-website-us-east-1.amazonaws.com', 'AWS/S3'],
    ['corp.elasticbeanstalk.com', 'AWS/Elastic Beanstalk'],
    ['corp.github.io', 'Github'],
    ['corp.azurewebsites.net', 'Microsoft Azure'],
    ['corp.trafficmanager.net', 'Microsoft Azure'],
    ['corp.blob.core.windows.net', 'Microsoft Azure'],
    ['live-corp.pantheonsite.io', 'Pantheon'],
    ['corp.ghost.io', 'Ghost'],
    ['corp.myshopify.com', 'Shopify'],
    ['corp.surge.sh', 'Surge.sh'],
    ['corp.bitbucket.io', 'Bitbucket'],
    ['corp.readme.io', 'Readme.io'],
    ['CORP.Bitbucket.IO.', 'Bitbucket'],
  ])('knows %s as %s', (target, service) => {
    expect(takeoverService(target)).toBe(service);
  });

  it('does not mistake look-alike names for services, and knows no service the data gives no CNAME for (Heroku, CloudFront)', () => {
    expect([takeoverService('github.io.evil.example'), takeoverService('www.example.com'), takeoverService('s3.amazonaws.com.example.org'), takeoverService('notbitbucket.io')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect([takeoverService('corp.herokuapp.com'), takeoverService('d111111abcdef8.cloudfront.net')]).toEqual([undefined, undefined]);
  });

  it('keeps each service\'s status and sign as the lists give them', () => {
    const byName = new Map(TAKEOVER_SERVICES.map((s) => [s.service, s]));
    expect(byName.get('Bitbucket')).toMatchObject({ status: 'vulnerable', nxdomain: false, fingerprints: [['Repository not found']], discussion: expect.stringMatching(/^https:\/\/github\.com\/EdOverflow\/can-i-take-over-xyz\/issues\/\d+$/) });
    expect(byName.get('Github')).toMatchObject({ status: 'edge-case', suffixes: ['github.io'], sources: ['can-i-take-over-xyz', 'subjack'] });
    expect(byName.get('Ghost')?.fingerprints).toEqual([['Site unavailable.'], ['Failed to resolve DNS path for this host']]);
    expect(byName.get('Ngrok')?.fingerprints).toEqual([['Tunnel ', '.ngrok.io not found']]);
    expect(byName.get('Helprace')).toMatchObject({ httpStatus: 301, fingerprints: [] });
    expect(byName.get('Worksites')?.addresses).toEqual(['69.164.223.206']);
    expect(byName.get('bigcartel')).toMatchObject({ status: 'unrated', suffixes: ['bigcartel.com'], sources: ['subjack'] });
    expect(TAKEOVER_SERVICES.filter((s) => s.status === 'vulnerable')).toHaveLength(36);
  });
});

describe('dangling records and takeover fingerprints', () => {
  const page = (body: string, status = 404) => ({ url: 'https://docs.corp.test/', status, body });

  it('rates a CNAME into a deleted resource of a vulnerable service high, and cites can-i-take-over-xyz', () => {
    const findings = analyzeDanglingCnames([{ name: 'assets.corp.test', cnames: ['corp-assets.s3.amazonaws.com'], finalRcode: 'NXDOMAIN' }]);
    expect(findings.map((f) => [f.id, f.severity, f.title])).toEqual([['subdomains.dangling-cname', 'high', 'assets.corp.test can be taken over (dangling CNAME to AWS/S3)']]);
    expect(findings[0]!.evidence).toBe(
      'assets.corp.test → corp-assets.s3.amazonaws.com: corp-assets.s3.amazonaws.com does not exist (NXDOMAIN) at AWS/S3. can-i-take-over-xyz rates AWS/S3 "Vulnerable"; discussion: https://github.com/EdOverflow/can-i-take-over-xyz/issues/36',
    );
    expect(findings[0]!.description).toContain('Subdomain takeover fingerprints from can-i-take-over-xyz by EdOverflow and contributors, CC BY 4.0, https://github.com/EdOverflow/can-i-take-over-xyz');
  });

  it('finds a live CNAME whose page shows the service\'s text for a missing site: Bitbucket "Repository not found"', () => {
    const observation = { name: 'docs.corp.test', cnames: ['corp.bitbucket.io'], addresses: ['192.0.2.10'], finalRcode: 'NOERROR', page: page('<html><body><h1>Repository not found</h1></body></html>') };

    const findings = analyzeDanglingCnames([observation]);

    expect(danglingVerdict(observation)).toMatchObject({ kind: 'service', sign: 'fingerprint', matched: 'Repository not found', target: 'corp.bitbucket.io' });
    expect(findings.map((f) => [f.id, f.severity])).toEqual([['subdomains.dangling-cname', 'high']]);
    expect(findings[0]!.evidence).toMatch(/^docs\.corp\.test → corp\.bitbucket\.io: https:\/\/docs\.corp\.test\/ answers with Bitbucket's text for a missing site: "Repository not found"\. can-i-take-over-xyz rates Bitbucket "Vulnerable"; discussion: https:\/\/github\.com\/EdOverflow\/can-i-take-over-xyz\/issues\/\d+$/);
  });

  it('leaves a CNAME into a live resource alone: no fingerprint in its page, or no page fetched (passive)', () => {
    expect(danglingVerdict({ name: 'docs.corp.test', cnames: ['corp.bitbucket.io'], addresses: ['192.0.2.10'], finalRcode: 'NOERROR', page: page('<h1>Corp docs</h1>', 200) })).toBeUndefined();
    expect(danglingVerdict({ name: 'docs.corp.test', cnames: ['corp.bitbucket.io'], addresses: ['192.0.2.10'], finalRcode: 'NOERROR' })).toBeUndefined();
    expect(danglingVerdict({ name: 'blog.corp.test', cnames: ['corp.ghost.io'], finalRcode: 'NOERROR' })).toBeUndefined();
  });

  it('asks for a manual check where the service is an edge case or unrated, and finds nothing claimable where it is rated not vulnerable', () => {
    const findings = analyzeDanglingCnames([
      { name: 'pages.corp.test', cnames: ['corp.github.io'], addresses: ['192.0.2.11'], finalRcode: 'NOERROR', page: page("<title>Site not found · GitHub Pages</title><p>There isn't a GitHub Pages site here.</p>") },
      { name: 'store.corp.test', cnames: ['corp.bigcartel.com'], addresses: ['192.0.2.12'], finalRcode: 'NOERROR', page: page('<h1>Oops! We could&#8217;t find that page.</h1>') },
      { name: 'lb.corp.test', cnames: ['corp-123.eu-west-1.elb.amazonaws.com'], finalRcode: 'NXDOMAIN' },
    ]);

    expect(findings.map((f) => [f.id, f.severity, f.title])).toEqual([
      ['subdomains.takeover-review', 'medium', 'pages.corp.test points to a missing Github resource: check whether it can be claimed'],
      ['subdomains.takeover-review', 'medium', 'store.corp.test points to a missing bigcartel resource: check whether it can be claimed'],
      ['subdomains.stale-cname', 'low', 'CNAME records point to names that do not exist'],
    ]);
    expect(findings[0]!.evidence).toContain('can-i-take-over-xyz rates Github "Edge case"');
    expect(findings[1]!.evidence).toContain("bigcartel is only in subjack's list (not rated)");
    expect(findings[1]!.description).toContain('CNAME patterns from subjack (https://github.com/haccer/subjack), Apache-2.0.');
    expect(findings[2]!.evidence).toBe('lb.corp.test → corp-123.eu-west-1.elb.amazonaws.com (NXDOMAIN; AWS/Load Balancer (ELB) is rated not claimable by can-i-take-over-xyz)');
  });

  it('reads texts with parts in order (Ngrok), a status (Helprace) and a service reached by its address (Worksites)', () => {
    const ngrok = danglingVerdict({ name: 'tunnel.corp.test', cnames: ['corp.ngrok.io'], addresses: ['192.0.2.13'], finalRcode: 'NOERROR', page: page('Tunnel corp.ngrok.io not found') });
    const helprace = danglingVerdict({ name: 'help.corp.test', cnames: ['corp.helprace.com'], addresses: ['192.0.2.14'], finalRcode: 'NOERROR', page: page('', 301) });
    const worksites = danglingVerdict({
      name: 'jobs.corp.test',
      cnames: [],
      addresses: ['69.164.223.206'],
      finalRcode: 'NOERROR',
      page: page('<p>Hello! Sorry, but the website you&rsquo;re looking for doesn&rsquo;t exist.</p>'),
    });

    expect(ngrok).toMatchObject({ kind: 'service', sign: 'fingerprint', matched: 'Tunnel ….ngrok.io not found' });
    expect(helprace).toMatchObject({ kind: 'service', sign: 'status' });
    expect(worksites).toMatchObject({ kind: 'service', sign: 'fingerprint', target: '69.164.223.206' });
    expect(analyzeDanglingCnames([{ name: 'jobs.corp.test', cnames: [], addresses: ['69.164.223.206'], finalRcode: 'NOERROR', page: page('<p>Hello! Sorry, but the website you&rsquo;re looking for doesn&rsquo;t exist.</p>') }])[0]?.title).toBe(
      'jobs.corp.test can be taken over (dangling record to Worksites)',
    );
  });

  it('rates a CNAME into an unregistered domain high and one into an owned domain low', () => {
    const findings = analyzeDanglingCnames([
      { name: 'shop.corp.test', cnames: ['store.corp-old-shop.test'], finalRcode: 'NXDOMAIN', targetDomainRcode: 'NXDOMAIN' },
      { name: 'old.corp.test', cnames: ['retired.corp.test'], finalRcode: 'NXDOMAIN', targetDomainRcode: 'NOERROR' },
    ]);
    expect(findings.map((f) => [f.id, f.severity])).toEqual([
      ['subdomains.dangling-cname', 'high'],
      ['subdomains.stale-cname', 'low'],
    ]);
    expect(findings[1]?.evidence).toBe('old.corp.test → retired.corp.test (NXDOMAIN)');
  });
});

describe('certificate transparency answers', () => {
  it('builds the crt.sh query', () => {
    expect(ctQueryUrl('https://crt.sh/', 'example.com')).toBe('https://crt.sh/?q=%25.example.com&output=json');
  });

  it('keeps distinct names under the domain, lower-cased, wildcards reduced, others dropped', () => {
    expect(parseCtNames(corpCtAnswer, 'corp.test')).toEqual(['api.corp.test', 'secret-project.corp.test', 'vpn.corp.test', 'www.corp.test']);
  });

  it('refuses an answer that is not crt.sh JSON', () => {
    expect([parseCtNames('<html>rate limited</html>', 'corp.test'), parseCtNames('{"error":1}', 'corp.test')]).toEqual([undefined, undefined]);
  });
});

describe('exposed environments', () => {
  it('recognises non-public labels anywhere below the domain', () => {
    expect([exposedLabel('staging.corp.test', 'corp.test'), exposedLabel('api.dev.corp.test', 'corp.test'), exposedLabel('test2.corp.test', 'corp.test'), exposedLabel('www.corp.test', 'corp.test')]).toEqual([
      'staging',
      'dev',
      'test2',
      undefined,
    ]);
  });

  it('rates them low when one answers and info when they only resolve', () => {
    const answering = analyzeExposure('corp.test', [{ name: 'jenkins.corp.test', answers: true }, { name: 'dev.corp.test', answers: false }, { name: 'www.corp.test', answers: true }]);
    expect(answering.map((f) => [f.id, f.severity, f.evidence])).toEqual([['subdomains.exposed-environment', 'low', 'jenkins.corp.test (answers), dev.corp.test (resolves only)']]);
    expect(analyzeExposure('corp.test', [{ name: 'dev.corp.test', answers: false }]).map((f) => f.severity)).toEqual(['info']);
  });

  it('tries about a hundred common names', () => {
    expect(SUBDOMAIN_WORDLIST.length).toBeGreaterThanOrEqual(100);
    expect(new Set(SUBDOMAIN_WORDLIST).size).toBe(SUBDOMAIN_WORDLIST.length);
  });
});

const sharedTakeover = resolve('../shared/data/takeover');

describe.skipIf(!existsSync(sharedTakeover))('npm run build:vulndb: takeover fingerprints', () => {
  it('keeps every can-i-take-over-xyz service with its status, and rebuilds byte-identical files', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rampart-takeover-'));
    try {
      const { buildTakeoverFingerprints } = await import('../../../bin/build-takeover.js');
      buildTakeoverFingerprints(sharedTakeover, out);
      for (const file of ['takeover-fingerprints.json', 'TAKEOVER-PROVENANCE.md']) expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(resolve('lambdas/scanner/data', file), 'utf8'));
      const source = JSON.parse(readFileSync(join(sharedTakeover, 'can-i-take-over-xyz-fingerprints.json'), 'utf8')) as { service: string; status: string }[];
      const status = { Vulnerable: 'vulnerable', 'Not vulnerable': 'not-vulnerable', 'Edge case': 'edge-case' } as Record<string, string>;
      expect(source.map((entry) => [entry.service, status[entry.status]])).toEqual(source.map((entry) => [entry.service, TAKEOVER_SERVICES.find((s) => s.service === entry.service)?.status]));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
