import { describe, expect, it } from 'vitest';
import { isLoopbackName, isNonPublicAddress, refusedAddress } from '../../lambdas/scanner/target-guard.js';

describe('target guard', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
    '255.255.255.255', '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', 'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public address %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  // Found by test/hardening/ssrf.test.ts: these led past the guard to an IPv4 address inside, or to a range that is not public.
  it.each([
    ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
    ['::127.0.0.1', 'IPv4-compatible, dotted'],
    ['::ffff:0:7f00:1', 'IPv4-translated 127.0.0.1'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2002:a9fe:a9fe::', '6to4 of the metadata address'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo'],
    ['fec0::1', 'site-local'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'IPv4-mapped, written out'],
    ['fe80::1%eth0', 'link-local with a zone'],
  ])('refuses %s (%s)', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(['2002:808:808::1', '64:ff9b::808:808', '2a00:1450:4001:81c::200e'])('allows %s, which leads to a public address', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it.each(['localhost', 'LOCALHOST.', 'shop.localhost', 'a.b.localhost.'])('knows %s is a name for this machine', (name) => {
    expect(isLoopbackName(name)).toBe(true);
  });

  it.each(['localhost.example.test', 'mylocalhost', 'localhost-shop.example'])('does not take %s for one', (name) => {
    expect(isLoopbackName(name)).toBe(false);
  });

  it('names the first refused address, unless private targets are allowed', () => {
    expect(refusedAddress(['1.1.1.1', '10.0.0.1'], false)).toBe('10.0.0.1');
    expect(refusedAddress(['1.1.1.1', '10.0.0.1'], true)).toBeUndefined();
  });
});
