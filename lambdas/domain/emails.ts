import type { Grade, GradeCap, ScanMode, Severity } from './audit.js';
import { gradeCapHeading } from './grade-caps.js';
import type { EmailMessage } from './ports.js';

/**
 * Every email the lead journey sends, in one place: plain text (what every client shows) plus a
 * simple HTML version. The product name and site address come from configuration.
 */
export interface EmailBrand {
  productName: string;
  /** The site's public address, e.g. https://rampart.example (no trailing slash needed). */
  siteUrl: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function siteLink(brand: EmailBrand, path: string): string {
  return `${brand.siteUrl.replace(/\/+$/, '')}${path}`;
}

const greeting = (firstName: string | undefined) => (firstName ? `Hi ${firstName},` : 'Hi,');

function html(brand: Pick<EmailBrand, 'productName'>, paragraphs: string[]): string {
  return [
    '<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    ...paragraphs.map((p) => `<p>${p}</p>`),
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(brand.productName)}</p>`,
    '</body></html>',
  ].join('\n');
}

/**
 * The code for a free scan. Anyone may ask for it for any address, so it carries nothing the asker
 * typed (issue 28 finding 9): no first name (a "name" can read as an instruction), and the site is the
 * host parsed from the URL. `firstName` is accepted and not shown.
 */
export function verificationCodeEmail(
  brand: EmailBrand,
  input: { to: string; firstName?: string; code: string; site: string; validMinutes: number },
): EmailMessage {
  const subject = `Your ${brand.productName} verification code`;
  const text = [
    greeting(undefined),
    '',
    `Your verification code for scanning ${input.site} is: ${input.code}`,
    '',
    `It is valid for ${input.validMinutes} minutes. Enter it in the verification window to start your free security report.`,
    '',
    `If you did not ask for a ${brand.productName} security report, you can ignore this email: nothing will be scanned.`,
    '',
    `— ${brand.productName}`,
  ].join('\n');
  const body = html(brand, [
    escapeHtml(greeting(undefined)),
    `Your verification code for scanning <strong>${escapeHtml(input.site)}</strong> is:`,
    `<span style="font-size:28px;font-weight:bold;letter-spacing:6px">${escapeHtml(input.code)}</span>`,
    `It is valid for ${input.validMinutes} minutes. Enter it in the verification window to start your free security report.`,
    `If you did not ask for a ${escapeHtml(brand.productName)} security report, you can ignore this email: nothing will be scanned.`,
  ]);
  return { to: input.to, subject, text, html: body };
}

export function accountCreatedEmail(
  brand: EmailBrand,
  input: { to: string; firstName?: string; setPasswordUrl: string; validHours: number },
): EmailMessage {
  const loginUrl = siteLink(brand, '/auth/login');
  const subject = `Your ${brand.productName} account: choose your password`;
  const validFor = `This link works once, for ${input.validHours} hours. After that, use "Forgot password" at ${loginUrl}`;
  const text = [
    greeting(input.firstName),
    '',
    `We keep your security reports in a ${brand.productName} account for you, under ${input.to}.`,
    '',
    `Choose your password: ${input.setPasswordUrl}`,
    '',
    `${validFor}.`,
    '',
    `Did not ask for a report? Ignore this email: nobody can sign in without choosing a password through this link or "Forgot password".`,
    '',
    `— ${brand.productName}`,
  ].join('\n');
  const body = html(brand, [
    escapeHtml(greeting(input.firstName)),
    `We keep your security reports in a ${escapeHtml(brand.productName)} account for you, under ${escapeHtml(input.to)}.`,
    `<a href="${escapeHtml(input.setPasswordUrl)}">Choose your password</a>`,
    `${escapeHtml(validFor)}.`,
    'Did not ask for a report? Ignore this email: nobody can sign in without choosing a password through this link or &quot;Forgot password&quot;.',
  ]);
  return { to: input.to, subject, text, html: body };
}

/** Issues by severity (info findings are observations and are not counted: DECISIONS "Issues vs observations"). */
export type IssueCounts = Record<Exclude<Severity, 'info'>, number>;

export function auditCompletedEmail(
  brand: EmailBrand,
  input: {
    to: string;
    firstName?: string;
    host: string;
    auditId: string;
    grade: Grade;
    score: number;
    issues: IssueCounts;
    /**
     * Issue 29 item 7: the same issues by what to do (Fix now, this month, good practice), as the
     * report groups them, one line each (`findingGroupLines`; passed in, so this module stays small:
     * every API function's cold start loads it).
     */
    groupLines?: readonly string[];
    /** DECISIONS "Scan modes": the mode that ran, and how many checks (or parts) were not checked. */
    coverage: { mode: ScanMode; partial: boolean; notChecked: number };
    /** DECISIONS "Grade caps": the caps that held the grade down. */
    caps?: readonly GradeCap[];
    /** DECISIONS "Blocked is a result": the report's first sentence when the site kept the scanner out. */
    blocked?: string | null;
  },
): EmailMessage {
  const reportUrl = siteLink(brand, `/results/${encodeURIComponent(input.auditId)}`);
  const { critical, high, medium, low } = input.issues;
  const total = critical + high + medium + low;
  const counts = `Critical: ${critical}, High: ${high}, Medium: ${medium}, Low: ${low}`;
  const partial = input.coverage.partial ? ' (partial)' : '';
  const subject = `Your ${brand.productName} security report for ${input.host}: grade ${input.grade}${partial}`;
  const modeLine = scanModeLine(input.coverage);
  const capLines = (input.caps ?? []).map((cap) => `${gradeCapHeading(cap)}: ${cap.reason}`);
  const blocked = input.blocked ? `${input.blocked} The report shows how to let the scanner in; then run the scan again.` : null;
  const groupLines = input.groupLines ?? [];
  const text = [
    greeting(input.firstName),
    '',
    `Your security report for ${input.host} is ready.`,
    ...(blocked ? ['', blocked] : []),
    '',
    `Grade: ${input.grade}${partial}`,
    `Score: ${input.score}/100`,
    ...capLines,
    `Issues found: ${total} (${counts})`,
    ...groupLines.map((line) => `- ${line}`),
    modeLine,
    '',
    `View the full report: ${reportUrl}`,
    '',
    `— ${brand.productName}`,
  ].join('\n');
  const body = html(brand, [
    escapeHtml(greeting(input.firstName)),
    `Your security report for <strong>${escapeHtml(input.host)}</strong> is ready.`,
    ...(blocked ? [`<strong>${escapeHtml(blocked)}</strong>`] : []),
    `Grade: <strong>${escapeHtml(input.grade)}${partial}</strong><br>Score: <strong>${input.score}/100</strong><br>${capLines.map((line) => `${escapeHtml(line)}<br>`).join('')}Issues found: ${total} (${escapeHtml(counts)})${groupLines.map((line) => `<br>${escapeHtml(line)}`).join('')}`,
    escapeHtml(modeLine),
    `<a href="${escapeHtml(reportUrl)}">View the full report</a>`,
  ]);
  return { to: input.to, subject, text, html: body };
}

/** What the report email says about the scan's mode (DECISIONS "Scan modes"): partial reports say what they are and how to unlock. */
export function scanModeLine(coverage: { mode: ScanMode; partial: boolean; notChecked: number }): string {
  const items = `${coverage.notChecked} ${coverage.notChecked === 1 ? 'check' : 'checks'}`;
  if (coverage.mode === 'passive') {
    return `This was a passive scan (a partial report): we only did what any visitor's browser or a mail server does, so ${items} were not run. Prove that you control the site from the report to unlock the full scan.`;
  }
  return coverage.partial ? `Full scan, but ${items} did not finish: the report lists them as not checked.` : 'Full scan: every check ran.';
}

/**
 * Why the user pool emails a code: confirming a new account, resetting a forgotten password, a
 * temporary password for an account an administrator created, or confirming a changed address.
 */
export type AccountCodeKind = 'sign-up' | 'forgot-password' | 'temporary-password' | 'verify-email';

const accountCodeTexts: Record<AccountCodeKind, { subject: (product: string) => string; line: string; after: string; ignore?: string }> = {
  'sign-up': {
    subject: (product) => `Your ${product} verification code`,
    line: 'Your verification code is:',
    after: 'Enter it on the sign-up page to confirm your email address and finish creating your account.',
  },
  'forgot-password': {
    subject: (product) => `Your ${product} password reset code`,
    line: 'Your password reset code is:',
    after: 'Enter it on the password reset page, with your new password.',
  },
  'temporary-password': {
    subject: (product) => `Your ${product} temporary password`,
    line: 'Your temporary password is:',
    after: 'Sign in with your email address and this password; you will then choose a new password.',
    ignore: 'If you did not expect an account, you can ignore this email.',
  },
  'verify-email': {
    subject: (product) => `Your ${product} verification code`,
    line: 'Your verification code is:',
    after: 'Enter it in your account settings to confirm your new email address.',
  },
};

/**
 * The emails the user pool sends (sign-up confirmation, password reset, temporary password). The
 * code may be Cognito's `{####}` placeholder: the CDK pool's verification template is this email.
 */
export function accountCodeEmail(brand: Pick<EmailBrand, 'productName'>, input: { to: string; kind: AccountCodeKind; code: string }): EmailMessage {
  const texts = accountCodeTexts[input.kind];
  const ignore = texts.ignore ?? 'If you did not ask for this, you can ignore this email: nothing changes without the code.';
  const text = [greeting(undefined), '', `${texts.line} ${input.code}`, '', texts.after, '', ignore, '', `— ${brand.productName}`].join('\n');
  const body = html(brand, [
    escapeHtml(greeting(undefined)),
    escapeHtml(texts.line),
    `<span style="font-size:28px;font-weight:bold;letter-spacing:6px">${escapeHtml(input.code)}</span>`,
    escapeHtml(texts.after),
    escapeHtml(ignore),
  ]);
  return { to: input.to, subject: texts.subject(brand.productName), text, html: body };
}

/**
 * DECISIONS "Scan modes": a monitored domain's re-check no longer found its verification, so it lapsed
 * to unverified and its monitoring stopped; the owner is told how to prove it again.
 */
export function domainLapsedEmail(brand: EmailBrand, input: { to: string; domain: string; lapsedAt: string; recheckDays: number }): EmailMessage {
  const domains = siteLink(brand, '/dashboard/settings?tab=domains');
  const subject = `${brand.productName}: ${input.domain} is no longer verified`;
  const lines = [
    `We look for a domain's verification again when we last saw it more than ${input.recheckDays} days ago, before we scan it actively. On ${input.lapsedAt.slice(0, 10)} we could not find the TXT record or the file for ${input.domain}, so it is no longer verified, and its monitoring scans have stopped.`,
    'If you still control the domain, publish the same TXT record or file again and press Check verification in Settings → Domains; monitoring starts again with it.',
    domains,
  ];
  return {
    to: input.to,
    subject,
    text: ['Hi,', '', ...lines.flatMap((line) => [line, ''])].join('\n').trimEnd(),
    html: html(brand, ['Hi,', escapeHtml(lines[0]!), escapeHtml(lines[1]!), `<a href="${escapeHtml(domains)}">Open Settings → Domains</a>`]),
  };
}
