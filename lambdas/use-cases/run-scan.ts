import type { Deps } from '../composition.js';
import type { ScanJob } from '../domain/audit.js';
import { DomainError } from '../domain/errors.js';
import { parseWebTarget } from '../domain/target.js';
import { scan } from '../scanner/scan.js';

export const SCAN_DEADLINE_MS = 40_000;

export type RunScanOutcome = 'completed' | 'failed' | 'skipped';

/**
 * Runs the scan for a queued audit. Safe to run twice for one job (queues deliver at least once):
 * an audit that has already ended is skipped. Errors the visitor can act on end the audit as
 * failed with a readable message; anything else is thrown so the queue retries the job.
 */
export async function runScan(deps: Pick<Deps, 'audits' | 'clock' | 'scanSettings' | 'scanChecks' | 'log'>, job: ScanJob): Promise<RunScanOutcome> {
  const audit = await deps.audits.getAudit(job.auditId);
  if (!audit) {
    deps.log.warn('Scan job for an unknown audit; dropped', { auditId: job.auditId });
    return 'skipped';
  }
  const started = await deps.audits.markInProgress(audit.id, deps.clock.now().toISOString());
  if (!started) return 'skipped';

  const target = parseWebTarget(audit.targetUrl);
  if (!target) {
    await deps.audits.fail(audit.id, 'The website address could not be read.', deps.clock.now().toISOString());
    return 'failed';
  }
  // The breach check looks up the address of whoever asked for the report (never anyone else's).
  const lead = audit.leadId ? await deps.audits.getLead(audit.leadId) : undefined;
  try {
    const report = await scan(target, deps.scanSettings, {
      deadlineMs: SCAN_DEADLINE_MS,
      checks: deps.scanChecks,
      subject: { emails: lead ? [lead.email] : [], verifiedDomains: [] },
      onProgress: (check) => deps.audits.saveCheck(audit.id, check),
    });
    await deps.audits.complete(audit.id, {
      score: report.score,
      grade: report.grade,
      riskLevel: report.riskLevel,
      completedAt: deps.clock.now().toISOString(),
    });
    return 'completed';
  } catch (error) {
    if (error instanceof DomainError) {
      await deps.audits.fail(audit.id, error.message, deps.clock.now().toISOString());
      return 'failed';
    }
    throw error;
  }
}

/** Audits unfinished past this age are ended as failed by the sweeper (nothing spins forever); longer than
 * the queue's three attempts at 6 × the worker timeout each, so a retry in flight is never failed under it. */
export const STUCK_AFTER_MS = 30 * 60_000;

export async function sweepStuckAudits(deps: Pick<Deps, 'audits' | 'clock' | 'log'>): Promise<number> {
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
  }
  if (failed > 0) deps.log.warn('Ended stuck audits as failed', { count: failed });
  return failed;
}
