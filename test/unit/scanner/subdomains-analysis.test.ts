import { describe, expect, it } from 'vitest';
import { ctQueryUrl, parseCtNames } from '../../../lambdas/scanner/checks/subdomains/ct.js';
import { analyzeExposure, exposedLabel } from '../../../lambdas/scanner/checks/subdomains/exposure.js';
import { analyzeDanglingCnames, danglingVerdict, takeoverService } from '../../../lambdas/scanner/checks/subdomains/takeover.js';
import { SUBDOMAIN_WORDLIST } from '../../../lambdas/scanner/checks/subdomains/wordlist.js';
import { corpCtAnswer } from '../../fixtures/dns/zones.js';

describe('takeover-prone services', () => {
  it.each([
    ['corp-assets.s3.amazonaws.com', 'AWS S3'],
    ['corp-assets.s3.eu-west-1.amazonaws.com', 'AWS S3'],
    ['corp-assets.s3-website-us-east-1.amazonaws.com', 'AWS S3'],
    ['d111111abcdef8.cloudfront.net', 'AWS CloudFront'],
    ['corp.herokuapp.com', 'Heroku'],
    ['corp.herokudns.com', 'Heroku'],
    ['corp.github.io', 'GitHub Pages'],
    ['corp.azurewebsites.net', 'Azure App Service'],
    ['corp.trafficmanager.net', 'Azure App Service'],
    ['corp.blob.core.windows.net', 'Azure App Service'],
    ['live-corp.pantheonsite.io', 'Pantheon'],
    ['corp.netlify.app', 'Netlify'],
    ['corp.global.fastly.net', 'Fastly'],
    ['corp.ghost.io', 'Ghost'],
    ['corp.myshopify.com', 'Shopify'],
    ['corp.zendesk.com', 'Zendesk'],
    ['corp.wpengine.com', 'WP Engine'],
    ['corp.surge.sh', 'Surge.sh'],
    ['corp.bitbucket.io', 'Bitbucket'],
    ['corp.readme.io', 'ReadMe'],
  ])('knows %s as %s', (target, service) => {
    expect(takeoverService(target)).toBe(service);
  });

  it('does not mistake look-alike names for services', () => {
    expect([takeoverService('github.io.evil.example'), takeoverService('www.example.com'), takeoverService('s3.amazonaws.com.example.org')]).toEqual([undefined, undefined, undefined]);
  });
});

describe('dangling CNAME analysis', () => {
  it('rates a CNAME into a deleted service resource high', () => {
    const findings = analyzeDanglingCnames([{ name: 'assets.corp.test', cnames: ['corp-assets.s3.amazonaws.com'], finalRcode: 'NXDOMAIN' }]);
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['subdomains.dangling-cname', 'high', 'assets.corp.test → corp-assets.s3.amazonaws.com: corp-assets.s3.amazonaws.com does not exist (NXDOMAIN) at AWS S3'],
    ]);
  });

  it('leaves a CNAME into a live service alone', () => {
    expect(danglingVerdict({ name: 'blog.corp.test', cnames: ['corp.ghost.io'], finalRcode: 'NOERROR' })).toBeUndefined();
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
