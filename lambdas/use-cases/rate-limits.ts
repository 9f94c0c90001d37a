import { isIPv4, isIPv6 } from 'node:net';
import type { Config } from '../config.js';
import { RateLimitedError } from '../domain/errors.js';
import type { Metrics } from '../domain/metrics.port.js';
import type { RateLimiter } from '../domain/ports.js';

export const HOUR_SECONDS = 3600;

/** Scopes ending so count a source address (`lead:ip`, `code:ip`, …): enforceLimits counts them by {@link sourceSubject}. */
export const SOURCE_SCOPE_SUFFIX = ':ip';

export interface Limit {
  /**
   * What is counted, e.g. `lead:ip`; with the subject, the counter's key. A scope ending in `:ip`
   * counts the client's address by {@link sourceSubject} (an IPv6 client by its /64).
   */
  scope: string;
  /** Whom it counts; an empty subject (no address known) is not counted. */
  subject: string;
  perHour: number;
  /** The refusal's text, given the wait ("20 minutes"); default "Too many {what}. …". */
  message?: (wait: string) => string;
  /** Called once when this limit refuses a request. */
  onRefused?: () => void;
}

/**
 * The subject a per-source limit counts (issue 28, DECISIONS "Who speaks for a site"): an IPv4
 * address as it is (an IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address by its /64 in
 * canonical form (`2001:db8:1:2::/64`): one subscriber line or one cloud instance gets a whole /64,
 * so counting full addresses would give a rotating client 2^64 budgets. Anything else unchanged.
 */
export function sourceSubject(address: string): string {
  const bare = address.trim().replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${canonicalIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}

/** An IPv6 address's eight 16-bit groups (a dotted IPv4 tail as two). */
function ipv6Groups(address: string): number[] {
  // WHATWG URL writes IPv6 hosts in RFC 5952 form, dotted tails as hex: only `::` is left to expand.
  const [head = '', tail] = canonicalIpv6(address).split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const start = parse(head);
  const end = parse(tail ?? '');
  return tail === undefined ? start : [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}

function canonicalIpv6(address: string | number[]): string {
  const text = typeof address === 'string' ? address : address.map((g) => g.toString(16)).join(':');
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}

/**
 * Mail to addresses a stranger gives (verification codes, report emails) from the whole product per
 * hour: past it every such route refuses and MailCeilingReached is recorded, which an operator alarm
 * watches (lib/alarms). A rotation of source addresses and recipients cannot dodge it.
 */
export function mailCeiling(deps: { config: Pick<Config, 'MAIL_SENDS_PER_HOUR_LIMIT'>; metrics: Pick<Metrics, 'mailCeilingReached'> }): Limit {
  return {
    scope: 'mail',
    subject: 'all',
    perHour: deps.config.MAIL_SENDS_PER_HOUR_LIMIT,
    message: (wait) => `We are sending too many emails just now. Please try again in ${wait}.`,
    onRefused: () => deps.metrics.mailCeilingReached(),
  };
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Counts one request against each limit in order and stops at the first one exceeded: a
 * RateLimitedError whose retry-after is when that window ends. The one place where a source
 * address becomes the subject a limit counts (per-source scopes, {@link SOURCE_SCOPE_SUFFIX}).
 */
export async function enforceLimits(limiter: RateLimiter, limits: readonly Limit[], what: string): Promise<void> {
  for (const limit of limits) {
    if (!limit.subject) continue;
    const subject = limit.scope.endsWith(SOURCE_SCOPE_SUFFIX) ? sourceSubject(limit.subject) : limit.subject;
    const decision = await limiter.consume(`${limit.scope}:${subject}`, limit.perHour, HOUR_SECONDS);
    if (!decision.allowed) {
      limit.onRefused?.();
      const wait = waitText(decision.retryAfterSeconds);
      throw new RateLimitedError(limit.message ? limit.message(wait) : `Too many ${what}. Please try again in ${wait}.`, decision.retryAfterSeconds);
    }
  }
}
