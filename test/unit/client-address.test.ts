import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../lambdas/api/client-address.js';

const request = (viewer: string | undefined, sourceIp = '130.176.1.1') => ({
  sourceIp,
  header: (name: string) => (name === 'cloudfront-viewer-address' ? viewer : undefined),
});

describe('the visitor’s address for per-address limits', () => {
  it.each([
    ['an IPv4 viewer address', '198.51.100.10:46532', '198.51.100.10'],
    ['an IPv6 viewer address (no brackets)', '2001:db8:85a3::8a2e:370:7334:46532', '2001:db8:85a3::8a2e:370:7334'],
    ['a bracketed IPv6 viewer address', '[2001:db8::1]:443', '2001:db8::1'],
    ['no CloudFront header (direct or local)', undefined, '130.176.1.1'],
    ['a header that is not an address', 'localhost:80', '130.176.1.1'],
    ['an empty header', '', '130.176.1.1'],
  ])('reads %s', (_name, viewer, expected) => {
    expect(clientAddress(request(viewer))).toBe(expected);
  });
});
