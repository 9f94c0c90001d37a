/**
 * RFC 8461 §4.1: an MTA-STS `mx` pattern is a host name, or `*.` and a domain standing for exactly
 * one more label. One rule for the scanner's analysis and the report view's "covers n of m".
 */
export function mxMatchesPattern(host: string, pattern: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const wanted = pattern.toLowerCase().replace(/\.$/, '');
  if (!wanted.startsWith('*.')) return name === wanted;
  const dot = name.indexOf('.');
  return dot > 0 && name.slice(dot + 1) === wanted.slice(2);
}
