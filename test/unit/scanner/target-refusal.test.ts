import { describe, expect, it } from 'vitest';
import { parseWebTarget } from '../../../lambdas/domain/target.js';
import { scan, TargetRefusedError } from '../../../lambdas/scanner/scan.js';
import type { ScanResolver } from '../../../lambdas/scanner/resolver.js';
import { offlineNet } from '../../support/offline-net.js';

const settings = { resolvers: [], dnsTimeoutMs: 500, allowPrivateTargets: false, excludePorts: [2024] };
const resolver = (zone: Record<string, string[]>): ScanResolver => ({
  resolve4: async (host) => zone[host] ?? [],
  resolve6: async () => [],
});
const none = { checks: [], resolver: resolver({}), net: offlineNet };

describe('bad targets', () => {
  it.each(['localhost', 'garbage string', 'javascript:alert(1)', 'ftp://example.com', 'http://user:pass@example.com', '', 'http://exa_mple.com'])(
    'refuses %j as not a website address',
    (input) => {
      expect(parseWebTarget(input)).toBeNull();
    },
  );

  it.each([
    ['10.0.0.1', '10.0.0.1'],
    ['http://[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['http://2130706433', '127.0.0.1'],
    ['http://0x7f.0.0.1', '127.0.0.1'],
    ['http://[::1]:8080/', '::1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[fd00:ec2::254]', 'fd00:ec2::254'],
  ])('refuses %s (%s) with target_not_allowed', async (input, address) => {
    const target = parseWebTarget(input);
    expect(target).not.toBeNull();
    const attempt = scan(target!, settings, none);
    await expect(attempt).rejects.toBeInstanceOf(TargetRefusedError);
    await expect(attempt).rejects.toMatchObject({ code: 'target_not_allowed', message: `${address} is a private or reserved address. Rampart only scans sites on the public internet.` });
  });

  it('refuses a name that resolves to the cloud metadata address', async () => {
    const target = parseWebTarget('metadata.example.test')!;
    await expect(scan(target, settings, { checks: [], net: offlineNet, resolver: resolver({ 'metadata.example.test': ['169.254.169.254'] }) })).rejects.toMatchObject({
      code: 'target_not_allowed',
      message: 'metadata.example.test resolves to 169.254.169.254, a private or reserved address. Rampart only scans sites on the public internet.',
    });
  });

  it.each(['shop.localhost', 'SHOP.LOCALHOST.', 'a.b.localhost'])('refuses %s as a name for this machine before asking any resolver', async (input) => {
    const asked: string[] = [];
    const recording: ScanResolver = { resolve4: async (host) => (asked.push(host), ['93.184.216.34']), resolve6: async () => [] };

    const attempt = scan(parseWebTarget(input)!, settings, { checks: [], net: offlineNet, resolver: recording });

    await expect(attempt).rejects.toMatchObject({ code: 'target_not_allowed', message: expect.stringMatching(/is a name for this machine/) });
    expect(asked).toEqual([]);
  });

  it('scans them all when the operator allows private targets', async () => {
    const target = parseWebTarget('http://2130706433')!;
    const report = await scan(target, { ...settings, allowPrivateTargets: true }, none);
    expect(report.addresses).toEqual(['127.0.0.1']);
  });

  it('reads international names as punycode', () => {
    expect(parseWebTarget('https://bücher.example/shop')).toEqual({ url: 'https://xn--bcher-kva.example/shop', host: 'xn--bcher-kva.example' });
  });
});
