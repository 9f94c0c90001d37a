import { describe, expect, it } from 'vitest';
import { BAD_PORTS, portOf, restrictedPortOf, TargetPortRestrictedError } from '../../lambdas/domain/bad-ports.js';
import { refuseRestrictedPassiveScan } from '../../lambdas/domain/scan-authorization.js';
import { browserPorts } from '../../lambdas/scanner/net/passive-net.js';

/**
 * The Fetch standard's bad ports (https://fetch.spec.whatwg.org/#port-blocking), copied by value from
 * web-platform-tests' fetch/api/request/request-bad-port.any.js: a port dropped from, or added to,
 * the product's list fails here.
 */
const FETCH_STANDARD_BAD_PORTS = [
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989,
  990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
];

describe('the browsers’ restricted ports (DECISIONS "Scan modes": passive means browser-like)', () => {
  it('is the Fetch standard’s bad-port list, port for port', () => {
    expect([...BAD_PORTS].sort((a, b) => a - b)).toEqual(FETCH_STANDARD_BAD_PORTS);
  });

  it.each([
    ['http://victim.example:25/', 25],
    ['https://victim.example:22/login', 22],
    ['http://victim.example:6000/', 6000],
    ['https://victim.example:10080/', 10080],
    ['http://victim.example:0/', 0],
  ])('finds %s on a restricted port (%i)', (url, port) => {
    expect(restrictedPortOf(url)).toBe(port);
  });

  it.each(['https://example.com/', 'http://example.com/', 'https://example.com:443/', 'http://example.com:80/', 'https://example.com:8443/', 'http://example.com:8080/', 'https://example.com:80/', 'http://example.com:24/', 'http://example.com:26/'])(
    'lets %s through: a browser opens it',
    (url) => {
      expect(restrictedPortOf(url)).toBeUndefined();
    },
  );

  it('reads the port a URL connects to: the one it names, else its scheme’s default', () => {
    expect(portOf(new URL('https://shop.example.com/'))).toBe(443);
    expect(portOf(new URL('http://shop.example.com/'))).toBe(80);
    expect(portOf(new URL('https://shop.example.com:8443/'))).toBe(8443);
    expect(portOf(new URL('http://shop.example.com:443/'))).toBe(443);
  });

  it('refuses a passive scan of a site on port 25 before it starts, saying why (ERR_UNSAFE_PORT)', () => {
    let refused: unknown;
    try {
      refuseRestrictedPassiveScan('http://victim.example:25/');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(TargetPortRestrictedError);
    expect(refused).toMatchObject({ code: 'target_port_restricted', details: { url: 'http://victim.example:25/', port: 25 } });
    expect((refused as Error).message).toContain('Browsers refuse to open web addresses on port 25 (ERR_UNSAFE_PORT');
    expect((refused as Error).message).toContain('so http://victim.example:25/ cannot be scanned without proof that the site is yours.');
  });

  it.each(['https://shop.example.com/', 'http://shop.example.com/', 'https://shop.example.com:8443/'])('lets a passive scan of %s start', (url) => {
    expect(() => refuseRestrictedPassiveScan(url)).not.toThrow();
  });

  it('gives a passive scan 443, 80 and the site’s own port, never a restricted one', () => {
    expect(browserPorts('https://shop.example.com:8443/')).toEqual([443, 80, 8443]);
    expect(browserPorts('https://shop.example.com/')).toEqual([443, 80]);
    expect(browserPorts('http://victim.example:25/')).toEqual([443, 80]);
    expect(browserPorts('https://victim.example:993/')).toEqual([443, 80]);
  });
});
