import { randomUUID } from 'node:crypto';
import type { Deps } from '../composition.js';
import type { Audit, ScanLane } from '../domain/audit.js';
import { ConflictError } from '../domain/errors.js';
import { ranMode } from '../domain/coverage.js';
import { siteKey } from '../domain/target.js';
import { unlockMessages, type UnlockResponse } from '../domain/unlock.contract.js';
import type { Caller } from './account.js';
import { countScanAgainstPlan, requireProvenDomain, scannerProbes } from './domains.js';
import { callersOwnAudit } from './payments.js';
import { refuseOptedOutScan } from './scan-opt-outs.js';

type UnlockDeps = Pick<Deps, 'audits' | 'domains' | 'scanJobs' | 'clock' | 'log' | 'config' | 'scanSettings' | 'scannerOptOuts' | 'accounts' | 'billing'>;

/**
 * `POST /api/audits/{auditId}/unlock` (DECISIONS "Scan modes"): a passive report's requester, once
 * signed in and holding the site's domain verified by DNS TXT or file, runs the active scan as a new
 * report (issue 29 item 6: each scan its own history entry; the partial one stays, linked to it).
 * The caller's own report only (owned, or a lead under the account's email), once (409
 * audit_superseded after), never while it runs, and counted against the plan as one scan, as Quick
 * Scan is (issue 28 finding 14: the plan's scans, a free account's trial grants; none left: 403
 * scan_limit_reached and nothing is rescanned). The per-target active budget applies in the worker like for every active scan; a
 * report whose scan ran passive under it may be unlocked again.
 */
export async function unlockScan(deps: UnlockDeps, caller: Caller, rawId: unknown): Promise<UnlockResponse> {
  const audit = await callersOwnAudit(deps, caller, rawId, unlockMessages.notYours);
  // A report whose active scan ran passive under the per-target limit may be unlocked again (later).
  if (ranMode(audit) === 'active') throw new ConflictError('already_active', unlockMessages.alreadyActive);
  if (audit.status === 'queued' || audit.status === 'in_progress') throw new ConflictError('audit_scan_running', unlockMessages.running);
  if (audit.supersededBy) throw superseded();
  await refuseOptedOutScan(deps, audit.host);
  // The proof is looked for again when it was last seen more than DOMAIN_PROOF_RECHECK_DAYS ago.
  await requireProvenDomain(deps, scannerProbes(deps.scanSettings), caller.userId, audit.host, unlockMessages.notVerified(siteKey(audit.host)));
  // An active scan: counted against the plan as Quick Scan is (issue 28 finding 14), given back if it does not start.
  const counted = await countScanAgainstPlan(deps, caller.userId);
  let next: Audit;
  try {
    next = await queueActiveRescan(deps, audit.id, 'Passive report unlocked: active scan queued as a new report', counted.lane);
    await counted.record({ auditId: next.id, domain: audit.host, createdAt: deps.clock.now().toISOString() });
  } catch (error) {
    await counted.giveBack();
    throw error;
  }
  return { auditId: next.id, status: 'queued', mode: 'active', message: unlockMessages.started };
}

const superseded = () => new ConflictError('audit_superseded', unlockMessages.superseded);

/**
 * The active scan of a passive report whose requester proved control (an unlock, or the address
 * proof of a same-domain lead), queued as a new audit that supersedes it (issue 29 item 6), on `lane`'s queue. `ownerId`:
 * the account attached to the report just now. 409 when another request did it a moment ago
 * (audit_superseded), or a scan of it started (audit_scan_running).
 */
export async function queueActiveRescan(
  deps: Pick<Deps, 'audits' | 'scanJobs' | 'clock' | 'log'>,
  auditId: string,
  logMessage: string,
  lane: ScanLane,
  ownerId?: string,
): Promise<Audit> {
  const createdAt = deps.clock.now().toISOString();
  const next = await deps.audits.supersedeWithActive(auditId, { id: randomUUID(), createdAt, ...(ownerId ? { ownerId } : {}) });
  if (!next) {
    const now = await deps.audits.getAudit(auditId);
    throw now?.supersededBy ? superseded() : new ConflictError('audit_scan_running', unlockMessages.running);
  }
  await deps.scanJobs.enqueue({ auditId: next.id, kind: 'scan' }, lane);
  deps.log.info(logMessage, { auditId: next.id, supersedes: auditId });
  return next;
}
