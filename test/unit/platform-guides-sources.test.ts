import { describe, expect, it } from 'vitest';
import { BUILDER_DNS, DNS_HOSTS, type GuideSource, PLATFORM_GUIDES, REVIEWED } from '../../lambdas/domain/platform-guides.data.js';
import { guidesFor, guideTopics } from '../../lambdas/domain/platform-guides.js';
import { type DetectedProviders, PROVIDERS, type ProviderId, type ProviderRole } from '../../lambdas/domain/providers.js';

/**
 * Issue 29 item 14: every platform-guide entry says where it comes from (the vendor's page, or where
 * one was looked for) and when it was read against it; what no vendor page confirms is worded as such.
 * Review: /work/shared/reviews/platform-guides-2026-12-07.md.
 */

/** Every vendor entry of the data module, named by where it sits. */
function everyEntry(): [string, GuideSource | undefined][] {
  const entries: [string, GuideSource | undefined][] = [];
  for (const [topic, byPlatform] of Object.entries(PLATFORM_GUIDES)) {
    for (const [platform, entry] of Object.entries(byPlatform)) entries.push([`${topic} / ${platform}`, entry?.source]);
  }
  for (const [host, recipe] of Object.entries(DNS_HOSTS)) {
    entries.push([`dns host ${host}: record editor`, recipe?.source]);
    entries.push([`dns host ${host}: dnssec`, recipe?.dnssec.source]);
  }
  for (const [builder, lead] of Object.entries(BUILDER_DNS)) entries.push([`builder dns ${builder}`, lead?.source]);
  return entries;
}

const today = new Date().toISOString().slice(0, 10);

describe('the sources of the platform guides', () => {
  it('gives every entry a source: an https page and the ISO date it was checked, not in the future', () => {
    const entries = everyEntry();
    expect(entries.length).toBeGreaterThan(50);
    const faults = entries.flatMap(([where, source]) => {
      if (!source) return [`${where}: no source`];
      const problems: string[] = [];
      let url: URL | undefined;
      try {
        url = new URL(source.url);
      } catch {
        problems.push(`${where}: not a URL (${source.url})`);
      }
      if (url && url.protocol !== 'https:') problems.push(`${where}: not https (${source.url})`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(source.checked) || Number.isNaN(Date.parse(`${source.checked}T00:00:00Z`))) problems.push(`${where}: checked is not an ISO date (${source.checked})`);
      if (source.checked > today) problems.push(`${where}: checked in the future (${source.checked})`);
      if (!['vendor', 'secondary', 'unconfirmed'].includes(source.status)) problems.push(`${where}: unknown status ${source.status}`);
      return problems;
    });
    expect(faults).toEqual([]);
  });

  it("dates what the review confirmed with the review's day and cites the review's pages", () => {
    expect(REVIEWED).toBe('2026-12-07');
    expect(DNS_HOSTS.route53!.dnssec.source).toMatchObject({ url: 'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/dns-configuring-dnssec-enable-signing.html', checked: '2026-12-07', status: 'vendor' });
    expect(DNS_HOSTS.cloudflare!.dnssec.source).toMatchObject({ checked: '2026-12-07', status: 'vendor' });
    expect(DNS_HOSTS.godaddy!.dnssec.source).toMatchObject({ url: 'https://help.hostingdude.com/article/6135.html', status: 'secondary' });
    expect(PLATFORM_GUIDES.headers['wp-engine']!.source).toMatchObject({ url: 'https://wpengine.com/support/web-rules-engine/', checked: '2026-12-07', status: 'vendor' });
    expect(PLATFORM_GUIDES.hsts.cloudflare!.source).toMatchObject({ url: 'https://developers.cloudflare.com/ssl/edge-certificates/additional-options/http-strict-transport-security/', status: 'vendor' });
    expect(PLATFORM_GUIDES.dkim['microsoft-365']!.source.note).toMatch(/^Review #5/);
    expect(DNS_HOSTS.wix!.dnssec.source).toMatchObject({ url: 'https://dev.wix.com/', status: 'unconfirmed' });
  });

  it('words no unconfirmed refusal as a flat fact', () => {
    const flat: string[] = [];
    for (const [topic, byPlatform] of Object.entries(PLATFORM_GUIDES)) {
      for (const [platform, entry] of Object.entries(byPlatform)) {
        if (entry?.kind !== 'not-supported' || entry.source.status !== 'unconfirmed') continue;
        if (!/doesn't document|does not say|we found no|we checked|as far as/i.test(entry.statement) || /\bcannot\b.*\bitself\b/.test(entry.instead.join(' '))) flat.push(`${topic} / ${platform}: ${entry.statement}`);
      }
    }
    expect(flat).toEqual([]);
  });

  it('adds the caution, with the date, to every guide a scan shows whose source is unconfirmed, and to no other', () => {
    const provider = (id: ProviderId, role: ProviderRole) => ({ id, name: PROVIDERS[id], role, evidence: [{ source: 'ns' as const, detail: 'captured' }] });
    const base: DetectedProviders = { domain: 'example.com.au', siteHost: 'example.com.au', dns: [], mail: [], cdn: [], host: [], cms: [], mxHosts: ['mx.example.com.au'], spfRecords: [], certificateIssuer: undefined };
    const everyone: DetectedProviders = {
      ...base,
      dns: (['cloudflare', 'godaddy', 'route53', 'cpanel', 'wix', 'google-cloud-dns', 'azure-dns'] as const).map((id) => provider(id, 'dns')),
      mail: [provider('zoho', 'mail')],
      host: (['cpanel', 'shopify', 'wix', 'squarespace', 'wp-engine', 'kinsta'] as const).map((id) => provider(id, 'host')),
      cms: [provider('wordpress', 'cms')],
    };
    const findings = ['email.spf.missing', 'email.dkim.not-found', 'email.mta-sts.missing', 'dns.dnssec.unsigned', 'tls.hsts.missing', 'http.csp.missing', 'tls.protocol.tls10'];
    expect(findings.map((id) => guidesFor(id, everyone).topic).filter((t) => t !== null).length).toBe(findings.length);
    expect(guideTopics.length).toBeGreaterThan(0);
    let unconfirmed = 0;
    for (const id of findings) {
      for (const g of guidesFor(id, everyone).guides) {
        const caution = `We could not confirm these steps on ${g.platformName}'s own documentation (checked 7 Dec 2026)`;
        if (g.source?.status === 'unconfirmed') {
          unconfirmed++;
          expect(g.note, `${id} / ${g.platform}`).toContain(caution);
        } else {
          expect(g.note ?? '', `${id} / ${g.platform}`).not.toContain('We could not confirm');
        }
      }
    }
    expect(unconfirmed).toBeGreaterThan(10);
  });
});
