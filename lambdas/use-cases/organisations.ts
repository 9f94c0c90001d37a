import type { Deps } from '../composition.js';
import { parseContract } from '../domain/contract.js';
import { ConflictError, ForbiddenError, GoneError, NotFoundError, UnauthorizedError, UpstreamUnavailableError, ValidationError } from '../domain/errors.js';
import {
  acceptInvitationSchema,
  type InvitationView,
  invitationIdSchema,
  invitationInputSchema,
  type MemberRole,
  INVITES_PER_HOUR,
  INVITES_PER_RECIPIENT_PER_HOUR,
  INVITES_PER_SOURCE_PER_HOUR,
  MAX_MEMBERS,
  memberIdSchema,
  type MemberView,
  organisationMessages,
  type OrganisationView,
  type OrgRole,
  roleAtLeast,
  roleChangeSchema,
} from '../domain/organisation.contract.js';
import {
  ACTING_MEMBER_CLAIM,
  ACTING_ROLE_CLAIM,
  type Acting,
  actingFrom,
  hashInvitationToken,
  invitationEmail,
  invitationExpiry,
  type InvitationRecord,
  isInvitationExpired,
  newInvitationId,
  newInvitationToken,
  roleInClient,
} from '../domain/organisations.js';
import { verifiedEmailOf } from '../domain/user-tokens.js';
import { enforceLimits, mailCeiling } from './rate-limits.js';

/**
 * Teams (issue 22 item 2): who acts on which organisation, members, roles and invitations. The rules
 * are in lambdas/domain/organisations.ts; this module imports no other use case.
 */

type OrgDeps = Pick<Deps, 'organisations' | 'accounts' | 'clock'>;

/** What a route needs: the least role in the acting organisation, or `person` (the signed-in person, whatever the header says). */
export type RouteAccess = OrgRole | 'person';

/** The signed-in person behind a request (the token's `sub` and verified email). */
export interface Person {
  userId: string;
  email: string;
}

/**
 * The claims a `user` route's handler sees. Without the header, or naming the caller's own
 * organisation, they are the token's (the founder owns their organisation: no read). Naming another
 * organisation, the caller must be its member with at least the route's role; then `sub` becomes the
 * organisation's id (every use case keys on it) and the person and role are added. Claims of those
 * names in the token itself are dropped, so only this function sets them.
 */
export async function actingClaims(deps: Pick<Deps, 'organisations'>, claims: Record<string, unknown>, access: RouteAccess, requestedOrg: string | undefined): Promise<Record<string, unknown>> {
  const { [ACTING_MEMBER_CLAIM]: _member, [ACTING_ROLE_CLAIM]: _role, ...own } = claims;
  const sub = own.sub;
  if (typeof sub !== 'string' || sub === '') return own;
  const orgId = requestedOrg?.trim() ?? '';
  if (access === 'person' || orgId === '' || orgId === sub) return own;
  if (!/^[A-Za-z0-9-]{1,128}$/.test(orgId)) throw new ForbiddenError('organisation_forbidden', organisationMessages.notMember);
  const role = (await deps.organisations.getMembership(orgId, sub))?.role ?? (await roleThroughProvider(deps, orgId, sub));
  if (!role) throw new ForbiddenError('organisation_forbidden', organisationMessages.notMember);
  if (!roleAtLeast(role, access)) throw new ForbiddenError('forbidden_role', organisationMessages.forbiddenRole(access, role));
  return { ...own, sub: orgId, [ACTING_MEMBER_CLAIM]: sub, [ACTING_ROLE_CLAIM]: role };
}

/**
 * The role the person has in the organisation right now: owner of their own, their membership's, or
 * through an IT provider; undefined once removed, left or unlinked (issue 28: access ends with membership).
 */
export async function currentRole(deps: Pick<Deps, 'organisations'>, orgId: string, personId: string): Promise<OrgRole | undefined> {
  if (orgId === personId) return 'owner';
  return (await deps.organisations.getMembership(orgId, personId))?.role ?? (await roleThroughProvider(deps, orgId, personId));
}

/** IT providers: the best role the person has in the client through one of its providers (its owner, or a member of it). */
async function roleThroughProvider(deps: Pick<Deps, 'organisations'>, clientId: string, personId: string): Promise<MemberRole | undefined> {
  const roles = await Promise.all(
    (await deps.organisations.listProviders(clientId)).map(async (link) => {
      if (link.providerId === personId) return roleInClient('owner');
      const membership = await deps.organisations.getMembership(link.providerId, personId);
      return membership ? roleInClient(membership.role) : undefined;
    }),
  );
  return roles.includes('admin') ? 'admin' : roles.includes('viewer') ? 'viewer' : undefined;
}

async function organisationName(deps: Pick<Deps, 'accounts'>, orgId: string): Promise<string> {
  const profile = await deps.accounts.getProfile(orgId);
  return profile?.company?.trim() || profile?.email || 'Organisation';
}

/** The switcher: the person's own organisation first, then the ones they are a member of, then the clients of those (IT providers). */
export async function listMyOrganisations(deps: OrgDeps, person: Person): Promise<OrganisationView[]> {
  const [name, memberships] = await Promise.all([organisationName(deps, person.userId), deps.organisations.listMemberships(person.userId)]);
  const providers = [{ orgId: person.userId, role: 'owner' as const }, ...memberships];
  const clients = (await Promise.all(providers.map(async (provider) => (await deps.organisations.listClients(provider.orgId)).map((link) => ({ link, role: roleInClient(provider.role) })))))
    .flat();
  const listed = new Set([person.userId, ...memberships.map((membership) => membership.orgId)]);
  const viaProvider: OrganisationView[] = [];
  for (const { link, role } of clients) {
    const seen = viaProvider.find((view) => view.id === link.clientId);
    if (seen) {
      if (role === 'admin') seen.role = 'admin';
    } else if (!listed.has(link.clientId)) {
      viaProvider.push({ id: link.clientId, name: link.clientName || 'Organisation', role, own: false, via: link.providerName || 'IT provider' });
    }
  }
  return [
    { id: person.userId, name, role: 'owner', own: true },
    ...memberships.map((membership) => ({ id: membership.orgId, name: membership.orgName || 'Organisation', role: membership.role, own: false })),
    ...viaProvider,
  ];
}

/** Settings → Team: the owner (the founder) and the members, with the caller's own role. */
export async function listMembers(deps: OrgDeps, acting: Acting): Promise<{ role: OrgRole; members: MemberView[] }> {
  const [owner, members] = await Promise.all([deps.accounts.getProfile(acting.orgId), deps.organisations.listMembers(acting.orgId)]);
  return {
    role: acting.role,
    members: [
      { memberId: acting.orgId, email: owner?.email ?? '', role: 'owner', addedAt: owner?.createdAt ?? null, you: acting.memberId === acting.orgId },
      ...members
        .sort((a, b) => a.addedAt.localeCompare(b.addedAt) || a.email.localeCompare(b.email))
        .map((member) => ({ memberId: member.memberId, email: member.email, role: member.role, addedAt: member.addedAt, you: member.memberId === acting.memberId })),
    ],
  };
}

const invitationView = (record: InvitationRecord): InvitationView => ({ id: record.id, email: record.email, role: record.role, createdAt: record.createdAt, expiresAt: record.expiresAt });

export async function listInvitations(deps: OrgDeps, acting: Acting): Promise<InvitationView[]> {
  const now = deps.clock.now();
  return (await deps.organisations.listInvitations(acting.orgId))
    .filter((record) => !isInvitationExpired(record, now))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map(invitationView);
}

/**
 * The owner invites someone by email: a single-use link mailed to them. Counted first (at most
 * INVITES_PER_HOUR an hour per organisation, refused ones not counted), so nobody can make Rampart
 * mail many addresses; an address already a member or already invited is refused.
 */
/**
 * Issue 28 finding 5: an invitation mails an address the inviter chose, so it is limited per
 * organisation, per source address (`source`, counted by its /64), per recipient across all
 * organisations, and by the product-wide mail ceiling.
 */
export async function inviteMember(
  deps: OrgDeps & Pick<Deps, 'rateLimits' | 'mailer' | 'config' | 'metrics'>,
  acting: Acting,
  inviterEmail: string,
  input: unknown,
  source = '',
): Promise<InvitationView> {
  const { email, role } = parseContract(invitationInputSchema, input);
  const now = deps.clock.now();
  const [owner, members, pending] = await Promise.all([deps.accounts.getProfile(acting.orgId), deps.organisations.listMembers(acting.orgId), listInvitations(deps, acting)]);
  // Everyone may sign in to the demo account: it must not be a way to mail strangers.
  if (owner?.isDemo) throw new ForbiddenError('demo_account_forbidden', organisationMessages.demoInvite);
  if (email === inviterEmail.toLowerCase() || email === owner?.email.toLowerCase()) throw new ValidationError(organisationMessages.invitationOwn, { email: organisationMessages.invitationOwn });
  if (members.some((member) => member.email.toLowerCase() === email)) throw new ConflictError('member_conflict', organisationMessages.alreadyMember);
  if (pending.some((invitation) => invitation.email === email)) throw new ConflictError('invitation_conflict', organisationMessages.alreadyInvited);
  if (members.length + pending.length >= MAX_MEMBERS) throw new ConflictError('members_limit_conflict', organisationMessages.tooManyMembers);
  await enforceLimits(
    deps.rateLimits,
    [
      { scope: 'org-invites', subject: acting.orgId, perHour: INVITES_PER_HOUR },
      { scope: 'invites:ip', subject: source, perHour: INVITES_PER_SOURCE_PER_HOUR },
      {
        scope: 'invites:to',
        subject: email,
        perHour: INVITES_PER_RECIPIENT_PER_HOUR,
        message: (wait) => `That address has received too many invitations just now. Please try again in ${wait}.`,
      },
      mailCeiling(deps),
    ],
    organisationMessages.tooManyInvites,
  );

  const token = newInvitationToken();
  const orgName = owner?.company?.trim() || owner?.email || 'Organisation';
  const record: InvitationRecord = {
    id: newInvitationId(),
    orgId: acting.orgId,
    orgName,
    email,
    role,
    invitedBy: acting.memberId,
    tokenHash: hashInvitationToken(token),
    createdAt: now.toISOString(),
    expiresAt: invitationExpiry(now),
  };
  await deps.organisations.createInvitation(record);
  try {
    await deps.mailer.send(invitationEmail({ productName: deps.config.PRODUCT_NAME, siteUrl: deps.config.SITE_URL }, { to: email, orgName, inviterEmail: inviterEmail || owner?.email || '', role, token }));
  } catch {
    // Not sent: no invitation nobody can accept.
    await deps.organisations.revokeInvitation(acting.orgId, record.id);
    throw new UpstreamUnavailableError('mail_unavailable', 'The invitation email could not be sent. Please try again.');
  }
  return invitationView(record);
}

export async function revokeInvitation(deps: OrgDeps, acting: Acting, invitationId: string | undefined): Promise<void> {
  const id = parseContract(invitationIdSchema, invitationId ?? '');
  if (!(await deps.organisations.revokeInvitation(acting.orgId, id))) throw new NotFoundError('invitation_not_found', organisationMessages.invitationNotFound);
}

export async function changeMemberRole(deps: OrgDeps, acting: Acting, memberId: string | undefined, input: unknown): Promise<MemberView> {
  const id = parseMemberId(memberId);
  const { role } = parseContract(roleChangeSchema, input);
  if (!(await deps.organisations.updateRole(acting.orgId, id, role))) throw new NotFoundError('member_not_found', organisationMessages.memberNotFound);
  const member = await deps.organisations.getMembership(acting.orgId, id);
  if (!member) throw new NotFoundError('member_not_found', organisationMessages.memberNotFound);
  return { memberId: member.memberId, email: member.email, role: member.role, addedAt: member.addedAt, you: false };
}

export async function removeMember(deps: OrgDeps, acting: Acting, memberId: string | undefined): Promise<void> {
  const id = parseMemberId(memberId);
  if (!(await deps.organisations.removeMembership(acting.orgId, id))) throw new NotFoundError('member_not_found', organisationMessages.memberNotFound);
}

/** A member leaves the acting organisation; its founder cannot (deleting the account ends it). */
export async function leaveOrganisation(deps: OrgDeps, acting: Acting): Promise<void> {
  if (acting.memberId === acting.orgId) throw new ForbiddenError('organisation_forbidden', organisationMessages.ownOrganisation);
  if (!(await deps.organisations.removeMembership(acting.orgId, acting.memberId))) throw new NotFoundError('member_not_found', organisationMessages.memberNotFound);
}

/**
 * The invitee, signed in with the invited address, accepts: the token is consumed once (a second
 * use, a revoked or expired one is refused) and the membership written.
 */
export async function acceptInvitation(deps: OrgDeps, person: Person, input: unknown): Promise<OrganisationView> {
  const { token } = parseContract(acceptInvitationSchema, input);
  const record = await deps.organisations.findInvitation(hashInvitationToken(token));
  if (!record) throw new NotFoundError('invitation_not_found', organisationMessages.token);
  if (isInvitationExpired(record, deps.clock.now())) throw new GoneError('invitation_expired', organisationMessages.invitationExpired);
  if (record.orgId === person.userId) throw new ValidationError(organisationMessages.invitationOwn, { token: organisationMessages.invitationOwn });
  // The token's verified address only, never the profile's copy (issue 28 finding 3).
  if (!person.email) throw new ForbiddenError('email_not_verified', organisationMessages.emailNotVerified);
  const email = person.email.toLowerCase();
  if (email !== record.email.toLowerCase()) throw new ForbiddenError('invitation_forbidden', organisationMessages.invitationEmail);
  if (record.role === 'provider') {
    // The accepting person's own organisation becomes the client's IT provider.
    if (await deps.organisations.getProviderLink(record.orgId, person.userId)) throw new ConflictError('provider_conflict', organisationMessages.alreadyProvider);
    if (!(await deps.organisations.consumeInvitation(record))) throw new NotFoundError('invitation_not_found', organisationMessages.token);
    const providerName = await organisationName(deps, person.userId);
    await deps.organisations.putProviderLink({ clientId: record.orgId, providerId: person.userId, linkedAt: deps.clock.now().toISOString(), clientName: record.orgName, providerName });
    return { id: record.orgId, name: record.orgName, role: 'admin', own: false, via: providerName };
  }
  if (!(await deps.organisations.consumeInvitation(record))) throw new NotFoundError('invitation_not_found', organisationMessages.token);
  await deps.organisations.putMembership({ orgId: record.orgId, memberId: person.userId, email, role: record.role, addedAt: deps.clock.now().toISOString(), orgName: record.orgName });
  return { id: record.orgId, name: record.orgName, role: record.role, own: false };
}

function parseMemberId(memberId: string | undefined): string {
  const result = memberIdSchema.safeParse(memberId ?? '');
  if (!result.success) throw new NotFoundError('member_not_found', organisationMessages.memberNotFound);
  return result.data;
}

/** The person behind a `user` route's claims (the token's own `sub`, whatever organisation the request acts on). */
export function personFrom(claims: Record<string, unknown> | undefined): Person {
  if (!claims || typeof claims.sub !== 'string' || claims.sub === '') throw new UnauthorizedError();
  const member = claims[ACTING_MEMBER_CLAIM];
  // Only an address Cognito verified is the person's (issue 28 finding 3).
  return { userId: typeof member === 'string' && member !== '' ? member : claims.sub, email: verifiedEmailOf(claims) };
}

/** The acting organisation of a `user` route's claims (as lambdas/api/http.ts resolved them). */
export function actingOf(claims: Record<string, unknown> | undefined): Acting {
  if (!claims || typeof claims.sub !== 'string' || claims.sub === '') throw new UnauthorizedError();
  return actingFrom(claims);
}

/** The acting organisation's IT providers (who may act in it as admins), oldest first. */
export async function listProvidersOf(deps: OrgDeps, acting: Acting): Promise<{ providerId: string; name: string; linkedAt: string }[]> {
  return (await deps.organisations.listProviders(acting.orgId)).map((link) => ({ providerId: link.providerId, name: link.providerName || 'IT provider', linkedAt: link.linkedAt }));
}

export async function removeProvider(deps: OrgDeps, acting: Acting, providerId: string | undefined): Promise<void> {
  const result = memberIdSchema.safeParse(providerId ?? '');
  if (!result.success || !(await deps.organisations.removeProviderLink(acting.orgId, result.data))) throw new NotFoundError('provider_not_found', organisationMessages.providerNotFound);
}
