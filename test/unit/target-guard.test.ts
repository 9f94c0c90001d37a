import { describe, expect, it } from 'vitest';
import { isNonPublicAddress, refusedAddress } from '../../lambdas/scanner/target-guard.js';

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

  it('names the first refused address, unless private targets are allowed', () => {
    expect(refusedAddress(['1.1.1.1', '10.0.0.1'], false)).toBe('10.0.0.1');
    expect(refusedAddress(['1.1.1.1', '10.0.0.1'], true)).toBeUndefined();
  });
});
