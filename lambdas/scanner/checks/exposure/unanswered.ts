/**
 * DECISIONS "Blocked is a result": a path that answered 429, a 5xx, a challenge page, or nothing at
 * all (reset, timeout, not sent in time) was not looked at. It never counts as "not exposed": the
 * checks that read many paths list these as parts not checked, one entry per cause.
 */
import type { NotCheckedCause, NotCheckedPart } from '../../../domain/coverage.js';
import { detectPathBlock } from '../../site-access/block.js';
import type { FetchFailure, Sample } from './fetcher.js';

/** Why one answer does not count as an answer; null when it does (any status the site chose to give, 403 and 404 included). */
export function unansweredCause(result: Sample | FetchFailure): Exclude<NotCheckedCause, 'passive' | 'limit'> | null {
  if (!('status' in result)) return result.error.startsWith('not sent') ? 'timeout' : 'error';
  // A plain 403 on /.git/HEAD is the site's own answer; a vendor's block page, a challenge or a 429 is not.
  const block = detectPathBlock(result);
  if (block) return block.kind === 'rate_limited' ? 'rate_limited' : block.kind === 'unavailable' ? 'error' : 'blocked';
  if (result.status >= 500) return 'error';
  return null;
}

const REASONS: Record<Exclude<NotCheckedCause, 'passive' | 'limit'>, string> = {
  rate_limited: 'The site answered 429 Too Many Requests (or 503 with Retry-After) and the wait it asked for did not fit in the scan, so these paths were not looked at.',
  error: 'The site answered with a server error (5xx) or closed the connection, so these paths were not looked at.',
  timeout: 'These paths got no answer in the time the check had, so they were not looked at.',
  blocked: 'The site answered these paths with a bot challenge or a firewall’s block page instead of its own answer.',
};

/** The parts not checked among `results`: one entry per cause, naming how many of `asked` paths and the first few. */
export function unansweredParts(label: string, results: readonly (Sample | FetchFailure)[], asked: number): NotCheckedPart[] {
  const byCause = new Map<Exclude<NotCheckedCause, 'passive' | 'limit'>, string[]>();
  for (const result of results) {
    const cause = unansweredCause(result);
    if (cause) byCause.set(cause, [...(byCause.get(cause) ?? []), result.path]);
  }
  return [...byCause].map(([cause, paths]) => {
    const shown = paths.slice(0, 4).join(', ') + (paths.length > 4 ? ' …' : '');
    return { part: `${label}: ${paths.length} of ${asked} paths (${shown})`, cause, reason: REASONS[cause] };
  });
}

/** The results that count as the site's own answers. */
export function answered<T extends Sample | FetchFailure>(results: readonly T[]): T[] {
  return results.filter((result) => unansweredCause(result) === null);
}
