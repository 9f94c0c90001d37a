import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MemberRole } from '../domain/organisation.contract.js';
import type { ProviderBranding } from '../domain/it-provider.contract.js';
import { type InvitationRecord, type Membership, type OrganisationRepository, type ProviderLink } from '../domain/organisations.js';
import { isConditionFailure } from './dynamodb-errors.js';
import { queryPartition } from './dynamodb-partition.js';

type Item = Record<string, unknown>;

const MEMBER_PREFIX = 'MEMBER#';
const INVITE_PREFIX = 'INVITE#';
const ORG_PREFIX = 'ORG#';
const PROVIDER_PREFIX = 'PROVIDER#';
const CLIENT_PREFIX = 'CLIENT#';

/** Teams' keys (docs/data-model.md): the organisation's partition is its founder's `USER#{sub}`. */
export const organisationKeys = {
  /** A member in the organisation's partition: authoritative (removed with the organisation). */
  member: (orgId: string, memberId: string) => ({ pk: `USER#${orgId}`, sk: `${MEMBER_PREFIX}${memberId}` }),
  /** The same membership under the person: the organisations they belong to (the switcher). */
  membershipOf: (memberId: string, orgId: string) => ({ pk: `${MEMBER_PREFIX}${memberId}`, sk: `${ORG_PREFIX}${orgId}` }),
  /** A pending invitation in the organisation's partition (listing, revoking). */
  invitation: (orgId: string, invitationId: string) => ({ pk: `USER#${orgId}`, sk: `${INVITE_PREFIX}${invitationId}` }),
  /** The same invitation by its token's hash (accepting in one consistent read). */
  invitationByHash: (tokenHash: string) => ({ pk: `${INVITE_PREFIX}${tokenHash}`, sk: '#INVITE' }),
  /** IT providers: the link in the client's partition (authoritative: removed with the client organisation). */
  provider: (clientId: string, providerId: string) => ({ pk: `USER#${clientId}`, sk: `${PROVIDER_PREFIX}${providerId}` }),
  /** The same link under the provider: its clients (the overview, the switcher). */
  clientOf: (providerId: string, clientId: string) => ({ pk: `${PROVIDER_PREFIX}${providerId}`, sk: `${CLIENT_PREFIX}${clientId}` }),
  /** The provider's branding, in its own partition. */
  branding: (providerId: string) => ({ pk: `USER#${providerId}`, sk: 'BRANDING' }),
};

/**
 * Two items per membership and per invitation (no transactions locally, dynalite): writes go in the
 * order that fails safe. A membership is written under the person first and under the organisation
 * second (the organisation's item is what grants access, so a half-written one grants nothing);
 * removing deletes the organisation's item first. An invitation's hash item is deleted once, with a
 * condition, by the one request that accepts it.
 */
export class DynamoDbOrganisations implements OrganisationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getMembership(orgId: string, memberId: string): Promise<Membership | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: organisationKeys.member(orgId, memberId), ConsistentRead: true }));
    return Item ? toMembership(Item) : undefined;
  }

  async listMembers(orgId: string): Promise<Membership[]> {
    return (await queryPartition(this.db, this.tableName, `USER#${orgId}`, { skPrefix: MEMBER_PREFIX })).map(toMembership);
  }

  async listMemberships(memberId: string): Promise<Membership[]> {
    const listed = (await queryPartition(this.db, this.tableName, `${MEMBER_PREFIX}${memberId}`, { skPrefix: ORG_PREFIX })).map(toMembership);
    // The organisation's own item decides (a deleted organisation, a removal half done): the role is its.
    const checked = await Promise.all(listed.map((membership) => this.getMembership(membership.orgId, memberId)));
    return checked.filter((membership): membership is Membership => membership !== undefined);
  }

  async putMembership(membership: Membership): Promise<void> {
    const item = fromMembership(membership);
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...organisationKeys.membershipOf(membership.memberId, membership.orgId), type: 'membership-lookup', ...item } }));
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...organisationKeys.member(membership.orgId, membership.memberId), type: 'membership', ...item } }));
  }

  async updateRole(orgId: string, memberId: string, role: MemberRole): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: organisationKeys.member(orgId, memberId),
          UpdateExpression: 'SET #role = :role',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: organisationKeys.membershipOf(memberId, orgId),
          UpdateExpression: 'SET #role = :role',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role },
        }),
      )
      .catch((error: unknown) => {
        // The lookup is a copy for listing; the organisation's item decides the role.
        if (!isConditionFailure(error)) throw error;
      });
    return true;
  }

  async removeMembership(orgId: string, memberId: string): Promise<boolean> {
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: organisationKeys.member(orgId, memberId), ReturnValues: 'ALL_OLD' }));
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: organisationKeys.membershipOf(memberId, orgId) }));
    return Attributes !== undefined;
  }

  async createInvitation(record: InvitationRecord): Promise<void> {
    const item = fromInvitation(record);
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...organisationKeys.invitationByHash(record.tokenHash), type: 'invitation-lookup', ...item }, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...organisationKeys.invitation(record.orgId, record.id), type: 'invitation', ...item } }));
  }

  async listInvitations(orgId: string): Promise<InvitationRecord[]> {
    return (await queryPartition(this.db, this.tableName, `USER#${orgId}`, { skPrefix: INVITE_PREFIX })).map(toInvitation);
  }

  async findInvitation(tokenHash: string): Promise<InvitationRecord | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: organisationKeys.invitationByHash(tokenHash), ConsistentRead: true }));
    return Item ? toInvitation(Item) : undefined;
  }

  async consumeInvitation(record: InvitationRecord): Promise<boolean> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: organisationKeys.invitationByHash(record.tokenHash),
          ConditionExpression: 'attribute_exists(pk) AND invitationId = :id',
          ExpressionAttributeValues: { ':id': record.id },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: organisationKeys.invitation(record.orgId, record.id) }));
    return true;
  }

  async revokeInvitation(orgId: string, invitationId: string): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: organisationKeys.invitation(orgId, invitationId), ConsistentRead: true }));
    if (!Item) return false;
    // The token stops working first.
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: organisationKeys.invitationByHash(String(Item.tokenHash)) }));
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: organisationKeys.invitation(orgId, invitationId) }));
    return true;
  }

  async putProviderLink(link: ProviderLink): Promise<void> {
    const item = fromLink(link);
    // The lookup first, the client's item (what grants access) second: a half-written link grants nothing.
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...organisationKeys.clientOf(link.providerId, link.clientId), type: 'provider-link-lookup', ...item } }));
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...organisationKeys.provider(link.clientId, link.providerId), type: 'provider-link', ...item } }));
  }

  async getProviderLink(clientId: string, providerId: string): Promise<ProviderLink | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: organisationKeys.provider(clientId, providerId), ConsistentRead: true }));
    return Item ? toLink(Item) : undefined;
  }

  async listProviders(clientId: string): Promise<ProviderLink[]> {
    return (await queryPartition(this.db, this.tableName, `USER#${clientId}`, { skPrefix: PROVIDER_PREFIX })).map(toLink).sort((a, b) => a.linkedAt.localeCompare(b.linkedAt));
  }

  async listClients(providerId: string): Promise<ProviderLink[]> {
    const listed = (await queryPartition(this.db, this.tableName, `${PROVIDER_PREFIX}${providerId}`, { skPrefix: CLIENT_PREFIX })).map(toLink);
    // The client's own item decides (a deleted client, an unlinking half done).
    const checked = await Promise.all(listed.map((link) => this.getProviderLink(link.clientId, providerId)));
    return checked.filter((link): link is ProviderLink => link !== undefined).sort((a, b) => a.clientName.localeCompare(b.clientName) || a.clientId.localeCompare(b.clientId));
  }

  async removeProviderLink(clientId: string, providerId: string): Promise<boolean> {
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: organisationKeys.provider(clientId, providerId), ReturnValues: 'ALL_OLD' }));
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: organisationKeys.clientOf(providerId, clientId) }));
    return Attributes !== undefined;
  }

  async getBranding(providerId: string): Promise<ProviderBranding | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: organisationKeys.branding(providerId) }));
    if (!Item) return undefined;
    return { name: String(Item.name), colour: String(Item.colour), logo: typeof Item.logo === 'string' ? Item.logo : null, updatedAt: String(Item.updatedAt), version: String(Item.version) };
  }

  async putBranding(providerId: string, branding: ProviderBranding): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...organisationKeys.branding(providerId), type: 'provider-branding', ...branding } }));
  }

  async forgetPerson(personId: string): Promise<void> {
    // IT providers: the organisation's clients and providers are unlinked on both sides.
    for (const item of await queryPartition(this.db, this.tableName, `${PROVIDER_PREFIX}${personId}`, { skPrefix: CLIENT_PREFIX })) {
      await this.removeProviderLink(String(item.clientId), personId);
    }
    for (const link of await this.listProviders(personId)) await this.removeProviderLink(personId, link.providerId);
    for (const item of await queryPartition(this.db, this.tableName, `${MEMBER_PREFIX}${personId}`, { skPrefix: ORG_PREFIX })) {
      await this.removeMembership(String(item.orgId), personId);
    }
    for (const member of await this.listMembers(personId)) await this.removeMembership(personId, member.memberId);
    for (const invitation of await this.listInvitations(personId)) await this.revokeInvitation(personId, invitation.id);
  }
}

function fromMembership(membership: Membership): Item {
  return { orgId: membership.orgId, memberId: membership.memberId, email: membership.email, role: membership.role, addedAt: membership.addedAt, orgName: membership.orgName };
}

function toMembership(item: Item): Membership {
  return {
    orgId: String(item.orgId),
    memberId: String(item.memberId),
    email: String(item.email ?? ''),
    role: item.role === 'admin' ? 'admin' : 'viewer',
    addedAt: String(item.addedAt ?? ''),
    orgName: String(item.orgName ?? ''),
  };
}

function fromInvitation(record: InvitationRecord): Item {
  return {
    invitationId: record.id,
    orgId: record.orgId,
    orgName: record.orgName,
    email: record.email,
    role: record.role,
    invitedBy: record.invitedBy,
    tokenHash: record.tokenHash,
    createdAt: record.createdAt,
    invitationExpiresAt: record.expiresAt,
    // The table's TTL (epoch seconds): DynamoDB removes it some time after; reads check the expiry themselves.
    expiresAt: Math.floor(Date.parse(record.expiresAt) / 1000),
  };
}

function fromLink(link: ProviderLink): Item {
  return { clientId: link.clientId, providerId: link.providerId, linkedAt: link.linkedAt, clientName: link.clientName, providerName: link.providerName };
}

function toLink(item: Item): ProviderLink {
  return {
    clientId: String(item.clientId),
    providerId: String(item.providerId),
    linkedAt: String(item.linkedAt ?? ''),
    clientName: String(item.clientName ?? ''),
    providerName: String(item.providerName ?? ''),
  };
}

function toInvitation(item: Item): InvitationRecord {
  return {
    id: String(item.invitationId),
    orgId: String(item.orgId),
    orgName: String(item.orgName ?? ''),
    email: String(item.email),
    role: item.role === 'admin' || item.role === 'provider' ? item.role : 'viewer',
    invitedBy: String(item.invitedBy ?? ''),
    tokenHash: String(item.tokenHash),
    createdAt: String(item.createdAt),
    expiresAt: String(item.invitationExpiresAt),
  };
}
