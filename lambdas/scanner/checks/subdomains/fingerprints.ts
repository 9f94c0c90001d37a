/**
 * Subdomain-takeover fingerprints (can-i-take-over-xyz, with subjack's CNAME patterns), in the
 * knowledge base as lambdas/scanner/data/takeover-fingerprints.json (written by `npm run build:vulndb`,
 * see TAKEOVER-PROVENANCE.md). About 20 kB: imported with the subdomains check.
 */
import data from '../../data/takeover-fingerprints.json' with { type: 'json' };

/** can-i-take-over-xyz's verdict on a service; `unrated` for one only subjack lists. */
export type TakeoverStatus = 'vulnerable' | 'edge-case' | 'not-vulnerable' | 'unrated';

/** One hosting service and how a dangling record into it shows. */
export interface TakeoverService {
  service: string;
  status: TakeoverStatus;
  /** CNAME targets that are one of these names or end with "." and one. */
  suffixes: string[];
  /** CNAME targets that contain one of these (subjack's partial patterns). */
  contains: string[];
  /** A records pointing at one of these addresses. */
  addresses: string[];
  /** The sign is that the CNAME target does not resolve. */
  nxdomain: boolean;
  /** Texts in the body: alternatives, each a list of parts that must appear in order. */
  fingerprints: string[][];
  /** The HTTP status the service answers with for a missing resource, where that is the sign. */
  httpStatus?: number;
  /** can-i-take-over-xyz's discussion of the service (a GitHub issue). */
  discussion?: string;
  documentation?: string;
  sources: ('can-i-take-over-xyz' | 'subjack')[];
}

/** takeover-fingerprints.json as stored. */
export interface StoredTakeoverFingerprints {
  format: 1;
  sources: Record<'canITakeOverXyz' | 'subjack', { repository: string; commit: string; date: string; sha256: string; licence: string }>;
  services: TakeoverService[];
}

const stored = data as unknown as StoredTakeoverFingerprints;
if (stored.format !== 1) throw new Error(`takeover-fingerprints.json format ${String(stored.format)} is not supported; rebuild with npm run build:vulndb`);

/** Every service of the knowledge base. */
export const TAKEOVER_SERVICES: readonly TakeoverService[] = stored.services;

/** What a report must say where it cites the fingerprints (CC BY 4.0; subjack Apache-2.0). */
export const TAKEOVER_ATTRIBUTION: Record<TakeoverService['sources'][number], string> = {
  'can-i-take-over-xyz': 'Subdomain takeover fingerprints from can-i-take-over-xyz by EdOverflow and contributors, CC BY 4.0, https://github.com/EdOverflow/can-i-take-over-xyz (made literal and combined with subjack\'s patterns).',
  subjack: 'CNAME patterns from subjack (https://github.com/haccer/subjack), Apache-2.0.',
};

const clean = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** The service a CNAME target belongs to, if any: a suffix at a label boundary, or one of subjack's partial patterns. */
export function serviceOfName(target: string, services: readonly TakeoverService[] = TAKEOVER_SERVICES): TakeoverService | undefined {
  const name = clean(target);
  return (
    services.find((s) => s.suffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) ?? services.find((s) => s.contains.some((part) => name.includes(part)))
  );
}

/** The service an address belongs to (a few services are reached by an A record to their IP). */
export function serviceOfAddress(address: string, services: readonly TakeoverService[] = TAKEOVER_SERVICES): TakeoverService | undefined {
  return services.find((s) => s.addresses.includes(address));
}

/** The first service any CNAME of the chain, or else any address, belongs to. */
export function serviceOfChain(cnames: readonly string[], addresses: readonly string[] = [], services: readonly TakeoverService[] = TAKEOVER_SERVICES): TakeoverService | undefined {
  for (const cname of cnames) {
    const service = serviceOfName(cname, services);
    if (service) return service;
  }
  for (const address of addresses) {
    const service = serviceOfAddress(address, services);
    if (service) return service;
  }
  return undefined;
}

/** Whether the service has a sign in the page itself (a text or a status) that a fetch can see. */
export function hasPageSign(service: TakeoverService): boolean {
  return service.fingerprints.length > 0 || service.httpStatus !== undefined;
}

/** The fingerprint text found in the body (its parts in order), as the evidence shows it; undefined when none is. */
export function fingerprintIn(service: TakeoverService, body: string): string | undefined {
  for (const parts of service.fingerprints) {
    let from = 0;
    let found = true;
    for (const part of parts) {
      const at = body.indexOf(part, from);
      if (at < 0) {
        found = false;
        break;
      }
      from = at + part.length;
    }
    if (found) return parts.join('…');
  }
  return undefined;
}
