import { createHash, randomBytes } from 'node:crypto';
import { type EmailBrand, escapeHtml, siteLink } from './emails.js';
import { INVITATION_DAYS, type InvitationRole, type MemberRole, type OrgRole, orgRoles, ROLE_LABELS } from './organisation.contract.js';
import type { ProviderBranding } from './it-provider.contract.js';
import type { EmailMessage } from './ports.js';
import { quotedName } from './single-line-text.js';

/**
 * Teams (issue 22 item 2): an account is an organisation whose id is its founder's Cognito sub, so
 * every item already keyed `USER#{sub}` is that organisation's data (an organisation of one, migrated
 * in place: nothing is copied). Other people join it as members with a role. Rules, in one place:
 * - Roles rank viewer < admin < owner. The founder is the owner of their own organisation (no item);
 *   members are admins or viewers (an organisation has one owner: billing and deletion stay theirs).
 * - A request acts on the caller's own organisation, or on one they are a member of, named by the
 *   `X-Rampart-Org` header; each route of the manifest declares the least role it needs (or `person`:
 *   it acts on the signed-in person, whatever the header says).
 * - An invitation is a single-use token (`inv_` + 32 random bytes) mailed to the invitee; only its
 *   SHA-256 is stored, it expires after 7 days, and only a signed-in user whose verified email is the
 *   invited one can accept it. The owner invites at most INVITES_PER_HOUR people an hour; one address
 *   receives at most INVITES_PER_RECIPIENT_PER_HOUR, one source sends at most INVITES_PER_SOURCE_PER_HOUR.
 *   The invitation email's subject is fixed wording: the organisation's name is only quoted in its body.
 */

export const INVITATION_PREFIX = 'inv_';
const INVITATION_PATTERN = /^inv_[A-Za-z0-9_-]{43}$/;

export interface Membership {
  orgId: string;
  memberId: string;
  email: string;
  role: MemberRole;
  addedAt: string;
  /** The organisation's name as the member sees it in the switcher (its company, else its owner's email). */
  orgName: string;
}

export interface InvitationRecord {
  id: string;
  orgId: string;
  orgName: string;
  email: string;
  role: InvitationRole;
  invitedBy: string;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * IT providers (issue 22 item 3): the client organisation `clientId` lets the organisation
 * `providerId` manage it. Granted by the client's owner (an invitation with the `provider` role,
 * accepted by the provider organisation's owner), so both sides agreed.
 */
export interface ProviderLink {
  clientId: string;
  providerId: string;
  linkedAt: string;
  /** The client's name as the provider's overview and switcher show it. */
  clientName: string;
  providerName: string;
}

/** The role a provider's person gets in its clients: admin at most (the client's owner keeps billing and members). */
export function roleInClient(roleInProvider: MemberRole | 'owner'): MemberRole {
  return roleInProvider === 'viewer' ? 'viewer' : 'admin';
}

/** What the domain needs from storage (lambdas/adapters/dynamodb-organisations.adapter.ts). */
export interface OrganisationRepository {
  /** The member's item in the organisation (authoritative: removed with the organisation). */
  getMembership(orgId: string, memberId: string): Promise<Membership | undefined>;
  listMembers(orgId: string): Promise<Membership[]>;
  /** The organisations the person is a member of (their own aside). */
  listMemberships(memberId: string): Promise<Membership[]>;
  putMembership(membership: Membership): Promise<void>;
  /** false when the member is not there. */
  updateRole(orgId: string, memberId: string, role: MemberRole): Promise<boolean>;
  /** false when the member was not there. */
  removeMembership(orgId: string, memberId: string): Promise<boolean>;
  createInvitation(record: InvitationRecord): Promise<void>;
  listInvitations(orgId: string): Promise<InvitationRecord[]>;
  findInvitation(tokenHash: string): Promise<InvitationRecord | undefined>;
  /** Deletes the invitation once: true for the one caller that removed it. */
  consumeInvitation(record: InvitationRecord): Promise<boolean>;
  /** false when no such pending invitation of the organisation. */
  revokeInvitation(orgId: string, invitationId: string): Promise<boolean>;
  /** The client's item is authoritative; a lookup under the provider lists its clients. */
  putProviderLink(link: ProviderLink): Promise<void>;
  getProviderLink(clientId: string, providerId: string): Promise<ProviderLink | undefined>;
  /** The client's providers, oldest link first. */
  listProviders(clientId: string): Promise<ProviderLink[]>;
  /** The provider's clients (each checked against the client's own item). */
  listClients(providerId: string): Promise<ProviderLink[]>;
  /** false when there was no such link. */
  removeProviderLink(clientId: string, providerId: string): Promise<boolean>;
  getBranding(providerId: string): Promise<ProviderBranding | undefined>;
  putBranding(providerId: string, branding: ProviderBranding): Promise<void>;
  /** Account deletion: the person's memberships elsewhere, and the lookups of their organisation's members and invitations. */
  forgetPerson(personId: string): Promise<void>;
}

export function newInvitationId(): string {
  return `invt_${randomBytes(12).toString('base64url')}`;
}

export function newInvitationToken(): string {
  return `${INVITATION_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function isInvitationToken(value: unknown): value is string {
  return typeof value === 'string' && INVITATION_PATTERN.test(value);
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

export function invitationExpiry(now: Date): string {
  return new Date((Math.floor(now.getTime() / 1000) + INVITATION_DAYS * 86_400) * 1000).toISOString();
}

export function isInvitationExpired(record: Pick<InvitationRecord, 'expiresAt'>, now: Date): boolean {
  return Date.parse(record.expiresAt) <= now.getTime();
}

/** The acting organisation of a request, as the HTTP layer resolved it (lambdas/api/http.ts). */
export interface Acting {
  /** The data owner: the organisation's id (its founder's sub). */
  orgId: string;
  /** The signed-in person. */
  memberId: string;
  role: OrgRole;
}

/** Claims the HTTP layer adds once it resolved the organisation; a token's own claims of these names are dropped first. */
export const ACTING_MEMBER_CLAIM = 'rampart:member';
export const ACTING_ROLE_CLAIM = 'rampart:role';

/** The acting organisation from the verified claims: the caller's own (as owner) unless the HTTP layer set another. */
export function actingFrom(claims: Record<string, unknown>): Acting {
  const orgId = String(claims.sub);
  const member = claims[ACTING_MEMBER_CLAIM];
  const role = claims[ACTING_ROLE_CLAIM];
  if (typeof member === 'string' && member !== '' && typeof role === 'string' && (orgRoles as readonly string[]).includes(role)) {
    return { orgId, memberId: member, role: role as OrgRole };
  }
  return { orgId, memberId: orgId, role: 'owner' };
}

/** The invitee's email: who invites, to what, with which role, and the single-use link. */
export function invitationEmail(brand: EmailBrand, input: { to: string; orgName: string; inviterEmail: string; role: InvitationRole; token: string }): EmailMessage {
  const link = siteLink(brand, `/invitations/accept?token=${encodeURIComponent(input.token)}`);
  if (input.role === 'provider') return providerInvitationEmail(brand, { ...input, role: 'provider' }, link);
  const role = ROLE_LABELS[input.role].toLowerCase();
  // Issue 28 finding 5: the organisation's name is its owner's profile text: never in the subject,
  // only quoted in the body after our own wording.
  const subject = `You are invited to join an organisation on ${brand.productName}`;
  const org = quotedName(input.orgName);
  const invited = `You are invited to join the organisation ${org} on ${brand.productName} as ${role === 'admin' ? 'an' : 'a'} ${role}. The invitation was sent by ${input.inviterEmail}.`;
  const text = [
    'Hi,',
    '',
    invited,
    '',
    `Accept the invitation (sign in, or create an account with this email address): ${link}`,
    '',
    `The link works once and expires in ${INVITATION_DAYS} days. If you did not expect it, ignore this email.`,
    '',
    `— ${brand.productName}`,
  ].join('\n');
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    '<p>Hi,</p>',
    `<p>${escapeHtml(invited)}</p>`,
    `<p><a href="${escapeHtml(link)}">Accept the invitation</a> (sign in, or create an account with this email address).</p>`,
    `<p>The link works once and expires in ${INVITATION_DAYS} days. If you did not expect it, ignore this email.</p>`,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(brand.productName)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, subject, text, html };
}

/** The provider's owner is asked to manage the client: accepting links their own organisation as its IT provider. */
function providerInvitationEmail(brand: EmailBrand, input: { to: string; orgName: string; inviterEmail: string; role: 'provider' }, link: string): EmailMessage {
  const subject = `You are asked to be an IT provider on ${brand.productName}`;
  const lead = `You are asked to manage the organisation ${quotedName(input.orgName)} on ${brand.productName} as its IT provider: your team will act in it as admins, and its reports will carry your branding. The request was sent by ${input.inviterEmail}.`;
  const text = ['Hi,', '', lead, '', `Accept (sign in with this email address as your organisation's owner): ${link}`, '', `The link works once and expires in ${INVITATION_DAYS} days. If you did not expect it, ignore this email.`, '', `— ${brand.productName}`].join('\n');
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    '<p>Hi,</p>',
    `<p>${escapeHtml(lead)}</p>`,
    `<p><a href="${escapeHtml(link)}">Accept</a> (sign in with this email address as your organisation's owner).</p>`,
    `<p>The link works once and expires in ${INVITATION_DAYS} days. If you did not expect it, ignore this email.</p>`,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(brand.productName)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, subject, text, html };
}
