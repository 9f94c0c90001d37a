import * as z from 'zod';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** True for a DNS host name with at least two labels (IDN already in punycode). */
export function isHostName(host: string): boolean {
  if (host.length > 253) return false;
  const labels = host.replace(/\.$/, '').split('.');
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

export interface WebTarget {
  /** The URL to scan, normalised: scheme https unless http was given, no credentials, no fragment. */
  url: string;
  /** Lower-case host in ASCII (punycode), without a trailing dot. */
  host: string;
}

/**
 * Reads what a visitor typed as a website: a URL or a bare domain ("example.com", "www.example.com/shop").
 * Returns null when it is not a public-looking web address. IP literals are accepted here and judged
 * later by the scanner's target guard.
 */
export function parseWebTarget(input: string): WebTarget | null {
  const text = input.trim();
  if (text.length === 0 || text.length > 2048 || /\s/.test(text)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  const host = url.hostname.replace(/\.$/, '').toLowerCase();
  const isIp = /^\[.*\]$/.test(host) || /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
  if (!isIp && !isHostName(host)) return null;
  url.hash = '';
  return { url: url.toString(), host };
}

/** zod: a website address, normalised to a WebTarget. */
export const webUrlSchema = (message: string) =>
  z.string({ error: message }).transform((value, ctx) => {
    const target = parseWebTarget(value);
    if (!target) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return target;
  });

/** The host a badge, a domain list or a rate limit is keyed by: lower case, no "www.". */
export function siteKey(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}
