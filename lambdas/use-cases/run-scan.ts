import { randomUUID } from 'node:crypto';
import type { Deps } from '../composition.js';
import { isIP } from 'node:net';
import { getDomain } from 'tldts';
import type { Audit, CheckResult, Finding, Grade, GradeCap, ScanJob, ScanMode } from '../domain/audit.js';
import { coverageOf, PASSIVE_REASON } from '../domain/coverage.js';
import { auditCompletedEmail } from '../domain/emails.js';
import { issueCounts } from '../domain/audit-view.js';
import { findingGroupLines, findingGroupsOf } from '../domain/finding-groups.js';
import { siteAccessOf } from '../domain/site-access-view.js';
import { DomainError } from '../domain/errors.js';
import type { LeadRecord } from '../domain/ports.js';
import { SCAN_DEPTHS } from '../domain/plans.js';
import { refuseRestrictedPassiveScan } from '../domain/scan-authorization.js';
import { countryOfMobile } from '../domain/phone.js';
import { parseWebTarget } from '../domain/target.js';
import { subdomainSurfaceCheck } from '../scanner/checks/subdomain-surface.check.js';
import { scan } from '../scanner/scan.js';
import { afterMonitoringRescan, type MonitoringDeps } from './monitoring.js';
import { notify } from './notifications.js';
import { HOUR_SECONDS } from './rate-limits.js';
import { optOutRefusal } from './scan-opt-outs.js';

export const SCAN_DEADLINE_MS = 40_000;
/** A deep scan (a paid audit's, a scan pack's): more ports and every subdomain, within the worker's 90 s. */
export const DEEP_SCAN_DEADLINE_MS = 75_000;
/** DECISIONS "What paid audits add": the deep scan tries nmap's top 1000 ports (the catalogue's SCAN_DEPTHS). */
export const DEEP_TOP_PORTS = SCAN_DEPTHS.deep.topPorts;

export type RunScanOutcome = 'completed' | 'failed' | 'skipped';

/**
 * Runs the scan for a queued audit. Safe to run twice for one job (queues deliver at least once):
 * an audit that has already ended is skipped. Errors the visitor can act on end the audit as
 * failed with a readable message; anything else is thrown so the queue retries the job. An email
 * that cannot be sent is not such an error: the notification outbox retries it on its own.
 */
type RunScanDeps = Pick<Deps, 'audits' | 'clock' | 'scanSettings' | 'scanChecks' | 'log' | 'mailer' | 'config' | 'stats' | 'notifications' | 'metrics' | 'rateLimits' | 'scannerOptOuts'> & MonitoringDeps;

export async function runScan(deps: RunScanDeps, job: ScanJob): Promise<RunScanOutcome> {
  const audit = await deps.audits.getAudit(job.auditId);
  if (!audit) {
    deps.log.warn('Scan job for an unknown audit; dropped', { auditId: job.auditId });
    return 'skipped';
  }
  const startedAt = deps.clock.now().toISOString();
  const started = await deps.audits.markInProgress(audit.id, startedAt);
  if (!started) {
    // Completed by an earlier delivery that stopped before its alerts: compare again (each change still alerts once).
    if (audit.status === 'completed' && audit.origin === 'monitoring') {
      await afterMonitoringRescan(deps, audit.id);
      return 'skipped';
    }
    // Completed by an earlier delivery that stopped before its email was stored: store and send it now (still only once).
    if (audit.status === 'completed' && audit.score !== undefined && audit.grade) {
      const lead = audit.leadId ? await deps.audits.getLead(audit.leadId) : undefined;
      const coverage = coverageOf(audit);
      await notifyCompletion(deps, audit, lead, {
        score: audit.score,
        grade: audit.grade,
        findings: audit.checks.flatMap((c) => c.findings),
        coverage: { mode: coverage.mode, partial: coverage.partial, notChecked: coverage.notChecked.length },
        caps: audit.gradeCaps ?? [],
        checks: audit.checks,
      });
    }
    return 'skipped';
  }
  deps.metrics.scanStarted();

  const target = parseWebTarget(audit.targetUrl);
  if (!target) {
    await deps.audits.fail(audit.id, 'The website address could not be read.', deps.clock.now().toISOString());
    deps.metrics.scanFailed();
    return 'failed';
  }
  // DECISIONS "Scanner identity": a job queued before the domain's owner opted out ends here, with the reason.
  const optedOut = await optOutRefusal(deps, target.host);
  if (optedOut) {
    await deps.audits.fail(audit.id, optedOut.message, deps.clock.now().toISOString());
    deps.metrics.scanFailed();
    return 'failed';
  }
  // The breach check looks up the address of whoever asked for the report (never anyone else's): the
  // lead's, or for a monitoring rescan its owner's, so that consecutive scans of a domain compare.
  const lead = audit.leadId ? await deps.audits.getLead(audit.leadId) : undefined;
  const owner = !lead && audit.origin === 'monitoring' && audit.ownerId ? await deps.accounts.getProfile(audit.ownerId) : undefined;
  const emails = lead ? [lead.email] : owner ? [owner.email] : [];
  // DECISIONS "Scan modes": the mode stored when the audit was asked for (audits from before modes ran active),
  // and active only while the target's hourly budget of active scans lasts.
  const allowed: ScanMode = audit.mode ?? 'active';
  const limited = allowed === 'active' && !(await activeScanAllowed(deps, target.host));
  const mode: ScanMode = limited ? 'passive' : allowed;
  const ranPassiveBecause = limited ? activeLimitReason(deps.config.SCAN_ACTIVE_PER_TARGET_PER_HOUR, deps.config.PRODUCT_NAME) : undefined;
  // The depth the plan granted (a paid audit's or a scan pack's: lambdas/domain/plans.ts grants). The audit
  // remembers it, so a job queued again after a restart (without one) stays deep. Deep scans are active only.
  const deep = mode === 'active' && (job.depth === 'deep' || audit.depth === 'deep');
  // A paid audit's deep re-run (or the Pro Audit's re-scan) is the same audit, counted when it first
  // completed; a scan pack's scan is deep from its first run, and counted then.
  const counts = !deep || audit.completedAt === undefined;
  try {
    // A passive scan does what a browser does, and a browser refuses the site's port: refused with the reason. The lead route
    // refuses such a passive lead up front; this is an active audit that the per-target limit turned passive.
    if (mode === 'passive') refuseWithReason(() => refuseRestrictedPassiveScan(target.url), ranPassiveBecause);
    const report = await scan(target, deep ? { ...deps.scanSettings, topPorts: DEEP_TOP_PORTS } : deps.scanSettings, {
      deadlineMs: deep ? DEEP_SCAN_DEADLINE_MS : SCAN_DEADLINE_MS,
      checks: deep ? [...deps.scanChecks, subdomainSurfaceCheck] : deps.scanChecks,
      subject: { emails, verifiedDomains: [] },
      mode,
      ...(ranPassiveBecause ? { passiveReason: `${PASSIVE_REASON} ${ranPassiveBecause}` } : {}),
      onProgress: (check) => deps.audits.saveCheck(audit.id, check),
    });
    for (const check of report.checks) if (check.durationMs !== undefined) deps.metrics.checkTimed(check.name, check.durationMs);
    const completedAt = deps.clock.now().toISOString();
    const completed = await deps.audits.complete(audit.id, {
      score: report.score,
      grade: report.grade,
      riskLevel: report.riskLevel,
      completedAt,
      ...(report.caps.length > 0 ? { gradeCaps: report.caps } : {}),
      ...(ranPassiveBecause ? { ranPassiveBecause } : {}),
    });
    // Counted once, by the delivery whose completion took: a second delivery racing it finds the audit ended.
    if (completed && counts) await recordCompletion(deps, audit.id, startedAt, completedAt, issueCounts(report.findings).critical, lead);
    if (completed) deps.metrics.scanCompleted(report.durationMs);
    // A rescan's owner hears about changes (alerts) and, if they asked, that it completed; a lead gets the report email.
    if (audit.origin === 'monitoring') await afterMonitoringRescan(deps, audit.id);
    else {
      const coverage = { mode: report.mode, partial: report.partial, notChecked: report.notChecked.length };
      await notifyCompletion(deps, audit, lead, { score: report.score, grade: report.grade, findings: report.findings, coverage, caps: report.caps, checks: report.checks });
    }
    return 'completed';
  } catch (error) {
    if (error instanceof DomainError) {
      await deps.audits.fail(audit.id, error.message, deps.clock.now().toISOString());
      deps.metrics.scanFailed();
      return 'failed';
    }
    throw error;
  }
}

/** Runs a refusal; its message, when it throws, is preceded by why the scan ran passive (the per-target limit). */
function refuseWithReason(refuse: () => void, ranPassiveBecause: string | undefined): void {
  try {
    refuse();
  } catch (error) {
    if (error instanceof DomainError && ranPassiveBecause) throw new DomainError(error.code, `${ranPassiveBecause} ${error.message}`, error.details);
    throw error;
  }
}

/** The target an active-scan budget is kept for: its registrable domain (all its subdomains share one), or its address. */
export function activeScanTarget(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  return isIP(bare) ? bare : (getDomain(bare, { allowPrivateDomains: true }) ?? bare);
}

export const activeLimitReason = (perHour: number, productName: string) =>
  `This site already had ${perHour} active scans from ${productName} in the last hour (the most we run against one site), so this one ran passive.`;

/**
 * DECISIONS "Scan modes": no target gets more than SCAN_ACTIVE_PER_TARGET_PER_HOUR active scans an
 * hour from the product as a whole, whoever asked (leads, Quick Scans, the API, paid audits,
 * monitoring, unlocks). Counted here, where every scan passes, so no entry point can go around it.
 */
async function activeScanAllowed(deps: RunScanDeps, host: string): Promise<boolean> {
  const decision = await deps.rateLimits.consume(`scan:active:${activeScanTarget(host)}`, deps.config.SCAN_ACTIVE_PER_TARGET_PER_HOUR, HOUR_SECONDS);
  return decision.allowed;
}

/** GET /api/stats: one more completed audit, its measured time, its critical issues and its lead's country. A failed count never fails the audit. */
async function recordCompletion(
  deps: RunScanDeps,
  auditId: string,
  startedAt: string,
  completedAt: string,
  criticalIssues: number,
  lead: LeadRecord | undefined,
): Promise<void> {
  try {
    const leadCountry = countryOfMobile(lead?.mobileNumber);
    await deps.stats.recordCompletedAudit({ durationMs: Date.parse(completedAt) - Date.parse(startedAt), criticalIssues, ...(leadCountry ? { leadCountry } : {}) });
  } catch (error) {
    deps.log.error('Could not count the completed audit in the platform statistics', { auditId, error: String(error) });
  }
}


/**
 * Emails the lead the grade, score, issues by severity and the report link, once per audit (a
 * conditional flag on the audit, claimed first). The email goes through the notification outbox
 * (DECISIONS "Mail never fails a scan"): refused now, it is retried by the sweeper, and the audit
 * and its job are done either way. Only when the outbox could not store it (the table failing) is
 * the claim given back and the error thrown, so the job's retry stores it.
 */
async function notifyCompletion(
  deps: RunScanDeps,
  audit: Audit,
  lead: LeadRecord | undefined,
  result: {
    score: number;
    grade: Grade;
    findings: readonly Finding[];
    coverage: { mode: ScanMode; partial: boolean; notChecked: number };
    caps: readonly GradeCap[];
    checks: readonly CheckResult[];
  },
): Promise<void> {
  if (!lead) return;
  const claimedAt = deps.clock.now().toISOString();
  if (!(await deps.audits.markCompletionNotified(audit.id, claimedAt))) return;
  const email = auditCompletedEmail(
    { productName: deps.config.PRODUCT_NAME, siteUrl: deps.config.SITE_URL },
    {
      to: lead.email,
      firstName: lead.firstName,
      host: audit.host,
      auditId: audit.id,
      grade: result.grade,
      score: result.score,
      issues: issueCounts(result.findings),
      groupLines: findingGroupLines(findingGroupsOf(result.findings)),
      coverage: result.coverage,
      caps: result.caps,
      blocked: siteAccessOf(result.checks)?.headline ?? null,
    },
  );
  try {
    await notify(deps, { id: randomUUID(), kind: 'audit-completed', message: { channel: 'email', email }, about: { auditId: audit.id } });
  } catch (error) {
    deps.log.error('Could not store the audit completion email; the job will be retried', { auditId: audit.id, error: String(error) });
    await deps.audits.releaseCompletionNotified(audit.id, claimedAt);
    throw error;
  }
}

export { STUCK_AFTER_MS, sweepStuckAudits } from './sweep.js';
