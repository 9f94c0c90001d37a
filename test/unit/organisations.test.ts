import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../lambdas/domain/errors.js';
import { type OrgRole, roleAtLeast } from '../../lambdas/domain/organisation.contract.js';
import { ACTING_MEMBER_CLAIM, ACTING_ROLE_CLAIM, actingFrom, hashInvitationToken, isInvitationExpired, isInvitationToken, newInvitationToken, type Membership, type OrganisationRepository, type ProviderLink } from '../../lambdas/domain/organisations.js';
import { type RouteDefinition, routes } from '../../lambdas/routes.js';
import { actingClaims, personFrom } from '../../lambdas/use-cases/organisations.js';

const manifest = routes as readonly RouteDefinition[];
const userRoutes = manifest.filter((route) => route.auth === 'user');

describe('the role table (lambdas/routes.ts)', () => {
  it('gives every user route a role, and of the others only the report routes with optional sign-in (a member reads them for the organisation)', () => {
    expect(userRoutes.filter((route) => route.role === undefined).map((route) => route.name)).toEqual([]);
    const others = manifest.filter((route) => route.auth !== 'user' && route.role !== undefined);
    expect(others.map((route) => [route.name, route.role, route.optionalAuth])).toEqual([
      ['get-audit', 'viewer', true],
      ['create-share', 'viewer', true],
      ['email-audit', 'viewer', true],
    ]);
  });

  it('lets a viewer write nothing: every route that is not a read needs an admin or the owner, but leaving and personal routes', () => {
    const viewerWrites = userRoutes.filter((route) => route.method !== 'GET' && route.role === 'viewer').map((route) => route.name);
    expect(viewerWrites).toEqual(['leave-organisation']);
  });

  it('keeps billing and members with the owner, and these routes on the person', () => {
    const owners = userRoutes.filter((route) => route.role === 'owner').map((route) => route.name);
    expect(owners.sort()).toEqual(
      [
        'create-billing-portal-session',
        'create-checkout-session',
        'create-org-invitation',
        'get-billing',
        'list-org-invitations',
        'remove-org-member',
        'remove-org-provider',
        'revoke-org-invitation',
        'update-org-member',
      ].sort(),
    );
    expect(userRoutes.filter((route) => route.role === 'person').map((route) => route.name).sort()).toEqual(
      ['accept-invitation', 'delete-me', 'export-my-data', 'get-notification-preferences', 'get-two-step-status', 'list-my-organisations', 'update-me', 'update-notification-preferences'].sort(),
    );
  });

  it('needs an admin for domains, scans, policies, agents, tokens and destinations', () => {
    const admins = new Set(userRoutes.filter((route) => route.role === 'admin').map((route) => route.name));
    for (const name of ['add-domain', 'delete-domain', 'verify-domain', 'start-quick-scan', 'put-policy', 'delete-policy', 'rotate-agent-secret', 'get-agent-enrollment', 'create-api-token', 'list-api-tokens', 'revoke-api-token', 'list-org-access-log', 'create-alert-destination', 'delete-alert-destination']) {
      expect(admins.has(name), name).toBe(true);
    }
  });
});

describe('roleAtLeast', () => {
  it('ranks viewer < admin < owner', () => {
    const roles: OrgRole[] = ['viewer', 'admin', 'owner'];
    const table = roles.map((role) => roles.map((needed) => roleAtLeast(role, needed)));
    expect(table).toEqual([
      [true, false, false],
      [true, true, false],
      [true, true, true],
    ]);
  });
});

function repository(members: Membership[], links: ProviderLink[] = []): Pick<OrganisationRepository, 'getMembership' | 'listProviders'> {
  return {
    getMembership: async (orgId, memberId) => members.find((m) => m.orgId === orgId && m.memberId === memberId),
    listProviders: async (clientId) => links.filter((link) => link.clientId === clientId),
  };
}
const membership = (role: 'viewer' | 'admin'): Membership => ({ orgId: 'org-1', memberId: 'person-1', email: 'p@example.test', role, addedAt: '2026-01-01T00:00:00.000Z', orgName: 'Org' });
const deps = (members: Membership[], links: ProviderLink[] = []) => ({ organisations: repository(members, links) as OrganisationRepository });
const link = (providerId: string): ProviderLink => ({ clientId: 'client-1', providerId, linkedAt: '2026-01-01T00:00:00.000Z', clientName: 'Client', providerName: 'Provider' });

describe('actingClaims', () => {
  const claims = { sub: 'person-1', email: 'p@example.test' };

  it("lets a client's IT provider (its owner, its members) act in the client: admin at most, viewers as viewers", async () => {
    const providerMember = { ...membership('viewer'), orgId: 'provider-1' };
    const asOwner = await actingClaims(deps([], [link('person-1')]), claims, 'admin', 'client-1');
    const asViewer = deps([providerMember], [link('provider-1')]);

    expect(asOwner).toMatchObject({ sub: 'client-1', 'rampart:member': 'person-1', 'rampart:role': 'admin' });
    await expect(actingClaims(deps([], [link('person-1')]), claims, 'owner', 'client-1')).rejects.toMatchObject({ code: 'forbidden_role' });
    await expect(actingClaims(asViewer, claims, 'viewer', 'client-1')).resolves.toMatchObject({ sub: 'client-1', 'rampart:role': 'viewer' });
    await expect(actingClaims(asViewer, claims, 'admin', 'client-1')).rejects.toMatchObject({ code: 'forbidden_role' });
    // Another provider's client: nothing.
    await expect(actingClaims(deps([], [link('provider-2')]), claims, 'viewer', 'client-1')).rejects.toMatchObject({ code: 'organisation_forbidden' });
  });

  it("acts on the caller's own organisation as its owner without the header, or naming it", async () => {
    for (const header of [undefined, '', 'person-1']) {
      const acting = await actingClaims(deps([]), claims, 'owner', header);
      expect(acting).toEqual(claims);
      expect(actingFrom(acting)).toEqual({ orgId: 'person-1', memberId: 'person-1', role: 'owner' });
    }
  });

  it("acts on another organisation as the member, with the organisation's id as sub", async () => {
    const acting = await actingClaims(deps([membership('admin')]), claims, 'admin', 'org-1');
    expect(actingFrom(acting)).toEqual({ orgId: 'org-1', memberId: 'person-1', role: 'admin' });
    expect(acting.email).toBe('p@example.test');
  });

  it('refuses a non-member (organisation_forbidden) and a role below the route’s (forbidden_role)', async () => {
    await expect(actingClaims(deps([]), claims, 'viewer', 'org-1')).rejects.toMatchObject({ code: 'organisation_forbidden' });
    await expect(actingClaims(deps([membership('viewer')]), claims, 'admin', 'org-1')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(actingClaims(deps([membership('viewer')]), claims, 'admin', 'org-1')).rejects.toMatchObject({ code: 'forbidden_role' });
    await expect(actingClaims(deps([membership('admin')]), claims, 'owner', 'org-1')).rejects.toMatchObject({ code: 'forbidden_role' });
    await expect(actingClaims(deps([membership('admin')]), claims, 'viewer', '../org-1')).rejects.toMatchObject({ code: 'organisation_forbidden' });
  });

  it('ignores the header on personal routes, and drops acting claims a token itself carries', async () => {
    const spoofed = { ...claims, [ACTING_MEMBER_CLAIM]: 'someone-else', [ACTING_ROLE_CLAIM]: 'owner' };
    const acting = await actingClaims(deps([membership('viewer')]), spoofed, 'person', 'org-1');
    expect(acting).toEqual(claims);
    expect(actingFrom(acting)).toEqual({ orgId: 'person-1', memberId: 'person-1', role: 'owner' });
  });
});

describe('invitation tokens', () => {
  it('are inv_ and 43 base64url characters, hashed (SHA-256) for storage, and expire at their time', () => {
    const token = newInvitationToken();
    expect(isInvitationToken(token)).toBe(true);
    expect(isInvitationToken(`${token}x`)).toBe(false);
    expect(hashInvitationToken(token)).toMatch(/^[\w-]{43}$/);
    expect(hashInvitationToken(token)).not.toBe(hashInvitationToken(newInvitationToken()));
    expect(isInvitationExpired({ expiresAt: '2026-01-08T00:00:00.000Z' }, new Date('2026-01-07T23:59:59Z'))).toBe(false);
    expect(isInvitationExpired({ expiresAt: '2026-01-08T00:00:00.000Z' }, new Date('2026-01-08T00:00:00Z'))).toBe(true);
  });
});

describe('personFrom', () => {
  it('is the token’s own person whatever organisation the request acts on, and drops an address Cognito has not verified', () => {
    expect(personFrom({ sub: 'org-1', email: 'p@example.test', email_verified: 'true', [ACTING_MEMBER_CLAIM]: 'person-1', [ACTING_ROLE_CLAIM]: 'viewer' })).toEqual({ userId: 'person-1', email: 'p@example.test' });
    expect(personFrom({ sub: 'person-1', email: 'p@example.test', email_verified: 'false' })).toEqual({ userId: 'person-1', email: '' });
    expect(personFrom({ sub: 'person-1', email: 'p@example.test', email_verified: false })).toEqual({ userId: 'person-1', email: '' });
    expect(() => personFrom({})).toThrow();
  });
});
