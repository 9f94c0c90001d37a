import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../composition.js';
import { productSlug } from '../config.js';
import { type Audit, auditIdSchema } from '../domain/audit.js';
import { type AuditResultView, auditForDisplay, buildAuditView } from '../domain/audit-view.js';
import { scannerProduct } from '../domain/site-access-view.js';
import { parseContract } from '../domain/contract.js';
import { ConflictError, DomainError, ForbiddenError, GoneError, NotFoundError } from '../domain/errors.js';
import {
  INVALID_SHARE_LINK_MESSAGE,
  reportEmailSchema,
  reportPaths,
  SHARE_LIFETIME_SECONDS,
  type SharedAuditResponse,
  shareTokenSchema,
} from '../domain/report.contract.js';
import type { SharePurpose, ShareRecord } from '../domain/ports.js';
import { auditReportEmail } from '../domain/report-email.js';
import { isSampleAuditId, SAMPLE_BUSINESS_NAME, sampleAudit } from '../domain/sample-report.js';
import { auditGrants } from '../domain/plans.js';
import { essentialEightOfAudit } from './essential-eight.js';
import { enforceLimits, mailCeiling } from './rate-limits.js';
import { colourChannels, logoBytes } from '../domain/it-providers.js';
import { brandingOfClient } from './it-providers.js';

/** Who is reading. `userId` is a verified user id (Cognito sub), never a claim the caller made up. */
export interface AuditViewer {
  userId?: string;
}

export interface LoadedReport {
  audit: Audit;
  view: AuditResultView;
}

/** How long a presigned PDF link works: long enough to follow the redirect, short enough not to be shared. */
export const PDF_URL_SECONDS = 300;
/** Bump when the sample or the PDF layout changes, so a stale sample PDF is not served. */
const SAMPLE_PDF_KEY = 'reports/sample-v1.pdf';

const auditNotFound = () => new NotFoundError('audit_not_found', 'Audit not found');
const shareNotFound = () => new NotFoundError('share_not_found', 'Shared audit not found or expired');

/**
 * The report for an audit id: the stored audit, or the sample for `demo_…`/`audit_…` ids (SPEC §7).
 * The business name is public; the owner's contact block is added only when the verified reader
 * owns the audit (DECISIONS "Public audit view").
 */
export async function loadReport(deps: Pick<Deps, 'audits' | 'config'>, rawId: unknown, viewer: AuditViewer = {}): Promise<LoadedReport> {
  const id = typeof rawId === 'string' ? rawId : '';
  // A blocked report's "let the scanner in" steps name this deployment's scanner.
  const scanner = scannerProduct(deps.config.PRODUCT_NAME, deps.config.SITE_URL);
  if (isSampleAuditId(id)) {
    const audit = sampleAudit(id);
    return { audit, view: buildAuditView(audit, { businessName: SAMPLE_BUSINESS_NAME, sample: true, scanner }) };
  }
  // A malformed id cannot name an audit: answer as for an unknown one, without a lookup.
  if (!auditIdSchema.safeParse(id).success) throw auditNotFound();
  const audit = await deps.audits.getAudit(id);
  if (!audit) throw auditNotFound();
  const isOwner = viewer.userId !== undefined && audit.ownerId !== undefined && viewer.userId === audit.ownerId;
  // The lead is read only for its owner's contact block (or for audits stored before the audit
  // carried the business name): a public read is one query.
  const lead = audit.leadId && (isOwner || audit.businessName === undefined) ? await deps.audits.getLead(audit.leadId) : undefined;
  const owner = isOwner && lead ? { firstName: lead.firstName, lastName: lead.lastName, businessName: lead.businessName, webUrl: lead.webUrl, email: lead.email } : undefined;
  return { audit, view: buildAuditView(audit, { businessName: audit.businessName ?? lead?.businessName, owner, scanner }) };
}

/** `GET /api/audits/{id}`: the audit as the results page reads it, and the spec's record with the full report. */
export async function getAuditReport(deps: Pick<Deps, 'audits' | 'config'>, rawId: unknown, viewer: AuditViewer = {}) {
  const { audit, view } = await loadReport(deps, rawId, viewer);
  return { audit: auditForDisplay(audit), result: view };
}

function requireCompleted(audit: Audit, what: string): void {
  if (audit.status !== 'completed') {
    throw new ConflictError('audit_not_completed', `The security report is not ready yet: ${what} once the scan has completed.`);
  }
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * `POST /api/audits/{id}/shares`: a 24-hour link with a maximum number of uses (DECISIONS "Sharing").
 * Anyone may make one to view the report; only a link the audit's signed-in owner made (`creator.userId`
 * is the owner's verified id) may also email it (issue 18: "No endpoint lets a stranger make us send mail").
 */
export async function createShare(deps: Pick<Deps, 'audits' | 'shares' | 'rateLimits' | 'clock' | 'config'>, rawId: unknown, creator: AuditViewer = {}) {
  const { audit } = await loadReport(deps, rawId);
  requireCompleted(audit, 'share it');
  await enforceLimits(deps.rateLimits, [{ scope: 'share:audit', subject: audit.id, perHour: deps.config.RATE_LIMIT_SHARES_PER_AUDIT }], 'share links for this report');
  const token = randomBytes(16).toString('base64url');
  const now = deps.clock.now();
  const createdAt = now.toISOString();
  // Whole seconds: the expiry is also the item's TTL (epoch seconds).
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + SHARE_LIFETIME_SECONDS) * 1000).toISOString();
  const maxUses = deps.config.SHARE_MAX_USES;
  const emailable = creator.userId !== undefined && audit.ownerId !== undefined && creator.userId === audit.ownerId;
  await deps.shares.create({ tokenHash: hashToken(token), auditId: audit.id, createdAt, expiresAt, maxUses, uses: 0, emailable });
  const url = `${deps.config.SITE_URL.replace(/\/+$/, '')}/share/${token}`;
  return { shareToken: token, url, expiresAt, maxUses };
}

/**
 * Counts one use of a live share link and answers it, or says why the link cannot be used. For
 * `email`, a link the audit's owner did not make is refused before any use is counted (the adapter
 * checks it in the same conditional write).
 */
async function takeShareUse(deps: Pick<Deps, 'shares'>, rawToken: unknown, purpose: SharePurpose = 'open'): Promise<ShareRecord> {
  const token = shareTokenSchema.safeParse(rawToken);
  if (!token.success) throw new DomainError('invalid_share_link', INVALID_SHARE_LINK_MESSAGE);
  const used = await deps.shares.use(hashToken(token.data), purpose);
  switch (used.outcome) {
    case 'not_found':
      throw shareNotFound();
    case 'expired':
      throw new GoneError('share_expired', 'Shared audit not found or expired');
    case 'exhausted':
      throw new GoneError('share_exhausted', 'This share link has reached its maximum number of uses.');
    case 'not_emailable':
      throw new ForbiddenError('report_email_forbidden', SHARE_LINK_NOT_EMAILABLE_MESSAGE);
  }
  return used.share;
}

/** `GET /api/shared-audits/{token}`: the public report behind a live link; each read counts one use. */
export async function openShare(deps: Pick<Deps, 'audits' | 'shares' | 'config'>, rawToken: unknown): Promise<Omit<SharedAuditResponse, 'success'>> {
  const share = await takeShareUse(deps, rawToken);
  let view: AuditResultView;
  try {
    ({ view } = await loadReport(deps, share.auditId));
  } catch (error) {
    // The audit was deleted (or has expired) since the link was made.
    if (error instanceof NotFoundError) throw shareNotFound();
    throw error;
  }
  // The audit's id opens the report, its PDF and new links with no expiry or use limit: the link
  // must be the only key it hands out (issue 28 finding 11).
  const { id: _auditId, superseded_by: _next, supersedes: _previous, ...audit } = view;
  return {
    audit,
    expiresAt: share.expiresAt,
    remainingUses: Math.max(0, share.maxUses - share.uses),
    // Only a link the owner made may email, and a sample is never emailed.
    canEmail: share.emailable === true && !view.sample,
    message: `Shared security report for ${view.host}`,
  };
}

/**
 * `GET /api/audits/{id}/report.pdf`: rendered once per audit, stored in the reports bucket and
 * handed out as a short-lived presigned URL.
 */
export async function pdfReportUrl(deps: Pick<Deps, 'audits' | 'agents' | 'reports' | 'config' | 'clock' | 'organisations'>, rawId: unknown): Promise<string> {
  const { audit, view } = await loadReport(deps, rawId);
  requireCompleted(audit, 'download the PDF');
  // A paid audit's deep scan replaces the free report, and a Pro Audit's free re-scan (or a later Pro
  // purchase, which adds the remediation plan) replaces that: each is a new object, never a stale one.
  const deepKey = () => `reports/${audit.id}-deep-${audit.planType ?? 'basic'}-${Date.parse(audit.completedAt ?? audit.createdAt)}.pdf`;
  // Each passive completion is a new object (a report from before issue 29 item 6 may have been unlocked under its own id).
  const standardKey = () =>
    view.scan_mode === 'passive' ? `reports/${audit.id}-passive-${Date.parse(audit.completedAt ?? audit.createdAt)}.pdf` : `reports/${audit.id}.pdf`;
  // IT providers: a client's report carries its provider's branding; the key names the branding's version, so a change renders anew.
  const branding = view.sample ? undefined : await brandingOfClient(deps, audit.ownerId);
  const unbranded = view.sample ? SAMPLE_PDF_KEY : audit.depth === 'deep' ? deepKey() : standardKey();
  const key = branding ? unbranded.replace(/\.pdf$/, `-brand-${branding.version}.pdf`) : unbranded;
  if (!(await deps.reports.exists(key))) {
    const siteUrl = deps.config.SITE_URL.replace(/\/+$/, '');
    // pdf-lib (about 400 kB) is loaded only by the request that renders a PDF.
    const [{ renderPdfReport }, { drawEssentialEightSection }] = await Promise.all([import('../reports/pdf-report.js'), import('../reports/essential-eight-pdf.js')]);
    // The Pro Audit's Essential Eight readiness section (issue 21), as of this audit and the owner's agents now.
    const essentialEight = !view.sample && auditGrants(audit).essentialEight ? await essentialEightOfAudit(deps, audit) : undefined;
    const bytes = await renderPdfReport(view, {
      productName: branding?.name ?? deps.config.PRODUCT_NAME,
      ...(branding ? { branding: { colour: colourChannels(branding.colour), ...(branding.logo ? { logoPng: logoBytes(branding.logo) } : {}) } } : {}),
      reportUrl: view.sample ? undefined : `${siteUrl}${reportPaths.results(audit.id)}`,
      ...(essentialEight ? { sections: [(w) => drawEssentialEightSection(w, essentialEight)] } : {}),
    });
    const date = (audit.completedAt ?? audit.createdAt).slice(0, 10);
    // Named after whoever the report is from: the client's IT provider when it brands it (its name may slug to nothing: then the product's).
    const from = (branding && productSlug(branding.name)) || productSlug(deps.config.PRODUCT_NAME);
    const fileName = `${from}-security-report-${audit.host.replace(/[^A-Za-z0-9.-]/g, '-')}-${date}.pdf`;
    await deps.reports.put(key, bytes, 'application/pdf', { contentDisposition: `inline; filename="${fileName}"` });
  }
  return deps.reports.signedUrl(key, PDF_URL_SECONDS);
}

/** Who asks for a report email: the verified user id (when a valid token came) and the source address. */
export interface ReportEmailCaller {
  userId?: string;
  sourceIp: string;
}

export const SAMPLE_NOT_EMAILED_MESSAGE = 'Sample reports are not emailed. Run a free scan of your own website to get a report you can send.';
export const REPORT_EMAIL_FORBIDDEN_MESSAGE =
  'Only the owner of this report (signed in) or someone with a share link to it can email it. Sign in with the account that ran the scan, or ask its owner for a share link.';
export const SHARE_LINK_NOT_EMAILABLE_MESSAGE =
  "This share link was not made by the report's owner, so it cannot be used to email the report. Ask the owner to share it from their signed-in account.";

/**
 * `POST /api/audits/{id}/email`: the summary and links by email. Only the audit's signed-in owner, or
 * a holder of a live share link to it (`shareToken`), may send it; a sample report is never sent.
 * Limited per source address (refusals included, so that trying costs attempts), then per audit and
 * per recipient (counted only for allowed callers, so that nobody can use up an owner's quota).
 * Emailing through a share link counts one use of the link, as opening it does: the email hands the
 * report to one more reader, and a leaked link can make Rampart send at most its remaining uses.
 * Only a link the owner made while signed in may email (anyone may make a link to view the report):
 * any other link is refused with 403 and no use counted.
 */
export async function emailReport(deps: Pick<Deps, 'audits' | 'shares' | 'mailer' | 'rateLimits' | 'config' | 'organisations' | 'metrics'>, rawId: unknown, input: unknown, caller: ReportEmailCaller) {
  // A body that is not an object (an array, a string) carries no address: say so for the field.
  const { email, shareToken } = parseContract(reportEmailSchema, typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {});
  if (typeof rawId === 'string' && isSampleAuditId(rawId)) throw new ForbiddenError('sample_not_emailed', SAMPLE_NOT_EMAILED_MESSAGE);
  await enforceLimits(deps.rateLimits, [{ scope: 'report-email:ip', subject: caller.sourceIp, perHour: deps.config.RATE_LIMIT_REPORT_EMAILS_PER_IP }], 'report emails');
  const { audit, view } = await loadReport(deps, rawId);
  const isOwner = caller.userId !== undefined && audit.ownerId !== undefined && caller.userId === audit.ownerId;
  if (!isOwner) {
    if (shareToken === undefined) throw new ForbiddenError('report_email_forbidden', REPORT_EMAIL_FORBIDDEN_MESSAGE);
    const share = await takeShareUse(deps, shareToken, 'email');
    if (share.auditId !== audit.id) throw new ForbiddenError('report_email_forbidden', REPORT_EMAIL_FORBIDDEN_MESSAGE);
  }
  return sendReportEmail(deps, { audit, view }, email);
}

/**
 * `POST /api/shared-audits/{token}/email`: the shared page's 'Email Report', by the link's token alone
 * (issue 28 finding 11: the shared page no longer knows the audit's id). As `emailReport` with a
 * `shareToken`: one use of the link, only a link the owner made signed in; the mail links to the
 * shared page, never to the audit's id, so the link stays the only key.
 */
export async function emailSharedReport(
  deps: Pick<Deps, 'audits' | 'shares' | 'mailer' | 'rateLimits' | 'config' | 'organisations' | 'metrics'>,
  rawToken: unknown,
  input: unknown,
  caller: Pick<ReportEmailCaller, 'sourceIp'>,
) {
  const { email } = parseContract(reportEmailSchema, typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {});
  await enforceLimits(deps.rateLimits, [{ scope: 'report-email:ip', subject: caller.sourceIp, perHour: deps.config.RATE_LIMIT_REPORT_EMAILS_PER_IP }], 'report emails');
  const share = await takeShareUse(deps, rawToken, 'email');
  let report: LoadedReport;
  try {
    report = await loadReport(deps, share.auditId);
  } catch (error) {
    if (error instanceof NotFoundError) throw shareNotFound();
    throw error;
  }
  if (report.view.sample) throw new ForbiddenError('sample_not_emailed', SAMPLE_NOT_EMAILED_MESSAGE);
  return sendReportEmail(deps, report, email, reportPaths.shared(shareToken(rawToken)));
}

const shareToken = (rawToken: unknown) => (typeof rawToken === 'string' ? rawToken : '');

/** The report email once the caller may send it: limits per audit and recipient, then the mail. `sharedPath`: link to the shared page instead of the audit. */
async function sendReportEmail(
  deps: Pick<Deps, 'rateLimits' | 'config' | 'mailer' | 'organisations' | 'metrics' | 'audits'>,
  { audit, view }: LoadedReport,
  email: string,
  sharedPath?: string,
) {
  requireCompleted(audit, 'email it');
  await enforceLimits(
    deps.rateLimits,
    [
      { scope: 'report-email:audit', subject: audit.id, perHour: deps.config.RATE_LIMIT_REPORT_EMAILS_PER_AUDIT },
      { scope: 'report-email:to', subject: email, perHour: deps.config.RATE_LIMIT_REPORT_EMAILS_PER_RECIPIENT },
      mailCeiling(deps),
    ],
    'report emails',
  );
  // IT providers: a client's report email carries its provider's name.
  const branding = view.sample ? undefined : await brandingOfClient(deps, audit.ownerId);
  const brand = { productName: branding?.name ?? deps.config.PRODUCT_NAME, siteUrl: deps.config.SITE_URL };
  await deps.mailer.send(auditReportEmail(brand, { to: email, view, ...(sharedPath ? { sharedPath } : {}) }));
  return { sent: true, email, message: `The report was sent to ${email}.` };
}
