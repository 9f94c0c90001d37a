import type { Deps } from '../composition.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../domain/errors.js';
import { type FreeRescanRefusal, freeRescanMessages, freeRescanRefusal, freeRescanRefusalMessages, type FreeRescanResponse } from '../domain/free-rescan.js';
import { paymentMessages } from '../domain/payments.contract.js';
import type { Caller } from './account.js';
import { callersOwnAudit } from './payments.js';
import { refuseOptedOutScan } from './scan-opt-outs.js';

type RescanDeps = Pick<Deps, 'audits' | 'scanJobs' | 'clock' | 'log' | 'config' | 'scannerOptOuts'>;

const auditNotFound = () => new NotFoundError('audit_not_found', 'Audit not found');

/** Not a Pro Audit: nothing to claim (403). The others are the audit's state (409). */
function refusalError(refusal: FreeRescanRefusal) {
  const message = freeRescanRefusalMessages[refusal];
  return refusal === 'rescan_not_included' ? new ForbiddenError(refusal, message) : new ConflictError(refusal, message);
}

/**
 * `POST /api/audits/{auditId}/rescans`: the Pro Audit's free re-scan to confirm fixes (DECISIONS
 * "What paid audits add"; rules in lambdas/domain/free-rescan.ts). The owner's, once per purchase,
 * within 30 days, not while a scan of the report runs; the same deep scan as the paid one, on the same
 * report, and never counted against the plan's scans (it goes nowhere near the scan allowance).
 */
export async function rescanPaidAudit(deps: RescanDeps, caller: Caller, rawId: unknown): Promise<FreeRescanResponse> {
  const audit = await callersOwnAudit(deps, caller, rawId, paymentMessages.auditNotYours);

  const now = deps.clock.now();
  const refusal = freeRescanRefusal(audit, now);
  if (refusal) throw refusalError(refusal);
  await refuseOptedOutScan(deps, audit.host);

  const claimedAt = now.toISOString();
  if (!(await deps.audits.claimFreeRescan(audit.id, { paymentSessionId: audit.paymentSessionId!, claimedAt }))) {
    // Something changed since the read (a second request won the claim, a scan started, a new purchase): say what.
    const current = await deps.audits.getAudit(audit.id);
    if (!current) throw auditNotFound();
    throw refusalError(freeRescanRefusal(current, now) ?? 'free_rescan_used');
  }
  await deps.scanJobs.enqueue({ auditId: audit.id, kind: 'scan', depth: 'deep' }, 'paid');
  deps.log.info('Pro Audit free re-scan queued', { auditId: audit.id });
  return { auditId: audit.id, status: 'queued', scanDepth: 'deep', freeRescanUsedAt: claimedAt, message: freeRescanMessages.started };
}
