import { essentialEightOfDomain } from './essential-eight.js';
import { canManagePolicies, isPolicyExpired } from '../domain/security-policy.js';
import type { Deps } from '../composition.js';
import type { Caller } from './account.js';
import type { Audit } from '../domain/audit.js';
import { NotFoundError } from '../domain/errors.js';
import { monitoredDomains } from '../domain/monitoring.js';
import {
  buildDomainMonthReport,
  buildMonthlyReport,
  type DomainMonthReport,
  MONTHLY_REPORTS,
  monthBounds,
  monthlyReportEmail,
  monthlyReportFileName,
  monthlyReportPlanOf,
  owesMonthlyReport,
  type MonthlyReport,
  type MonthlyReportPlan,
  previousMonth,
  type ReadyMonthlyReport,
} from '../domain/monthly-report.js';
import { monthLabel, monthlyReportFileSchema, type MonthlyReportsPage, type MonthlyReportView } from '../domain/monthly-report.contract.js';
import type { AlertRecord } from '../domain/ports.js';
import { routePath } from '../routes.js';
import { myBadges } from './badges.js';
import { unsubscribeUrl } from './monitoring.js';
import { budgetExhausted, type RunBudget, UNLIMITED_BUDGET } from './monitoring-due.js';
import { colourChannels, logoBytes } from '../domain/it-providers.js';
import { brandingOfClient } from './it-providers.js';

/**
 * The monthly report (DECISIONS "Plan features"; what it holds and who gets it: lambdas/domain/
 * monthly-report.ts): built by the monitoring scheduler for the month that has just ended, once per
 * user and month, stored in the reports bucket, emailed with the PDF attached while the user's
 * 'Email alerts' preference is on; listed and downloaded from the dashboard.
 */

export type MonthlyReportDeps = Pick<
  Deps,
  'monitoring' | 'monthlyReports' | 'accounts' | 'domains' | 'audits' | 'alerts' | 'reports' | 'mailer' | 'signingKeys' | 'clock' | 'config' | 'log' | 'policies' | 'issueHistory' | 'agents' | 'organisations'
>;

export interface MonthlyReportsRun {
  month: string;
  /** Reports built and stored by this run. */
  built: number;
  /** Of those, emailed. */
  emailed: number;
  /** Reports that failed (their claim was given back: a later run tries again). */
  failed: number;
}

const pdfKey = (userId: string, month: string) => `monthly-reports/${userId}/${month}.pdf`;
const siteUrl = (deps: Pick<Deps, 'config'>) => deps.config.SITE_URL.replace(/\/+$/, '');
const reportsPageUrl = (deps: Pick<Deps, 'config'>) => `${siteUrl(deps)}/dashboard/subscription`;

/**
 * The scheduler's part: for every active Monitor Lite or Plus subscription, the report of the month
 * before `now` unless it exists. Each is claimed first (a conditional write), so overlapping runs
 * never build or send one twice; a failure gives the claim back and the next run tries again. At
 * most MONTHLY_REPORTS.maxPerRun are built per run, and none is started once the run's budget is
 * near its end (the monthly reports have their own schedule: lib/schedule).
 */
export async function sendMonthlyReports(deps: MonthlyReportDeps, now: Date = deps.clock.now(), budget: RunBudget = UNLIMITED_BUDGET): Promise<MonthlyReportsRun> {
  const month = previousMonth(now);
  const run: MonthlyReportsRun = { month, built: 0, emailed: 0, failed: 0 };
  for (const { userId, subscription } of await deps.monitoring.activeSubscriptions()) {
    const plan = monthlyReportPlanOf(subscription);
    if (!plan) continue;
    if (run.built + run.failed >= MONTHLY_REPORTS.maxPerRun || budgetExhausted(budget)) {
      deps.log.info('Monthly reports: limit or deadline of the run reached; the rest are built by the next runs', { month, built: run.built });
      break;
    }
    if (await deps.monthlyReports.getReady(userId, month)) continue;
    const profile = await deps.accounts.getProfile(userId);
    if (!profile || !owesMonthlyReport(profile, month)) continue;
    const claimedAt = now.toISOString();
    const staleBefore = new Date(now.getTime() - MONTHLY_REPORTS.claimStaleAfterMs).toISOString();
    if (!(await deps.monthlyReports.claim(userId, month, claimedAt, staleBefore))) continue;
    let sent = false;
    try {
      const report = await monthlyReportOf(deps, { userId, month, plan, now, recipient: { name: `${profile.firstName} ${profile.lastName}`.trim(), email: profile.email, company: profile.company } });
      const fileName = monthlyReportFileName(deps.config.PRODUCT_NAME, month);
      // pdf-lib (about 400 kB) is loaded only when a report is rendered.
      const { renderMonthlyReportPdf } = await import('../reports/monthly-report-pdf.js');
      // IT providers: a client's report carries its provider's name, colour and logo (built once, at the month's end).
      const branding = await brandingOfClient(deps, userId);
      const productName = branding?.name ?? deps.config.PRODUCT_NAME;
      const bytes = await renderMonthlyReportPdf(report, {
        productName,
        reportsUrl: reportsPageUrl(deps),
        ...(branding ? { branding: { colour: colourChannels(branding.colour), ...(branding.logo ? { logoPng: logoBytes(branding.logo) } : {}) } } : {}),
      });
      await deps.reports.put(pdfKey(userId, month), bytes, 'application/pdf', { contentDisposition: `attachment; filename="${fileName}"` });
      const emailed = profile.notifications.emailAlerts;
      if (emailed) {
        const message = monthlyReportEmail({
          productName: deps.config.PRODUCT_NAME,
          ...(branding ? { preparedBy: branding.name } : {}),
          reportsUrl: reportsPageUrl(deps),
          unsubscribeUrl: await unsubscribeUrl(deps, userId),
          firstName: profile.firstName || undefined,
          fileName,
          report,
        });
        await deps.mailer.send({ to: profile.email, ...message, attachments: [{ fileName, contentType: 'application/pdf', content: bytes }] });
        sent = true;
      }
      const ready = { userId, month, claimedAt, generatedAt: report.generatedAt, emailed, pdfKey: pdfKey(userId, month), sizeBytes: bytes.byteLength, domains: report.domains.map((d) => d.domain) };
      // Once the email is out, recording it must not fail for a passing fault: a second try first.
      await deps.monthlyReports.complete(ready).catch(() => deps.monthlyReports.complete(ready));
      run.built += 1;
      if (emailed) run.emailed += 1;
    } catch (error) {
      run.failed += 1;
      if (sent) {
        // Giving the claim back would send the email again at once: the claim stays, and only a run an hour later may take it.
        deps.log.error('Monthly report emailed but not recorded as ready', { month, error: String(error) });
      } else {
        deps.log.error('Monthly report failed; the next run tries again', { month, error: String(error) });
        await deps.monthlyReports.release(userId, month, claimedAt).catch(() => undefined);
      }
    }
  }
  if (run.built + run.failed > 0) deps.log.info('Monthly reports', { ...run });
  return run;
}

/** The owner's alerts sent within [from, to): pages of the newest-first list until one is older than `from`. */
async function alertsBetween(deps: Pick<Deps, 'alerts'>, userId: string, from: string, to: string): Promise<AlertRecord[]> {
  const found: AlertRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.alerts.list(userId, 50, cursor);
    for (const alert of page.alerts) if (alert.sentAt >= from && alert.sentAt < to) found.push(alert);
    if (page.alerts.some((alert) => alert.sentAt < from)) break;
    cursor = page.cursor;
  } while (cursor);
  return found;
}

async function loadCompleted(deps: Pick<Deps, 'audits'>, auditIds: readonly string[]): Promise<Audit[]> {
  const audits = await Promise.all(auditIds.map((id) => deps.audits.getAudit(id)));
  return audits.filter((audit): audit is Audit => audit?.status === 'completed');
}

interface ReportRequest {
  userId: string;
  month: string;
  plan: MonthlyReportPlan;
  now: Date;
  recipient: MonthlyReport['recipient'];
}

/** Reads what the month's report needs (the owner's own scans of each monitored domain, alerts, badges) and builds it. */
export async function monthlyReportOf(deps: MonthlyReportDeps, request: ReportRequest): Promise<MonthlyReport> {
  const { userId, month, now } = request;
  const { start, end } = monthBounds(month);
  const [from, to] = [start.toISOString(), end.toISOString()];
  const domains = monitoredDomains(await deps.domains.list(userId), request.plan.maxDomains);
  const [alerts, { badges }, policies] = await Promise.all([alertsBetween(deps, userId, from, to), myBadges(deps, userId), policiesInForce(deps, userId, now)]);
  const reports: DomainMonthReport[] = [];
  for (const { domain } of domains) {
    const [upToEnd, [latest], issueHistory] = await Promise.all([
      deps.audits.completedScansOfSite(domain, { ownerId: userId, completedBefore: to, limit: MONTHLY_REPORTS.maxScansPerDomain }),
      deps.audits.completedScansOfSite(domain, { ownerId: userId, limit: 1 }),
      deps.issueHistory.get(userId, domain),
    ]);
    const inMonth = upToEnd.filter((scan) => scan.completedAt >= from);
    const before = upToEnd.find((scan) => scan.completedAt < from);
    const [scans, [baseline], [latestAudit]] = await Promise.all([
      loadCompleted(deps, inMonth.map((scan) => scan.auditId)),
      loadCompleted(deps, before ? [before.auditId] : []),
      loadCompleted(deps, latest ? [latest.auditId] : []),
    ]);
    const badge = badges.find((b) => b.domain === domain);
    const essentialEight = await essentialEightOfDomain(deps, userId, domain, latestAudit);
    reports.push(
      buildDomainMonthReport({
        domain, month, baseline, scans, latest: latestAudit, alerts, badge, policies: policies.filter((p) => p.domain === domain), issueHistory, essentialEight, now,
      }),
    );
  }
  return buildMonthlyReport({ month, generatedAt: now.toISOString(), recipient: request.recipient, planName: request.plan.planName, domains: reports });
}

/** The owner's accepted and muted findings, marked in the report (none without the plan, none expired). */
async function policiesInForce(deps: Pick<MonthlyReportDeps, 'policies' | 'accounts'>, userId: string, now: Date) {
  const [policies, subscription] = await Promise.all([deps.policies.list(userId), deps.accounts.getSubscription(userId)]);
  return canManagePolicies(subscription) ? policies.filter((policy) => !isPolicyExpired(policy, now)) : [];
}

function reportView(report: ReadyMonthlyReport): MonthlyReportView {
  return {
    month: report.month,
    label: monthLabel(report.month),
    generatedAt: report.generatedAt,
    emailed: report.emailed,
    domains: report.domains,
    sizeBytes: report.sizeBytes,
    pdfPath: routePath('get-monthly-report-pdf', { reportFile: `${report.month}.pdf` }),
  };
}

/** `GET /api/me/reports/monthly`: the caller's ready reports, newest month first. */
export async function listMonthlyReports(deps: Pick<Deps, 'monthlyReports'>, caller: Caller): Promise<MonthlyReportsPage> {
  return { reports: (await deps.monthlyReports.listReady(caller.userId)).map(reportView) };
}

const reportNotFound = () => new NotFoundError('monthly_report_not_found', 'There is no monthly report for that month.');

/** `GET /api/me/reports/monthly/{yyyy-mm}.pdf`: the caller's own stored PDF, exactly as it was emailed. */
export async function monthlyReportPdf(deps: Pick<Deps, 'monthlyReports' | 'reports' | 'config'>, caller: Caller, rawFile: string | undefined): Promise<{ bytes: Uint8Array; fileName: string }> {
  // Already URL-decoded by the platform: decoding again threw on a '%' (a 500).
  const parsed = monthlyReportFileSchema.safeParse(rawFile ?? '');
  if (!parsed.success) throw reportNotFound();
  const report = await deps.monthlyReports.getReady(caller.userId, parsed.data);
  const bytes = report ? await deps.reports.get(report.pdfKey) : undefined;
  if (!report || !bytes) throw reportNotFound();
  return { bytes, fileName: monthlyReportFileName(deps.config.PRODUCT_NAME, report.month) };
}
