import { BlockList, isIP } from 'node:net';

/**
 * Addresses a public scanner must never reach: private, loopback, link-local (cloud metadata
 * lives there), CGNAT, multicast, reserved and documentation ranges, in both families.
 */
const forbidden = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16],
  ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  forbidden.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // IPv4-compatible (::a.b.c.d, deprecated; holds :: and ::1) and IPv4-translated (::ffff:0:a.b.c.d).
  ['::', 96], ['::ffff:0:0:0', 96],
  // Local-use NAT64 (RFC 8215): the operator's own translator, which may lead anywhere inside.
  ['64:ff9b:1::', 48],
  ['100::', 64], ['2001::', 32] /* Teredo: its client address is only XOR-hidden */, ['2001:db8::', 32], ['3fff::', 20],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10] /* site-local, deprecated */, ['ff00::', 8],
] as const) {
  forbidden.addSubnet(net, prefix, 'ipv6');
}

/** The address as eight 16-bit groups, whatever its spelling (compressed, expanded, dotted tail, zone id). */
function hextets(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return groups.length === 8 ? groups.map((group) => parseInt(group, 16)) : undefined;
}

/**
 * The IPv4 address an IPv6 address carries and leads to: IPv4-mapped (::ffff:a.b.c.d), NAT64
 * (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/48), in any spelling.
 */
function embeddedIpv4(address: string): string | undefined {
  const g = hextets(address);
  if (!g) return undefined;
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

/** True when the address is not on the public internet. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 && forbidden.check(v4, 'ipv4')) return true;
    return forbidden.check(address.replace(/%.*$/, ''), 'ipv6');
  }
  return true;
}

/**
 * Names that mean this machine whatever DNS answers (RFC 6761 §6.3): `localhost` and every name
 * under it, in any case, with or without the final dot. Refused before any look-up.
 */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The first address the scanner must not reach, unless private targets are allowed. */
export function refusedAddress(addresses: readonly string[], allowPrivateTargets: boolean): string | undefined {
  if (allowPrivateTargets) return undefined;
  return addresses.find(isNonPublicAddress);
}
