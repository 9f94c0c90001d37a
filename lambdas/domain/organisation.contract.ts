import * as z from 'zod';

/**
 * Teams (issue 22 item 2): the contracts the API and Settings → Team share. No crypto here: the
 * frontend bundles this file (the rules and the invitation token live in organisations.ts).
 */

export const orgRoles = ['viewer', 'admin', 'owner'] as const;
export type OrgRole = (typeof orgRoles)[number];
/** The roles a member may be given (the owner is the founder). */
export const memberRoles = ['viewer', 'admin'] as const;
export type MemberRole = (typeof memberRoles)[number];
/**
 * What an invitation grants: a membership, or (IT providers, issue 22 item 3) `provider`: the
 * invitee's own organisation becomes the inviting organisation's IT provider.
 */
export const invitationRoles = ['viewer', 'admin', 'provider'] as const;
export type InvitationRole = (typeof invitationRoles)[number];
export const INVITATION_ROLE_LABELS: Record<InvitationRole, string> = { viewer: 'Viewer', admin: 'Admin', provider: 'IT provider' };

/** The header that names the organisation a request acts on (absent: the caller's own). */
export const ORG_HEADER = 'x-rampart-org';

const RANK: Record<OrgRole, number> = { viewer: 0, admin: 1, owner: 2 };

export function roleAtLeast(role: OrgRole, needed: OrgRole): boolean {
  return RANK[role] >= RANK[needed];
}

export const ROLE_LABELS: Record<OrgRole, string> = { owner: 'Owner', admin: 'Admin', viewer: 'Viewer' };

export const INVITATION_DAYS = 7;
export const INVITES_PER_HOUR = 20;
/** Issue 28 finding 5: invitations one address receives an hour, from all organisations together. */
export const INVITES_PER_RECIPIENT_PER_HOUR = 3;
/** And invitations sent an hour from one source address (an IPv6 client counted by its /64). */
export const INVITES_PER_SOURCE_PER_HOUR = 40;
export const MAX_MEMBERS = 50;

const article = (role: OrgRole) => (role === 'admin' ? 'an' : 'a');

export const organisationMessages = {
  email: 'A valid email is required',
  role: 'Choose a role: admin or viewer',
  invitationRole: 'Choose a role: admin, viewer or IT provider',
  token: 'This invitation link is not valid. Ask for a new invitation.',
  notMember: 'You are not a member of this organisation.',
  forbiddenRole: (needed: OrgRole, role: OrgRole) => `This needs the ${needed} role; you are ${article(role)} ${role} in this organisation.`,
  invitationExpired: 'This invitation has expired. Ask for a new invitation.',
  invitationEmail: 'This invitation was sent to another email address. Sign in with that address to accept it.',
  emailNotVerified: 'Your email address is not verified yet. Confirm it with the code we emailed you, then accept the invitation.',
  invitationOwn: 'You cannot invite yourself.',
  alreadyMember: 'That person is already a member of this organisation.',
  providerNotFound: 'No such IT provider of this organisation.',
  alreadyProvider: 'Your organisation is already this organisation\'s IT provider.',
  alreadyInvited: 'That address already has a pending invitation. Revoke it to send a new one.',
  tooManyMembers: `An organisation can have at most ${MAX_MEMBERS} members and pending invitations.`,
  memberNotFound: 'No such member in this organisation.',
  invitationNotFound: 'No such pending invitation.',
  ownOrganisation: 'You own this organisation: you cannot leave it (delete the account instead).',
  demoInvite: 'The demo account is shared: it cannot invite anyone.',
  tooManyInvites: 'invitations',
} as const;

export const invitationInputSchema = z.strictObject({
  email: z
    .string({ error: organisationMessages.email })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: organisationMessages.email }).max(254, organisationMessages.email)),
  role: z.enum(invitationRoles, { error: organisationMessages.invitationRole }),
});
export type InvitationInput = z.infer<typeof invitationInputSchema>;

export const roleChangeSchema = z.strictObject({ role: z.enum(memberRoles, { error: organisationMessages.role }) });

export const acceptInvitationSchema = z.strictObject({
  token: z.string({ error: organisationMessages.token }).regex(/^inv_[A-Za-z0-9_-]{43}$/, organisationMessages.token),
});

/** Path parameters: a member is a Cognito sub, an invitation an `invt_` id. */
export const memberIdSchema = z.string().regex(/^[A-Za-z0-9-]{1,128}$/, organisationMessages.memberNotFound);
export const invitationIdSchema = z.string().regex(/^invt_[A-Za-z0-9_-]{16}$/, organisationMessages.invitationNotFound);

export interface MemberView {
  memberId: string;
  email: string;
  role: OrgRole;
  addedAt: string | null;
  /** The signed-in person. */
  you: boolean;
}

export interface InvitationView {
  id: string;
  email: string;
  role: InvitationRole;
  createdAt: string;
  expiresAt: string;
}

export interface OrganisationView {
  id: string;
  name: string;
  role: OrgRole;
  /** The person's own organisation (the one requests act on without the header). */
  own: boolean;
  /** A client organisation the person reaches as a member of its IT provider: the provider's name. */
  via?: string;
}
