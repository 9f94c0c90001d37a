import type { CheckDefinition } from '../check.js';
import type { BreachLookup } from '../net/hibp-client.js';
import { analyzeBreaches, notConfiguredOutput } from './breaches/breaches.analysis.js';
import { probeBreaches } from './breaches/breaches.probe.js';

export type { BreachLookup } from '../net/hibp-client.js';
export { createHibpClient } from '../net/hibp-client.js';
export { isPasswordPwned } from '../pwned-passwords.js';

/**
 * The lookups could not be made (key refused, rate limit, HIBP unreachable). Thrown so the check
 * ends as `error`; the engine reports `code: message` as the reason, e.g.
 * `rate-limited: Have I Been Pwned answered 429 (too many requests) 3 times; retry after 5 s`.
 */
export class BreachCheckError extends Error {
  constructor(
    readonly code: 'rate-limited' | 'unauthorized' | 'error',
    message: string,
  ) {
    super(message);
    this.name = 'BreachCheckError';
  }
}

export interface BreachesCheckOptions {
  /** The clock that dates "recent" breaches (tests fix it). */
  now?: () => Date;
}

/**
 * The breaches check: the scan subject's business addresses (at most 5, de-duplicated, lower-cased)
 * looked up in Have I Been Pwned, and the domain-wide search when the scanned domain is one the
 * customer verified. Without a client it says honestly that nothing was checked.
 */
export function createBreachesCheck(client: BreachLookup | undefined, options: BreachesCheckOptions = {}): CheckDefinition {
  const now = options.now ?? (() => new Date());
  return {
    name: 'breaches',
    budgetMs: 10_000,
    needsAddress: false,
    // The requester's own address (and a domain they verified): a lookup anyone may make.
    passive: 'runs',
    run: async ({ subject, domain, signal }) => {
      if (!client) return notConfiguredOutput();
      const snapshot = await probeBreaches(client, { emails: subject.emails, verifiedDomains: subject.verifiedDomains, domain, signal });
      const analysis = analyzeBreaches(snapshot, now());
      if (analysis.status !== 'ok') throw new BreachCheckError(analysis.status, analysis.reason);
      return analysis.output;
    },
  };
}

/** The breaches check with no HIBP client: reports `not-configured`. The composition wires the configured one. */
export const breachesCheck: CheckDefinition = createBreachesCheck(undefined);
