import { describe, expect, it } from 'vitest';
import { SCANNER_ACCESS_VENDORS, scannerAccessGuide } from '../../../lambdas/domain/platform-guides.js';

const product = { name: 'Rampart', userAgent: 'Mozilla/5.0 (compatible; RampartScanner/1.0; +https://rampart.example/scanner)', scannerPageUrl: 'https://rampart.example/scanner' };

describe('scannerAccessGuide: how to let the scanner in', () => {
  it('gives Cloudflare a WAF custom rule that skips for the scanner\'s user agent token', () => {
    const guide = scannerAccessGuide('cloudflare', 'challenge', product);

    expect(guide.title).toBe('Let the Rampart scanner in through Cloudflare');
    expect(guide.steps.join('\n')).toContain('Security → Security rules (in the older dashboard: Security → WAF → Custom rules)');
    expect(guide.steps.join('\n')).toContain('(http.user_agent contains "RampartScanner")');
    expect(guide.steps.join('\n')).toContain('Skip');
    expect(guide.steps.join('\n')).toContain('Bot Fight Mode');
    expect(guide.steps.at(-1)).toMatch(/^Run the scan again/);
  });

  it('points Sucuri at Access Control → Allow IP Addresses and the /scanner page\'s addresses', () => {
    const guide = scannerAccessGuide('sucuri', 'block', product);

    expect(guide.title).toBe('Let the Rampart scanner in through Sucuri Website Firewall');
    expect(guide.steps[1]).toBe('Go to Access Control and, under Allow IP Addresses ("Whitelist IP" in older screens), add each address listed on https://rampart.example/scanner, then select Allow.');
    expect(guide.steps[2]).toContain('user agent contains RampartScanner');
  });

  it('gives Wordfence its allowlisted-IP and rate-limiting settings', () => {
    const steps = scannerAccessGuide('wordfence', 'block', product).steps.join('\n');

    expect(steps).toContain('Allowlisted IP addresses that bypass all rules');
    expect(steps).toContain('Rate Limiting');
  });

  it('gives AWS WAF an Allow rule on the user-agent header placed above the managed rule groups', () => {
    const steps = scannerAccessGuide('aws-waf', 'block', product).steps.join('\n');

    expect(steps).toContain('Header field name user-agent, Match type Contains string, String to match RampartScanner. Action: Allow.');
    expect(steps).toContain('IP set');
  });

  it('has steps, with no unfilled placeholder, for every vendor and every kind', () => {
    const kinds = ['challenge', 'block', 'rate_limited', 'unavailable', 'auth'];
    for (const vendor of [...SCANNER_ACCESS_VENDORS, null]) {
      for (const kind of kinds) {
        const guide = scannerAccessGuide(vendor, kind, product);
        expect(guide.steps.length, `${vendor} ${kind}`).toBeGreaterThanOrEqual(3);
        for (const text of [guide.title, ...guide.steps]) expect(text, `${vendor} ${kind}`).not.toMatch(/\{[a-zA-Z]+\}/);
      }
    }
    expect(SCANNER_ACCESS_VENDORS.length).toBeGreaterThanOrEqual(17);
  });

  it('without a vendor, says what the kind of wall means: a login, a rate limit, an outage', () => {
    expect(scannerAccessGuide(null, 'auth', product)).toMatchObject({ title: 'The site needs a login: the Rampart scanner checks only public pages' });
    expect(scannerAccessGuide(null, 'auth', product).steps[0]).toContain('HTTP 401');
    expect(scannerAccessGuide(null, 'rate_limited', product).title).toBe('Let the Rampart scanner past the rate limit');
    expect(scannerAccessGuide(null, 'rate_limited', product).steps[1]).toContain('user agent contains RampartScanner');
    expect(scannerAccessGuide(null, 'unavailable', product).title).toBe('The site was not available to the Rampart scanner');
    expect(scannerAccessGuide('no-such-vendor', 'challenge', product).title).toBe('Let the Rampart scanner in');
  });

  it('falls back to the product name when the user agent has no …Scanner token', () => {
    const steps = scannerAccessGuide('cloudflare', 'challenge', { ...product, name: 'Acme Guard', userAgent: 'curl/8' }).steps.join('\n');

    expect(steps).toContain('(http.user_agent contains "AcmeGuardScanner")');
  });
});

describe('scannerAccessGuide: a login or an outage behind a known vendor', () => {
  it('says the site was not available, not how to open Cloudflare, when Cloudflare served an origin error', () => {
    const guide = scannerAccessGuide('cloudflare', 'unavailable', product);

    expect(guide.title).toBe('The site was not available to the Rampart scanner');
    expect(guide.steps.join('\n')).not.toContain('Security rules');
  });
});
