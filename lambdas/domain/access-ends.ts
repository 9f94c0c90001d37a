import { type EmailBrand, escapeHtml, siteLink } from './emails.js';
import type { EmailMessage } from './ports.js';
import { quotedName } from './single-line-text.js';

/**
 * Issue 28, "Access ends with membership" (DECISIONS): when a member is removed, leaves, or an IT
 * provider is unlinked, what they made while acting for the organisation ends with their access:
 * their API tokens are revoked, their alert destinations disabled (the owner may enable them again),
 * and the agent enrolment secret rotates. The owner is told by email; the log keeps who did what.
 */

/** How access ended. */
export type AccessEndedHow = 'member-removed' | 'member-left' | 'provider-unlinked';

/** One line of the organisation's access log (Settings → Team shows it to the owner and admins). */
export type AccessEventKind = AccessEndedHow | 'api-token-created' | 'api-token-revoked' | 'destinations-disabled' | 'enrolment-secret-rotated';

export interface AccessEvent {
  orgId: string;
  id: string;
  at: string;
  kind: AccessEventKind;
  /** Who acted, as written then (the person's email; the product's name for what followed from a removal). */
  actor: string;
  /** Whom or what it concerns: an email, a provider's name, a token's or destinations' names. */
  subject: string;
}

export const ACCESS_EVENT_LABELS: Record<AccessEventKind, string> = {
  'member-removed': 'Member removed',
  'member-left': 'Member left',
  'provider-unlinked': 'IT provider unlinked',
  'api-token-created': 'API token created',
  'api-token-revoked': 'API token revoked',
  'destinations-disabled': 'Alert destinations disabled',
  'enrolment-secret-rotated': 'Agent enrolment secret rotated',
};

const HOW: Record<AccessEndedHow, string> = {
  'member-removed': 'was removed from your organisation',
  'member-left': 'left your organisation',
  'provider-unlinked': 'was unlinked as your IT provider',
};

/**
 * The owner's notice: a fixed subject; the person, tokens and destinations named only quoted in the
 * body after our own wording (issue 28: our mail carries no attacker's words).
 */
export function accessEndedEmail(
  brand: EmailBrand,
  input: { to: string; who: string; how: AccessEndedHow; tokens: string[]; destinations: string[]; secretRotated: boolean },
): EmailMessage {
  const subject = `Access to your organisation ended on ${brand.productName}`;
  const lines = [`${quotedName(input.who)} ${HOW[input.how]}. What they made while acting for it ends with their access:`];
  if (input.tokens.length > 0) lines.push(`API tokens revoked: ${input.tokens.map(quotedName).join(', ')}.`);
  if (input.destinations.length > 0) lines.push(`Alert destinations disabled (enable them again in Settings if you still want their alerts): ${input.destinations.map(quotedName).join(', ')}.`);
  if (input.secretRotated) lines.push('The agent enrolment secret was rotated: install new agents with the new one shown in Settings. Agents already installed keep reporting.');
  const link = siteLink(brand, '/dashboard/settings');
  const text = ['Hi,', '', ...lines.flatMap((line) => [line, '']), `Settings: ${link}`, '', `— ${brand.productName}`].join('\n');
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    '<p>Hi,</p>',
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(link)}">Open Settings</a></p>`,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(brand.productName)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, subject, text, html };
}

/** How long the access log keeps an event. */
export const ACCESS_LOG_DAYS = 365;
/** The most events the access log route answers (newest first). */
export const ACCESS_LOG_LIMIT = 100;

/** Where the organisation's access log is kept (the single table, the organisation's partition). */
export interface AccessLogRepository {
  add(event: AccessEvent): Promise<void>;
  /** The newest events first, at most `limit`. */
  list(orgId: string, limit: number): Promise<AccessEvent[]>;
}
