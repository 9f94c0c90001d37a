import { randomUUID } from 'node:crypto';
import type { Deps } from '../composition.js';
import type { Caller } from './account.js';
import type { UserProfile } from '../domain/account.js';
import { alertableChanges, alertEmail, alertSms, changeSummaryParts, scanCompletedEmail } from '../domain/alert-messages.js';
import type { Audit } from '../domain/audit.js';
import { parseContract } from '../domain/contract.js';
import { ValidationError } from '../domain/errors.js';
import { ALERT_RATE_LIMIT, changeTitle, MAX_RESCANS_PER_RUN, monitoredDomains, monitoringPlanOf, rescanSlotStart } from '../domain/monitoring.js';
import { DOMAIN_PROOF_RECHECK_DAYS, proofIsCurrent } from '../domain/domains.js';
import { alertsQuerySchema, type AlertChannel, type AlertsPage } from '../domain/monitoring.contract.js';
import { countryOfMobile, smsCountryAllowed } from '../domain/phone.js';
import { diffScans, type KevCatalogue, kevMatchesWithoutRescan, knownExploitedIds, type MonitoringChange, monitoredTechnologies } from '../domain/monitoring-diff.js';
import type { AlertRecord } from '../domain/ports.js';
import { siteKey } from '../domain/target.js';
import { withoutMutedFindings } from '../domain/security-policy.js';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '../domain/unsubscribe-token.js';
import { routePath } from '../routes.js';
import { issueCounts } from '../domain/audit-view.js';
import { overdueChanges } from '../domain/time-to-fix.js';
import { destinationWantedChanges, queueDestinationAlerts } from './alert-destinations.js';
import { notify, type NotifyDeps } from './notifications.js';
import { optOutRefusal } from './scan-opt-outs.js';
import { confirmDomainProof, type OwnershipProbes, scannerProbes } from './domains.js';
import { domainLapsedEmail } from '../domain/emails.js';
import { mutedFindingIdsOf } from './security-policies.js';
import { recordIssueHistory } from './time-to-fix.js';
import { rescanTargetOf } from './rescan-target.js';
import { budgetExhausted, dueBySubscriber, nextDueAt, type RunBudget, UNLIMITED_BUDGET } from './monitoring-due.js';

/**
 * Continuous monitoring (issue 8 "Monitoring"; the rules are in lambdas/domain/monitoring.ts): the
 * schedule that queues subscribers' rescans, the comparison after each rescan and the alerts it
 * sends (deduplicated, rate-limited, by the user's preferences), knowledge-base checks without a
 * rescan, the alerts list and the unsubscribe link.
 */

type ScheduleDeps = Pick<Deps, 'monitoring' | 'domains' | 'audits' | 'scanJobs' | 'log' | 'clock' | 'config' | 'scanSettings' | 'accounts' | 'scannerOptOuts'> & NotifyDeps;
type AlertDeps = Pick<
  Deps,
  'accounts' | 'alerts' | 'rateLimits' | 'mailer' | 'sms' | 'signingKeys' | 'clock' | 'config' | 'log' | 'policies' | 'notifications' | 'metrics' | 'alertDestinations' | 'scanSettings' | 'organisations'
>;
export type MonitoringDeps = ScheduleDeps & AlertDeps & Pick<Deps, 'issueHistory'>;

export interface ScheduleResult {
  /** The rescans queued by this run: audit id, owner and domain. */
  queued: { auditId: string; userId: string; domain: string }[];
  /** Due domains were left for the next run: its deadline (or MAX_RESCANS_PER_RUN) came first. */
  leftDue: boolean;
}

/** What one run carries from subscriber to subscriber: its rescans and its bounded proof re-checks. */
export interface RescanRun {
  queued: ScheduleResult['queued'];
  rechecks: number;
  probes?: OwnershipProbes;
}

/**
 * Queues the rescans that are due at `now`: only the domains the due index lists as due (issue 30
 * item 3: a run's cost follows what is due, not the customer base), at most MAX_RESCANS_PER_RUN,
 * and only while the run's budget lasts; whatever is left stays due for the next run. Each due
 * domain's slot is claimed first, so overlapping runs never queue one twice. A rescan is a new audit
 * owned by the subscriber with `origin: 'monitoring'`; it does not count against the plan's scans
 * (DECISIONS "Scan counting").
 */
export async function scheduleMonitoringRescans(deps: ScheduleDeps, now: Date, budget: RunBudget = UNLIMITED_BUDGET): Promise<ScheduleResult> {
  const run: RescanRun = { queued: [], rechecks: 0 };
  const due = await deps.monitoring.dueDomains(now.toISOString(), MAX_RESCANS_PER_RUN);
  let leftDue = due.length >= MAX_RESCANS_PER_RUN;
  for (const [userId, domains] of dueBySubscriber(due)) {
    if (!(await rescanDueDomains(deps, run, userId, domains, now, budget))) {
      leftDue = true;
      deps.log.info('Monitoring: the run’s deadline is near; the rest stay due for the next run', { queued: run.queued.length });
      break;
    }
  }
  if (run.queued.length > 0) deps.log.info('Monitoring: rescans queued', { count: run.queued.length });
  return { queued: run.queued, leftDue };
}

/**
 * One subscriber's due domains (from the due index): the subscription read again (one that ended
 * takes its domains out of the index), each still-monitored domain claimed and rescanned, and its
 * place moved to its next slot. False when the budget ran out first (the rest stay due).
 */
export async function rescanDueDomains(deps: ScheduleDeps, run: RescanRun, userId: string, dueDomains: readonly string[], now: Date, budget: RunBudget = UNLIMITED_BUDGET): Promise<boolean> {
  const plan = monitoringPlanOf(await deps.accounts.getSubscription(userId));
  if (!plan) {
    // No longer paid for: out of the index until a subscription starts again (reindexMonitoring).
    for (const domain of dueDomains) await deps.monitoring.setDue(userId, domain, undefined);
    return true;
  }
  const monitored = monitoredDomains(await deps.domains.list(userId), plan.maxDomains);
  for (const domain of dueDomains) {
    if (budgetExhausted(budget)) return false;
    const record = monitored.find((candidate) => candidate.domain === domain);
    if (!record) {
      // Beyond the plan's number of domains (or deleted: then nothing is written): looked at again a period later.
      await deps.monitoring.setDue(userId, domain, nextDueAt(domain, plan.periodMs, now));
      continue;
    }
    // DECISIONS "Scanner identity": the domain's owner opted out; no rescan until they withdraw it (nothing claimed, so it is due again then).
    if (await optOutRefusal(deps, domain)) {
      deps.log.info('Monitoring: the domain is opted out of scanning; not rescanned', { userId, domain });
      continue;
    }
    const slot = rescanSlotStart(domain, plan.periodMs, now).toISOString();
    const auditId = randomUUID();
    if (!(await deps.monitoring.claimRescan(userId, domain, slot, auditId, now.toISOString()))) {
      // Claimed already (an overlapping run, or the index read before a move): its next slot is when it is due.
      await deps.monitoring.setDue(userId, domain, nextDueAt(domain, plan.periodMs, now));
      continue;
    }
    // DECISIONS "Scan modes": an unattended active scan relies on the verification; a proof last seen
    // over DOMAIN_PROOF_RECHECK_DAYS ago is looked for again first (a bounded number per run).
    if (!proofIsCurrent(record, now)) {
      if (run.rechecks >= MAX_PROOF_RECHECKS_PER_RUN) {
        await deps.monitoring.releaseRescan(userId, domain, slot);
        continue;
      }
      run.rechecks += 1;
      const check = await confirmDomainProof(deps, (run.probes ??= scannerProbes(deps.scanSettings)), record);
      if (check === 'lapsed') {
        deps.log.warn('Monitoring: verification no longer found; the domain lapsed and is not rescanned', { userId, domain });
        await tellOwnerOfLapse(deps, userId, domain, now);
        continue;
      }
      if (check === 'unanswered') {
        // An outage is not an answer: nothing changes, and the rescan stays due for the next run.
        deps.log.info('Monitoring: the verification could not be looked up; the rescan stays due', { userId, domain });
        await deps.monitoring.releaseRescan(userId, domain, slot);
        continue;
      }
    }
    try {
      await deps.audits.createAudit({
        id: auditId,
        ownerId: userId,
        // DECISIONS "Rescan target": the site the owner's last completed scan of the domain reached (an http-only site stays http).
        targetUrl: await rescanTargetOf(deps, userId, domain),
        host: domain,
        status: 'queued',
        createdAt: now.toISOString(),
        checks: [],
        origin: 'monitoring',
        // Only verified domains are monitored: active (DECISIONS "Scan modes").
        mode: 'active',
      });
      await deps.scanJobs.enqueue({ auditId, kind: 'scan' }, 'monitoring');
    } catch (error) {
      await deps.monitoring.releaseRescan(userId, domain, slot).catch(() => undefined);
      throw error;
    }
    await deps.monitoring.setDue(userId, domain, nextDueAt(domain, plan.periodMs, now));
    run.queued.push({ auditId, userId, domain });
  }
  return true;
}

/** A run re-checks at most this many proofs (each waits up to OWNERSHIP_PROOF_DEADLINE_MS); the rest stay due for the next run. */
export const MAX_PROOF_RECHECKS_PER_RUN = 10;

/** The owner hears that monitoring of the domain stopped because its verification is gone (through the outbox). */
async function tellOwnerOfLapse(deps: ScheduleDeps, userId: string, domain: string, now: Date): Promise<void> {
  const profile = await deps.accounts.getProfile(userId);
  if (!profile?.email) return;
  const email = domainLapsedEmail({ productName: deps.config.PRODUCT_NAME, siteUrl: deps.config.SITE_URL }, { to: profile.email, domain, lapsedAt: now.toISOString(), recheckDays: DOMAIN_PROOF_RECHECK_DAYS });
  await notify(deps, { id: randomUUID(), kind: 'domain-lapsed', message: { channel: 'email', email }, about: { userId } });
}

export interface RescanOutcome {
  /** Every change since the owner's previous completed scan of the domain, and the issues past their time-to-fix target. */
  changes: MonitoringChange[];
  alert: AlertOutcome;
  scanCompletedEmail: boolean;
}

/**
 * After a monitoring rescan completed (the scan worker calls this, again on a redelivered job):
 * the changes since the owner's previous completed audit of the domain, alerted as the owner's
 * preferences say, and the 'scan completed' email when `scanCompletions` is on. First the domain's
 * time-to-fix history takes the rescan in (issues first seen, fixed), and the issues it finds past
 * their target are alerted with the changes. Safe to repeat: the history holds each scan once, each
 * change alerts once (its dedupe key is claimed) and the email is claimed on the audit.
 */
export async function afterMonitoringRescan(deps: MonitoringDeps, auditId: string): Promise<RescanOutcome | undefined> {
  const audit = await deps.audits.getAudit(auditId);
  if (!audit || audit.origin !== 'monitoring' || audit.status !== 'completed' || !audit.ownerId || !audit.completedAt) return undefined;
  const userId = audit.ownerId;
  // Kept whatever happens to the alerts: a failure here fails the job, and its retry folds the rescan in.
  const history = await recordIssueHistory(deps, userId, { ...audit, completedAt: audit.completedAt });
  const profile = await deps.accounts.getProfile(userId);
  if (!profile) {
    deps.log.warn('Monitoring rescan of an account without a profile; nothing sent', { auditId });
    return undefined;
  }
  const previous = await previousScan(deps, audit, userId);
  const domain = siteKey(audit.host);
  // The owner's accepted and muted findings give no new, resolved or overdue change (custom security policies).
  const muted = await mutedFindingIdsOf(deps, userId, domain);
  const changes = [...(previous ? diffScans({ previous, current: audit, mutedFindingIds: muted }) : []), ...withoutMutedFindings(history ? overdueChanges(history) : [], muted)];
  const wanted = uniqueChanges([...alertableChanges(changes, profile.notifications), ...(await destinationWantedChanges(deps, userId, changes))]);
  const alert = wanted.length > 0 ? await deliverAlert(deps, { userId, domain, changes: wanted, auditId: audit.id }) : 'nothing';

  let completedEmail = false;
  const claimedAt = deps.clock.now().toISOString();
  if (profile.notifications.scanCompletions && (await deps.audits.markCompletionNotified(audit.id, claimedAt))) {
    const message = scanCompletedEmail({
      productName: deps.config.PRODUCT_NAME,
      domain,
      completedAt: audit.completedAt,
      grade: audit.grade ?? null,
      score: audit.score ?? null,
      issues: issueCounts(audit.checks.flatMap((check) => check.findings)),
      changeCount: changes.length,
      reportUrl: reportUrl(deps, audit.id),
      unsubscribeUrl: await unsubscribeUrl(deps, userId),
    });
    try {
      // Refused now, the outbox retries it (DECISIONS "Mail never fails a scan"): the rescan is done either way.
      completedEmail = (await notify(deps, { id: randomUUID(), kind: 'scan-completed', message: { channel: 'email', email: { to: profile.email, ...message } }, about: { auditId, userId } })) === 'sent';
    } catch (error) {
      // Not even stored (the table failing): the job fails and its retry stores it; alerts already sent stay claimed.
      deps.log.error('Could not store the scan completed email; the job will be retried', { auditId, error: String(error) });
      await deps.audits.releaseCompletionNotified(audit.id, claimedAt);
      throw error;
    }
  }
  return { changes, alert, scanCompletedEmail: completedEmail };
}

/** The owner's latest completed audit of the domain before this one (any origin: a lead's, a quick scan, a rescan). */
async function previousScan(deps: Pick<Deps, 'audits'>, current: Audit, userId: string): Promise<Audit | undefined> {
  const candidates = await deps.audits.completedScansOfSite(siteKey(current.host), { ownerId: userId, completedBefore: current.completedAt, limit: 3 });
  for (const candidate of candidates) {
    if (candidate.auditId === current.id) continue;
    const audit = await deps.audits.getAudit(candidate.auditId);
    // A paid audit re-completed since (its deep scan) may now be newer than the rescan: not a baseline.
    if (audit?.status === 'completed' && audit.completedAt && current.completedAt && audit.completedAt <= current.completedAt) return audit;
  }
  return undefined;
}

export type AlertOutcome = 'nothing' | 'duplicate' | 'sent' | 'deferred';

export interface AlertRequest {
  userId: string;
  domain: string;
  changes: readonly MonitoringChange[];
  /** The report the alert links to. */
  auditId: string;
}

/**
 * Alerts changes the user wants to hear about, each once: every change's dedupe key is claimed for
 * the user first and only changes claimed now go on. Then the domain's hourly limit: within it the
 * alert goes out now (with any changes that waited), beyond it the changes wait for the next alert,
 * which the scheduler sends once the hour is over (`sendWaitingAlerts`).
 */
export async function deliverAlert(deps: AlertDeps, request: AlertRequest): Promise<AlertOutcome> {
  const now = deps.clock.now().toISOString();
  const fresh: MonitoringChange[] = [];
  for (const change of request.changes) if (await deps.alerts.claimChange(request.userId, change.dedupeKey, now)) fresh.push(change);
  if (fresh.length === 0) return 'duplicate';
  const decision = await deps.rateLimits.consume(alertRateKey(request.userId, request.domain), ALERT_RATE_LIMIT.alerts, ALERT_RATE_LIMIT.windowSeconds);
  if (!decision.allowed) {
    await deps.alerts.defer({ ...request, changes: fresh }, now);
    deps.log.info('Alert limit reached for the domain; the changes wait for the next alert', { domain: request.domain, changes: fresh.length });
    return 'deferred';
  }
  const waiting = await deps.alerts.takeDeferred(request.userId, request.domain);
  return sendAlert(deps, { ...request, changes: [...(waiting?.changes ?? []), ...fresh] });
}

/** The scheduler's part of the hourly limit: each waiting alert goes out once its domain may send again. */
export async function sendWaitingAlerts(deps: AlertDeps): Promise<number> {
  let sent = 0;
  for (const { userId, domain } of await deps.alerts.listDeferred(100)) {
    const decision = await deps.rateLimits.consume(alertRateKey(userId, domain), ALERT_RATE_LIMIT.alerts, ALERT_RATE_LIMIT.windowSeconds);
    if (!decision.allowed) continue;
    const waiting = await deps.alerts.takeDeferred(userId, domain);
    if (waiting && (await sendAlert(deps, waiting)) === 'sent') sent += 1;
  }
  return sent;
}

const alertRateKey = (userId: string, domain: string) => `alerts:${userId}:${domain}`;

/**
 * Sends one alert: the email (HTML and text) and, with Monitor Plus and a validated mobile number,
 * the SMS, each through the notification outbox (refused now, retried by the sweeper); each message
 * is recorded for the alerts list once it has gone. Preferences are read again (changes may have
 * waited an hour). Then the alert destinations (Slack, Teams, webhooks: Monitor Plus), each with the
 * events it chose whatever the email preferences say.
 */
async function sendAlert(deps: AlertDeps, request: AlertRequest): Promise<AlertOutcome> {
  const profile = await deps.accounts.getProfile(request.userId);
  if (!profile) return 'nothing';
  // Changes that waited may have been muted since: the policies are read again too.
  const muted = await mutedFindingIdsOf(deps, request.userId, request.domain);
  const unmuted = uniqueChanges(withoutMutedFindings(request.changes, muted));
  const report = reportUrl(deps, request.auditId);
  const changes = alertableChanges(unmuted, profile.notifications);
  const toDestinations = () => queueDestinationAlerts(deps, { userId: request.userId, domain: request.domain, auditId: request.auditId, reportUrl: report, changes: unmuted });
  const toMembers = () => emailMembers(deps, request, unmuted, report);
  if (changes.length === 0) {
    const members = await toMembers();
    return (await toDestinations()) + members > 0 ? 'sent' : 'nothing';
  }
  const email = alertEmail({ productName: deps.config.PRODUCT_NAME, domain: request.domain, changes, reportUrl: report, unsubscribeUrl: await unsubscribeUrl(deps, request.userId) });
  const about = { auditId: request.auditId, userId: request.userId };
  await notify(deps, { id: randomUUID(), kind: 'alert', message: { channel: 'email', email: { to: profile.email, ...email } }, about, afterSent: { alert: alertRecord(deps, request, changes, 'email') } });
  if (await smsApplies(deps, profile)) {
    const sms = { to: profile.mobileNumber!, body: alertSms({ productName: deps.config.PRODUCT_NAME, domain: request.domain, changes, reportUrl: report }) };
    await notify(deps, { id: randomUUID(), kind: 'alert', message: { channel: 'sms', sms }, about, afterSent: { alert: alertRecord(deps, request, changes, 'sms') } });
  }
  await toMembers();
  await toDestinations();
  return 'sent';
}

/**
 * Teams: the organisation's members (admins and viewers) get the alert email too, each by their own
 * notification settings and with their own unsubscribe link; the owner's alerts list records the
 * alert once. IT providers follow their clients in the clients overview instead. Answers how many.
 */
async function emailMembers(deps: AlertDeps, request: AlertRequest, changes: readonly MonitoringChange[], report: string): Promise<number> {
  let sent = 0;
  for (const member of await deps.organisations.listMembers(request.userId)) {
    const profile = await deps.accounts.getProfile(member.memberId);
    if (!profile?.email) continue;
    const wanted = alertableChanges(changes, profile.notifications);
    if (wanted.length === 0) continue;
    const email = alertEmail({
      productName: deps.config.PRODUCT_NAME,
      domain: request.domain,
      changes: wanted,
      reportUrl: report,
      unsubscribeUrl: await unsubscribeUrl(deps, member.memberId),
      member: { orgName: member.orgName, role: member.role },
    });
    await notify(deps, { id: randomUUID(), kind: 'alert', message: { channel: 'email', email: { to: profile.email, ...email } }, about: { auditId: request.auditId, userId: member.memberId } });
    sent += 1;
  }
  return sent;
}

/** DECISIONS "Mobile numbers": a validated number only; SMS alerts come with Monitor Plus. */
async function smsApplies(deps: Pick<Deps, 'accounts' | 'config' | 'log' | 'metrics'>, profile: UserProfile): Promise<boolean> {
  if (!profile.mobileNumber) return false;
  if (monitoringPlanOf(await deps.accounts.getSubscription(profile.userId))?.smsAlerts !== true) return false;
  // SMS pumping: only the countries the product serves get texts (the email alert still goes).
  if (!smsCountryAllowed(profile.mobileNumber, deps.config.SMS_COUNTRIES)) {
    deps.log.warn('SMS alert not sent: the mobile number is outside SMS_COUNTRIES', {
      userId: profile.userId,
      country: countryOfMobile(profile.mobileNumber) ?? 'unknown',
      smsCountries: deps.config.SMS_COUNTRIES.join(','),
    });
    deps.metrics.smsRefused();
    return false;
  }
  return true;
}

/** The alert as the user's alerts list will show it once its message has gone (`sentAt`: when it was first tried). */
function alertRecord(deps: Pick<Deps, 'clock'>, request: AlertRequest, changes: readonly MonitoringChange[], channel: AlertChannel): AlertRecord {
  return {
    id: randomUUID(),
    userId: request.userId,
    domain: request.domain,
    sentAt: deps.clock.now().toISOString(),
    channel,
    summary: changeSummaryParts(changes).join(', '),
    changes: changes.map((change) => ({ type: change.type, title: changeTitle(change) })),
    auditId: request.auditId,
  };
}

function uniqueChanges(changes: readonly MonitoringChange[]): MonitoringChange[] {
  const seen = new Set<string>();
  return changes.filter((change) => !seen.has(change.dedupeKey) && Boolean(seen.add(change.dedupeKey)));
}

const siteUrl = (deps: Pick<Deps, 'config'>) => deps.config.SITE_URL.replace(/\/+$/, '');
const reportUrl = (deps: Pick<Deps, 'config'>, auditId: string) => `${siteUrl(deps)}/results/${encodeURIComponent(auditId)}`;

/** The signed link every monitoring email carries (`GET /api/alerts/unsubscribe?token=…`). */
export async function unsubscribeUrl(deps: Pick<Deps, 'signingKeys' | 'config'>, userId: string): Promise<string> {
  const token = signUnsubscribeToken(await deps.signingKeys.key('alerts-unsubscribe'), userId);
  return `${siteUrl(deps)}${routePath('unsubscribe-alerts')}?token=${encodeURIComponent(token)}`;
}

export interface KevCheckResult {
  domainsChecked: number;
  changes: number;
  alerts: number;
}

/**
 * Newly known-exploited CVEs without a rescan (issue 8): for each monitored domain, the technology
 * versions its owner's latest completed audit saw, matched against `kevCatalogue` (the updated
 * knowledge base), minus what that audit already knew to be exploited; alerted like a rescan's
 * changes (the dedupe key is the rescan's, so the next rescan does not alert them again).
 */
export async function checkKevUpdates(deps: MonitoringDeps, kevCatalogue: KevCatalogue): Promise<KevCheckResult> {
  const result: KevCheckResult = { domainsChecked: 0, changes: 0, alerts: 0 };
  for (const { userId, subscription } of await deps.monitoring.activeSubscriptions()) {
    const plan = monitoringPlanOf(subscription);
    const profile = plan ? await deps.accounts.getProfile(userId) : undefined;
    if (!plan || !profile) continue;
    for (const { domain } of monitoredDomains(await deps.domains.list(userId), plan.maxDomains)) {
      const [latest] = await deps.audits.completedScansOfSite(domain, { ownerId: userId, limit: 1 });
      const audit = latest ? await deps.audits.getAudit(latest.auditId) : undefined;
      if (!audit || audit.status !== 'completed') continue;
      result.domainsChecked += 1;
      const changes = kevMatchesWithoutRescan(monitoredTechnologies(audit), knownExploitedIds(audit), kevCatalogue);
      result.changes += changes.length;
      const wanted = uniqueChanges([...alertableChanges(changes, profile.notifications), ...(await destinationWantedChanges(deps, userId, changes))]);
      if (wanted.length > 0 && (await deliverAlert(deps, { userId, domain, changes: wanted, auditId: audit.id })) !== 'duplicate') result.alerts += 1;
    }
  }
  return result;
}

/** Runs `checkKevUpdates` once per knowledge base: the first call after `npm run build:vulndb` changed it. */
export async function checkKevUpdatesOnce(deps: MonitoringDeps, fingerprint: string, kevCatalogue: KevCatalogue): Promise<KevCheckResult | undefined> {
  if (!(await deps.monitoring.claimKnowledgeBaseCheck(fingerprint, deps.clock.now().toISOString()))) return undefined;
  const result = await checkKevUpdates(deps, kevCatalogue);
  deps.log.info('Knowledge base checked for newly exploited CVEs', { fingerprint: fingerprint.slice(0, 12), ...result });
  return result;
}

/** `GET /api/me/alerts`: the caller's sent alerts, newest first, at most 50 a page. */
export async function listAlerts(deps: Pick<Deps, 'alerts'>, caller: Caller, query: unknown): Promise<AlertsPage> {
  const { limit, cursor } = parseContract(alertsQuerySchema, query ?? {});
  const page = await deps.alerts.list(caller.userId, limit, cursor);
  return { alerts: page.alerts.map(({ userId: _user, ...alert }: AlertRecord) => alert), nextCursor: page.cursor ?? null };
}

export const INVALID_UNSUBSCRIBE_LINK = 'This unsubscribe link is not valid. Change your notifications in Settings → Notifications.';

/**
 * `GET /api/alerts/unsubscribe?token=…`: the signed link turns the monitoring emails off (alerts,
 * security updates and scan completions; SMS alerts follow the same preferences). Repeating it is
 * harmless; a deleted account has nothing left to turn off.
 */
export async function unsubscribeAlerts(deps: Pick<Deps, 'signingKeys' | 'accounts'>, token: unknown): Promise<void> {
  const userId = verifyUnsubscribeToken(await deps.signingKeys.key('alerts-unsubscribe'), token);
  if (!userId) throw new ValidationError(INVALID_UNSUBSCRIBE_LINK, { token: INVALID_UNSUBSCRIBE_LINK });
  const profile = await deps.accounts.getProfile(userId);
  if (!profile) return;
  await deps.accounts.updateNotifications(userId, { ...profile.notifications, emailAlerts: false, securityUpdates: false, scanCompletions: false });
}
