import { type EmailBrand, escapeHtml, siteLink } from './emails.js';
import { getPlan, type PlanId } from './plans.js';
import type { EmailMessage, StoredSubscription } from './ports.js';
import { quotedName } from './single-line-text.js';
import {
  firstResponseTime,
  SUPPORT_CATEGORY_LABELS,
  type SupportEntitlementView,
  type SupportRequestView,
} from './support.contract.js';

/**
 * Support requests (DECISIONS "Plan features": "Priority support is a service promise: the support
 * form marks the plan"). Pure: which plan a request is marked with, whether it is a priority one,
 * its reference and the two emails it sends; the port the use case stores requests through.
 *
 * Choices, in one place:
 * - The user's current plans: the subscription while it is `active`, and the scan packs the user
 *   has paid for while the account still holds pack scans (pack scans carry over, so the pack is
 *   current until they are used). A request is a priority one when one of those plans lists
 *   'Priority support' in the catalogue (Monitor Plus, the 20-Scan Pack).
 * - Without a current plan the request names where the account stands: 'Free Trial', 'Free Trial
 *   (expired)' or the stored plan with its state ('Monitor Lite (cancelled)').
 * - The promise (1 business day with priority support, else 3) lives in support.contract.ts, read by
 *   the emails and the Support page alike.
 */

/** A request as stored, under its author's partition (deleted with the account). */
export interface SupportRequestRecord extends SupportRequestView {
  userId: string;
  email: string;
  name: string;
  /** The current plans it was marked with (catalogue ids). */
  planIds: PlanId[];
}

export interface SupportRequests {
  create(request: SupportRequestRecord): Promise<void>;
  /** Deletes a request whose notification could not be sent, so it is not left as if support had it. */
  remove(userId: string, createdAt: string, id: string): Promise<void>;
  /** The user's requests, newest first. */
  list(userId: string, limit: number): Promise<SupportRequestRecord[]>;
  /** Keeps the user's live requests 3 years from `from` (their last interaction); answers how many moved. */
  extendRetention(userId: string, from: Date): Promise<number>;
}

export interface SupportEntitlement extends SupportEntitlementView {
  planIds: PlanId[];
}

export interface EntitlementInput {
  subscription: StoredSubscription | undefined;
  /** Whether the account's 14-day trial is still running (only read without a current plan). */
  trialActive: boolean;
  /** Scan packs the user has paid for. */
  paidPacks: readonly Extract<PlanId, 'basic-scan' | 'pro-scan'>[];
  /** Pack scans the account still holds. */
  extraScans: number;
}

/** The plans that count now, the label a request carries and whether it is a priority one. */
export function supportEntitlement(input: EntitlementInput): SupportEntitlement {
  const current: PlanId[] = [];
  if (input.subscription?.status === 'active') current.push(input.subscription.planId);
  if (input.extraScans > 0) for (const pack of ['pro-scan', 'basic-scan'] as const) if (input.paidPacks.includes(pack)) current.push(pack);
  const priority = current.some((id) => getPlan(id).grants.support === 'priority');
  const plan =
    current.length > 0
      ? current.map((id) => getPlan(id).name).join(' + ')
      : input.subscription
        ? `${getPlan(input.subscription.planId).name} (${input.subscription.status})`
        : input.trialActive
          ? getPlan('trial').name
          : `${getPlan('trial').name} (expired)`;
  return { plan, planIds: current, priority, firstResponse: firstResponseTime(priority) };
}

/** `SR-20261102-7F3A9C`: the day it came in and six hex characters of its id. */
export function supportReference(createdAt: string, id: string): string {
  return `SR-${createdAt.slice(0, 10).replaceAll('-', '')}-${id.replaceAll('-', '').slice(0, 6).toUpperCase()}`;
}

export function supportRequestView(record: SupportRequestRecord): SupportRequestView {
  const { userId: _user, email: _email, name: _name, planIds: _plans, ...view } = record;
  return view;
}

/** To the support mailbox: `[Priority]` first when the plan promises it, the plan, who asked, the message. Replies go to the user. */
export function supportTeamEmail(brand: EmailBrand, to: string, request: SupportRequestRecord): EmailMessage {
  const category = SUPPORT_CATEGORY_LABELS[request.category];
  // Issue 28 finding 16: the request's subject is the user's text: quoted in the body, never the mail's Subject.
  const subject = `${request.priority ? '[Priority] ' : ''}${request.reference} ${category} (${request.plan})`;
  const rows: [string, string][] = [
    ['Reference', request.reference],
    ['From', `${request.name ? `${request.name} ` : ''}<${request.email}>`],
    ['User id', request.userId],
    ['Plan', request.plan],
    ['Priority support', request.priority ? `yes: first response within ${firstResponseTime(true)}` : `no: first response within ${firstResponseTime(false)}`],
    ['Category', category],
    ['Related audit', request.auditId ? siteLink(brand, `/results/${request.auditId}`) : 'none'],
    ['Received', request.createdAt],
  ];
  const text = [...rows.map(([label, value]) => `${label}: ${value}`), '', `Subject: ${quotedName(request.subject)}`, '', request.message, '', `— ${brand.productName} support form`].join('\n');
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    request.priority ? `<p><strong style="color:#b91c1c">Priority support</strong>: first response within ${escapeHtml(firstResponseTime(true))}.</p>` : '',
    `<table>${rows.map(([label, value]) => `<tr><td style="padding:2px 12px 2px 0;color:#6b7280">${escapeHtml(label)}</td><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`,
    `<p>Subject: <strong>${escapeHtml(quotedName(request.subject))}</strong></p>`,
    `<p style="white-space:pre-wrap">${escapeHtml(request.message)}</p>`,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(brand.productName)} support form</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html, replyTo: request.email };
}

/** To the user: the reference and when to expect the first response. */
export function supportAcknowledgementEmail(brand: EmailBrand, request: SupportRequestRecord, firstName?: string): EmailMessage {
  const subject = `${brand.productName} support: we received your request ${request.reference}`;
  const greeting = firstName ? `Hi ${firstName},` : 'Hi,';
  const promise = request.priority
    ? `As a ${request.plan} customer you have priority support: you can expect our first response within ${firstResponseTime(true)}.`
    : `You can expect our first response within ${firstResponseTime(false)}.`;
  const pageUrl = siteLink(brand, '/dashboard/support');
  const lines = [
    `We received your support request ${quotedName(request.subject)} (${SUPPORT_CATEGORY_LABELS[request.category]}).`,
    `Your reference: ${request.reference}. Please quote it if you write to us about this request.`,
    promise,
  ];
  const text = [greeting, '', ...lines, '', `Your requests: ${pageUrl}`, '', `— ${brand.productName}`].join('\n');
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(pageUrl)}">Your requests</a></p>`,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(brand.productName)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: request.email, subject, text, html };
}
