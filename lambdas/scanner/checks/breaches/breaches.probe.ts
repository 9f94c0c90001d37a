import type { Breach, BreachLookup, DomainBreaches, LookupResult } from '../../net/hibp-client.js';
import { addressesToCheck } from './addresses.js';

/** What the breach lookups returned: raw addresses (masked only in the analysis' output). */
export interface BreachesSnapshot {
  accounts: { email: string; result: LookupResult<Breach[]> }[];
  /** Addresses given that were not looked up: malformed, or beyond the per-scan limit. */
  setAside: { invalid: number; overLimit: number };
  /** The domain-wide search, when the scanned domain is one the customer verified. */
  domain?: { domain: string; result: LookupResult<DomainBreaches> };
}

export interface BreachesProbeInput {
  emails: readonly string[];
  verifiedDomains: readonly string[];
  /** The scan's registrable domain; a domain search runs only when a verified domain equals it. */
  domain: string | undefined;
  signal: AbortSignal;
}

const normaliseDomain = (d: string) => d.trim().toLowerCase().replace(/\.$/, '');

/**
 * Probe: one lookup per address, one after another (they share the client's rate budget), then
 * the domain search. An `unauthorized` answer stops the address lookups: the key is refused, and
 * every further request would be too.
 */
export async function probeBreaches(lookup: BreachLookup, input: BreachesProbeInput): Promise<BreachesSnapshot> {
  const { emails, invalid, overLimit } = addressesToCheck(input.emails);
  const accounts: BreachesSnapshot['accounts'] = [];
  for (const email of emails) {
    const result = await lookup.breachedAccount(email, { signal: input.signal });
    accounts.push({ email, result });
    if (result.outcome === 'unauthorized') break;
  }
  const snapshot: BreachesSnapshot = { accounts, setAside: { invalid, overLimit } };
  const scanned = input.domain ? normaliseDomain(input.domain) : undefined;
  const keyRefused = accounts.some((a) => a.result.outcome === 'unauthorized' && a.result.status === 401);
  if (scanned && !keyRefused && input.verifiedDomains.some((d) => normaliseDomain(d) === scanned)) {
    snapshot.domain = { domain: scanned, result: await lookup.breachedDomain(scanned, { signal: input.signal }) };
  }
  return snapshot;
}
