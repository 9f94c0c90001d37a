import type { Deps } from '../composition/core.js';

/** Audits unfinished past this age are ended as failed by the sweeper (nothing spins forever); longer than
 * the queue's three attempts at 6 × the worker timeout each, so a retry in flight is never failed under it. */
export const STUCK_AFTER_MS = 30 * 60_000;

export async function sweepStuckAudits(deps: Pick<Deps, 'audits' | 'clock' | 'log'> & Partial<Pick<Deps, 'metrics'>>): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - STUCK_AFTER_MS).toISOString();
  const stuck = await deps.audits.listUnfinished(cutoff, 100);
  let failed = 0;
  for (const audit of stuck) {
    const ended = await deps.audits.fail(
      audit.id,
      'The scan did not finish in time. Please start a new assessment.',
      deps.clock.now().toISOString(),
    );
    if (ended) failed += 1;
    if (ended) deps.metrics?.scanFailed();
  }
  if (failed > 0) deps.log.warn('Ended stuck audits as failed', { count: failed });
  return failed;
}
