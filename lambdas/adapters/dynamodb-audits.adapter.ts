import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Audit, AuditStatus, CheckResult } from '../domain/audit.js';
import { isLandingUrl } from '../domain/badge.js';
import type { AuditOutcome, AuditRepository, Clock, DataOwner, LeadRecord, SiteScan } from '../domain/ports.js';
import { siteKey } from '../domain/target.js';
import { deleteItems, queryPartition } from './dynamodb-partition.js';
import { extendExpiry } from './dynamodb-retention.js';
import { expiresAt, GSI1, GSI2, isExpired, keys, retention } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

type AuditItem = Omit<Audit, 'checks'> & { type: 'audit'; email?: string; expiresAt: number; freeRescanSessionId?: string };
type CheckItem = CheckResult & { type: 'check' };

/** How many of one owner's newest landing-scan entries are read beyond those asked for (stale ones: an audit re-run or deleted). */
const LANDING_SLACK = 1;
/** At most this many badge windows are read per owner and site: each is a paid audit of the site. */
const WINDOWS_READ = 20;

export class DynamoDbAuditRepository implements AuditRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async createLeadWithAudit(lead: LeadRecord, audit: Audit): Promise<void> {
    const created = new Date(lead.createdAt);
    // No transactions (dynalite has none): the lead goes first, so an audit never points at nothing.
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.lead(lead.id),
          type: 'lead',
          ...lead,
          gsi1pk: keys.byEmail(lead.email),
          gsi1sk: `LEAD#${lead.createdAt}`,
          expiresAt: expiresAt(created, retention.contactDetails),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    await this.putNewAudit(audit, { email: lead.email, gsi1pk: keys.byEmail(lead.email), gsi1sk: `AUDIT#${audit.createdAt}` });
  }

  async createAudit(audit: Audit & { ownerId: string }): Promise<void> {
    await this.putNewAudit(audit);
  }

  /** A new audit's head (unfinished until it ends; never over an existing one), and its owner's index entry. */
  private async putNewAudit(audit: Audit, extra: Record<string, string> = {}): Promise<void> {
    const { checks: _checks, ...rest } = audit;
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.audit(audit.id),
          type: 'audit',
          ...rest,
          ...extra,
          gsi2pk: keys.unfinished,
          gsi2sk: `${audit.createdAt}#${audit.id}`,
          expiresAt: expiresAt(new Date(audit.createdAt), retention.auditResults),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    if (audit.ownerId) await this.putOwnedAudit(audit.ownerId, audit);
  }

  /** The owner's index entry of an audit (their history lists these). */
  private async putOwnedAudit(ownerId: string, audit: Audit): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.ownedAudit(ownerId, audit.createdAt, audit.id),
          type: 'owned-audit',
          auditId: audit.id,
          host: audit.host,
          createdAt: audit.createdAt,
          expiresAt: expiresAt(new Date(audit.createdAt), retention.auditResults),
        },
      }),
    );
  }

  async completedScansOfSite(site: string, options: { ownerId?: string; completedBefore?: string; limit: number }): Promise<SiteScan[]> {
    const filter = options.ownerId === undefined ? undefined : 'ownerId = :owner';
    const items = await this.siteItems(site, options.limit, {
      ...(options.completedBefore ? { before: options.completedBefore } : {}),
      ...(filter ? { filter, values: { ':owner': options.ownerId } } : {}),
    });
    return items.map(toSiteScan);
  }

  async ownerLandingScans(site: string, owners: readonly string[], limit: number): Promise<SiteScan[]> {
    // One bounded query per owner (their own index, never the site's: strangers' scans are not read at all).
    const pages = await Promise.all(
      owners.map((owner) =>
        this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :landing)',
            ExpressionAttributeValues: { ':pk': keys.ownerOfSite(site, owner), ':landing': 'LANDING#' },
            ScanIndexForward: false,
            Limit: limit + LANDING_SLACK,
          }),
        ),
      ),
    );
    const entries = pages
      .flatMap((page, i) => (page.Items ?? []).map((item) => ({ owner: owners[i], sk: String(item.sk), auditId: String(item.auditId), completedAt: String(item.completedAt) })))
      .sort((a, b) => (a.sk < b.sk ? 1 : a.sk > b.sk ? -1 : 0));
    const scans: SiteScan[] = [];
    const now = this.clock.now();
    for (const entry of entries) {
      if (scans.length >= limit) break;
      if (scans.some((scan) => scan.auditId === entry.auditId)) continue;
      // The entry is written before the audit's head completes: it counts only while the head still says so.
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.audit(entry.auditId), ConsistentRead: true }));
      if (Item && Item.status === 'completed' && Item.completedAt === entry.completedAt && Item.ownerId === entry.owner && !isExpired(Item, now)) {
        scans.push(toSiteScan(Item));
      }
    }
    return scans;
  }

  async badgeWindowsOfSite(site: string, owners: readonly string[], after: string): Promise<{ ownerId: string; until: string }[]> {
    const pages = await Promise.all(
      owners.map((owner) =>
        this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :window)',
            ExpressionAttributeValues: { ':pk': keys.ownerOfSite(site, owner), ':window': 'WINDOW#' },
            Limit: WINDOWS_READ,
          }),
        ),
      ),
    );
    return pages.flatMap((page, i) =>
      (page.Items ?? []).filter((item) => typeof item.until === 'string' && item.until > after).map((item) => ({ ownerId: owners[i]!, until: String(item.until) })),
    );
  }

  /** The owner's entries for a completed audit of the site (DECISIONS "Who speaks for a site"): its landing scan and its badge window. */
  private async putOwnerEntries(head: Record<string, unknown>, completedAt: string | undefined): Promise<void> {
    if (typeof head.ownerId !== 'string' || typeof head.host !== 'string') return;
    const site = siteKey(head.host);
    const auditId = String(head.id);
    const expires = expiresAt(new Date(completedAt ?? String(head.createdAt)), retention.auditResults);
    if (completedAt && isLandingUrl(typeof head.targetUrl === 'string' ? head.targetUrl : undefined)) {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.landingScan(site, head.ownerId, completedAt, auditId), type: 'landing-scan', auditId, completedAt, expiresAt: expires },
        }),
      );
    }
    if (typeof head.badgeEligibleUntil === 'string') {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.badgeWindow(site, head.ownerId, auditId), type: 'badge-window', auditId, until: head.badgeEligibleUntil, expiresAt: expires },
        }),
      );
    }
  }

  /** Newest completion first, page by page until `limit` items pass the filter (Limit counts before filtering). */
  private async siteItems(
    site: string,
    limit: number,
    options: { before?: string; filter?: string; values?: Record<string, unknown> },
  ): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    const now = this.clock.now();
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: GSI2,
          KeyConditionExpression: options.before ? 'gsi2pk = :pk AND gsi2sk < :before' : 'gsi2pk = :pk',
          ...(options.filter ? { FilterExpression: options.filter } : {}),
          ExpressionAttributeValues: { ':pk': keys.siteScans(site), ...(options.before ? { ':before': options.before } : {}), ...options.values },
          ScanIndexForward: false,
          ...(Number.isFinite(limit) ? { Limit: Math.max(limit, 10) } : {}),
          ExclusiveStartKey: cursor,
        }),
      );
      for (const item of page.Items ?? []) if (item.status === 'completed' && !isExpired(item, now)) items.push(item);
      cursor = page.LastEvaluatedKey;
    } while (cursor && items.length < limit);
    return items.slice(0, Number.isFinite(limit) ? limit : undefined);
  }

  async getAudit(auditId: string): Promise<Audit | undefined> {
    const items = await queryPartition(this.db, this.tableName, keys.audit(auditId).pk);
    const head = items.find((i) => i.sk === '#AUDIT') as AuditItem | undefined;
    if (!head || isExpired(head, this.clock.now())) return undefined;
    const checks = items.filter((i) => i.type === 'check').map((i) => toCheck(i as unknown as CheckItem));
    return toAudit(head, checks);
  }

  async getLead(leadId: string): Promise<LeadRecord | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.lead(leadId) }));
    if (!Item || isExpired(Item, this.clock.now())) return undefined;
    const { pk: _pk, sk: _sk, type: _t, gsi1pk: _g, gsi1sk: _s, expiresAt: _e, ...lead } = Item;
    return lead as LeadRecord;
  }

  async markInProgress(auditId: string, startedAt: string): Promise<boolean> {
    return this.conditionalUpdate({
      Key: keys.audit(auditId),
      UpdateExpression: 'SET #status = :running, startedAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND #status IN (:queued, :running)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':running': 'in_progress', ':queued': 'queued', ':at': startedAt },
    });
  }

  async markPremium(
    auditId: string,
    premium: { planType: 'basic' | 'pro'; paymentSessionId: string; badgeEligibleUntil: string; updatedAt: string },
  ): Promise<boolean> {
    const marked = await this.conditionalUpdate({
      Key: keys.audit(auditId),
      UpdateExpression: 'SET isPremium = :yes, planType = :plan, paymentSessionId = :session, badgeEligibleUntil = :until, updatedAt = :at',
      // A second purchase of the same audit (say Pro after Basic) updates it; the same session again does not.
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(paymentSessionId) OR paymentSessionId <> :session)',
      ExpressionAttributeValues: {
        ':yes': true,
        ':plan': premium.planType,
        ':session': premium.paymentSessionId,
        ':until': premium.badgeEligibleUntil,
        ':at': premium.updatedAt,
      },
    });
    if (marked) {
      const { Item } = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: keys.audit(auditId), ProjectionExpression: 'id, host, ownerId, createdAt, badgeEligibleUntil', ConsistentRead: true }),
      );
      // The window only (no completion here); the deep re-run's completion writes it again.
      if (Item) await this.putOwnerEntries(Item, undefined);
    }
    return marked;
  }

  async requeueDeep(auditId: string, queuedAt: string): Promise<boolean> {
    return this.conditionalUpdate({
      Key: keys.audit(auditId),
      // Back on the unfinished index from now, so the sweeper's "stuck" clock starts at the re-run, not the first scan.
      // Paid for by a buyer who verified the domain at checkout (DECISIONS "Scan modes"): active from now.
      UpdateExpression: 'SET #status = :queued, #depth = :deep, #mode = :active, gsi2pk = :unfinished, gsi2sk = :order REMOVE errorMessage',
      ConditionExpression: 'attribute_exists(pk) AND #status = :done',
      ExpressionAttributeNames: { '#status': 'status', '#depth': 'depth', '#mode': 'mode' },
      ExpressionAttributeValues: { ':queued': 'queued', ':deep': 'deep', ':active': 'active', ':done': 'completed', ':unfinished': keys.unfinished, ':order': `${queuedAt}#${auditId}` },
    });
  }

  async supersedeWithActive(auditId: string, next: { id: string; createdAt: string; ownerId?: string }): Promise<Audit | undefined> {
    const supersededBy = { auditId: next.id, createdAt: next.createdAt };
    let old: Record<string, unknown> | undefined;
    try {
      const marked = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.audit(auditId),
          // The old report stays as it was: only the link to its successor, and its address proof is no longer pending.
          UpdateExpression: 'SET supersededBy = :by REMOVE addressProof',
          // Passive by proof, or active by proof but run passive under the per-target limit (ranPassiveBecause); once.
          ConditionExpression:
            'attribute_exists(pk) AND #status IN (:done, :failed) AND (#mode = :passive OR attribute_exists(ranPassiveBecause)) AND attribute_not_exists(supersededBy)',
          ExpressionAttributeNames: { '#status': 'status', '#mode': 'mode' },
          ExpressionAttributeValues: { ':by': supersededBy, ':done': 'completed', ':failed': 'failed', ':passive': 'passive' },
          ReturnValues: 'ALL_OLD',
        }),
      );
      old = marked.Attributes;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    if (!old) return undefined;
    const text = (field: string) => (typeof old[field] === 'string' ? (old[field] as string) : undefined);
    const ownerId = next.ownerId ?? text('ownerId');
    const audit: Audit = {
      id: next.id,
      ...(text('leadId') ? { leadId: text('leadId') } : {}),
      ...(ownerId ? { ownerId } : {}),
      ...(text('businessName') ? { businessName: text('businessName') } : {}),
      targetUrl: String(old.targetUrl),
      host: String(old.host),
      status: 'queued',
      createdAt: next.createdAt,
      checks: [],
      mode: 'active',
      supersedes: { auditId, ...(text('completedAt') ? { completedAt: text('completedAt') } : {}) },
      // What a paid audit bought stays with its report's full scan (depth, plan, badge window, the Pro Audit's re-scan used or not).
      ...(old.depth ? { depth: old.depth as Audit['depth'] } : {}),
      ...(old.isPremium
        ? {
            isPremium: true,
            planType: old.planType as Audit['planType'],
            ...(text('paymentSessionId') ? { paymentSessionId: text('paymentSessionId') } : {}),
            ...(text('badgeEligibleUntil') ? { badgeEligibleUntil: text('badgeEligibleUntil') } : {}),
            ...(text('updatedAt') ? { updatedAt: text('updatedAt') } : {}),
          }
        : {}),
    };
    const email = text('email');
    const extra: Record<string, string> = {
      ...(email ? { email, gsi1pk: keys.byEmail(email), gsi1sk: `AUDIT#${next.createdAt}` } : {}),
      ...(text('freeRescanUsedAt') && text('freeRescanSessionId') ? { freeRescanUsedAt: text('freeRescanUsedAt')!, freeRescanSessionId: text('freeRescanSessionId')! } : {}),
    };
    try {
      await this.putNewAudit(audit, extra);
    } catch (error) {
      // Not made: the old report is as it was again (unlockable), unless another request has replaced our mark since.
      await this.conditionalUpdate({
        Key: keys.audit(auditId),
        UpdateExpression: old.addressProof ? 'SET addressProof = :proof REMOVE supersededBy' : 'REMOVE supersededBy',
        ConditionExpression: 'supersededBy.auditId = :id',
        ExpressionAttributeValues: { ':id': next.id, ...(old.addressProof ? { ':proof': old.addressProof } : {}) },
      });
      throw error;
    }
    return audit;
  }

  async attachOwner(auditId: string, ownerId: string): Promise<boolean> {
    const attached = await this.conditionalUpdate({
      Key: keys.audit(auditId),
      UpdateExpression: 'SET ownerId = :owner',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(ownerId)',
      ExpressionAttributeValues: { ':owner': ownerId },
    });
    if (!attached) return false;
    const audit = await this.getAudit(auditId);
    if (audit) await this.putOwnedAudit(ownerId, audit);
    return true;
  }

  async claimFreeRescan(auditId: string, claim: { paymentSessionId: string; claimedAt: string }): Promise<boolean> {
    return this.conditionalUpdate({
      Key: keys.audit(auditId),
      // As requeueDeep, plus the claim: the purchase whose re-scan it was, so a later Pro purchase has its own.
      UpdateExpression:
        'SET #status = :queued, #depth = :deep, gsi2pk = :unfinished, gsi2sk = :order, freeRescanUsedAt = :at, freeRescanSessionId = :session REMOVE errorMessage',
      ConditionExpression:
        'attribute_exists(pk) AND #status IN (:done, :failed) AND planType = :pro AND paymentSessionId = :session AND (attribute_not_exists(freeRescanSessionId) OR freeRescanSessionId <> :session)',
      ExpressionAttributeNames: { '#status': 'status', '#depth': 'depth' },
      ExpressionAttributeValues: {
        ':queued': 'queued',
        ':deep': 'deep',
        ':done': 'completed',
        ':failed': 'failed',
        ':pro': 'pro',
        ':session': claim.paymentSessionId,
        ':at': claim.claimedAt,
        ':unfinished': keys.unfinished,
        ':order': `${claim.claimedAt}#${auditId}`,
      },
    });
  }

  async saveCheck(auditId: string, check: CheckResult): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.check(auditId, check.name),
          type: 'check',
          ...check,
          expiresAt: expiresAt(this.clock.now(), retention.auditResults),
        },
      }),
    );
  }

  async complete(auditId: string, outcome: AuditOutcome): Promise<boolean> {
    // The site's scan index (gsi2 SITE#{siteKey}) takes over from the unfinished one: the badge and
    // monitoring read a site's latest completed audits from it.
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.audit(auditId),
        ProjectionExpression: 'id, host, targetUrl, ownerId, createdAt, badgeEligibleUntil',
        ConsistentRead: true,
      }),
    );
    if (typeof Item?.host !== 'string') return false;
    // Before the head completes: a stop in between leaves an entry the reader skips (its head does not match), never a lost one.
    await this.putOwnerEntries(Item, outcome.completedAt);
    const caps = outcome.gradeCaps?.length ? outcome.gradeCaps : undefined;
    // A re-run (a paid audit's deep scan) replaces the last scan's caps and passive reason, or clears them.
    const set = ['#status = :done', 'score = :score', 'grade = :grade', 'riskLevel = :risk', 'completedAt = :at', 'gsi2pk = :site', 'gsi2sk = :order'];
    const remove: string[] = [];
    if (caps) set.push('gradeCaps = :caps');
    else remove.push('gradeCaps');
    if (outcome.ranPassiveBecause) set.push('ranPassiveBecause = :passiveBecause');
    else remove.push('ranPassiveBecause');
    return this.conditionalUpdate({
      Key: keys.audit(auditId),
      UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND #status = :running',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ...(outcome.ranPassiveBecause ? { ':passiveBecause': outcome.ranPassiveBecause } : {}),
        ...(caps ? { ':caps': caps.map(({ id, limit, reason }) => ({ id, limit, reason })) } : {}),
        ':done': 'completed',
        ':running': 'in_progress',
        ':score': outcome.score,
        ':grade': outcome.grade,
        ':risk': outcome.riskLevel,
        ':at': outcome.completedAt,
        ':site': keys.siteScans(siteKey(Item.host)),
        ':order': `${outcome.completedAt}#${auditId}`,
      },
    });
  }

  async fail(auditId: string, message: string, failedAt: string): Promise<boolean> {
    return this.conditionalUpdate({
      Key: keys.audit(auditId),
      UpdateExpression: 'SET #status = :failed, errorMessage = :msg, completedAt = :at REMOVE gsi2pk, gsi2sk',
      ConditionExpression: 'attribute_exists(pk) AND #status IN (:queued, :running)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':failed': 'failed',
        ':queued': 'queued',
        ':running': 'in_progress',
        ':msg': message,
        ':at': failedAt,
      },
    });
  }

  async markCompletionNotified(auditId: string, notifiedAt: string): Promise<boolean> {
    return this.conditionalUpdate({
      Key: keys.audit(auditId),
      UpdateExpression: 'SET completionNotifiedAt = :at',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(completionNotifiedAt)',
      ExpressionAttributeValues: { ':at': notifiedAt },
    });
  }

  async releaseCompletionNotified(auditId: string, notifiedAt: string): Promise<void> {
    // Only our own claim: a later delivery that claimed and sent keeps its mark.
    await this.conditionalUpdate({
      Key: keys.audit(auditId),
      UpdateExpression: 'REMOVE completionNotifiedAt',
      ConditionExpression: 'completionNotifiedAt = :at',
      ExpressionAttributeValues: { ':at': notifiedAt },
    });
  }

  async listUnfinished(createdBefore: string, limit: number) {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: GSI2,
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :before',
        ExpressionAttributeValues: { ':pk': keys.unfinished, ':before': createdBefore },
        Limit: limit,
      }),
    );
    return Items.map((i) => ({ id: String(i.id), status: i.status as AuditStatus, createdAt: String(i.createdAt) }));
  }

  async extendContactRetention(email: string, from: Date): Promise<number> {
    const leads = await queryPartition(this.db, this.tableName, keys.byEmail(email), { indexName: GSI1, skPrefix: 'LEAD#', projection: 'pk, sk, expiresAt' });
    return extendExpiry(this.db, this.tableName, leads, expiresAt(from, retention.contactDetails), this.clock.now());
  }

  async listByEmail(email: string) {
    const leads: { id: string; userId?: string }[] = [];
    const audits: { id: string; ownerId?: string }[] = [];
    const owner = (value: unknown) => (typeof value === 'string' ? value : undefined);
    for (const item of await queryPartition(this.db, this.tableName, keys.byEmail(email), { indexName: GSI1 })) {
      if (item.type === 'lead') leads.push({ id: String(item.id), userId: owner(item.userId) });
      if (item.type === 'audit') audits.push({ id: String(item.id), ownerId: owner(item.ownerId) });
    }
    return { leads, audits };
  }

  async deleteAuditOf(auditId: string, owner: DataOwner): Promise<{ leadId?: string } | undefined> {
    const items = await queryPartition(this.db, this.tableName, keys.audit(auditId).pk);
    const head = items.find((item) => item.sk === keys.audit(auditId).sk);
    if (!head || !belongsTo(head, 'ownerId', owner)) return undefined;
    // Checks and the owner's index item first, the head last: if this stops half-way, the head is still there to find again.
    const site = siteKey(String(head.host));
    // The owner's entries of this audit for the site: its badge window and a landing entry per completion (a paid audit's
    // deep re-run or free re-scan completes the same audit again, at another time; an unlock makes a new audit).
    const ownerEntries =
      typeof head.ownerId === 'string' ? (await queryPartition(this.db, this.tableName, keys.ownerOfSite(site, head.ownerId))).filter((item) => item.auditId === auditId) : [];
    const index = typeof head.ownerId === 'string' ? [keys.ownedAudit(head.ownerId, String(head.createdAt), auditId), ...ownerEntries] : [];
    await deleteItems(this.db, this.tableName, [...items.filter((item) => item !== head), ...index]);
    await deleteItems(this.db, this.tableName, [head]);
    return { ...(typeof head.leadId === 'string' ? { leadId: head.leadId } : {}) };
  }

  async deleteLeadOf(leadId: string, owner: DataOwner): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.lead(leadId), ConsistentRead: true }));
    if (!Item || !belongsTo(Item, 'userId', owner)) return false;
    await deleteItems(this.db, this.tableName, [Item]);
    return true;
  }

  private async conditionalUpdate(input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>): Promise<boolean> {
    try {
      await this.db.send(new UpdateCommand({ TableName: this.tableName, ...input }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) {
        return false;
      }
      throw error;
    }
  }
}

/** The account's own item, or one nobody owns stored under the account's (verified) email address. */
function belongsTo(item: Record<string, unknown>, ownerField: 'ownerId' | 'userId', owner: DataOwner): boolean {
  const ownedBy = item[ownerField];
  if (ownedBy !== undefined) return ownedBy === owner.userId;
  return owner.email !== '' && item.gsi1pk === keys.byEmail(owner.email);
}

function toAudit(item: AuditItem, checks: CheckResult[]): Audit {
  return {
    id: item.id,
    leadId: item.leadId,
    ownerId: item.ownerId,
    businessName: item.businessName,
    targetUrl: item.targetUrl,
    host: item.host,
    status: item.status,
    errorMessage: item.errorMessage,
    createdAt: item.createdAt,
    startedAt: item.startedAt,
    completedAt: item.completedAt,
    score: item.score,
    grade: item.grade,
    riskLevel: item.riskLevel,
    checks: checks.sort((a, b) => a.name.localeCompare(b.name)),
    ...(item.depth ? { depth: item.depth } : {}),
    ...(item.mode ? { mode: item.mode } : {}),
    ...(item.ranPassiveBecause ? { ranPassiveBecause: item.ranPassiveBecause } : {}),
    ...(item.addressProof?.pending ? { addressProof: { pending: true, createAccount: item.addressProof.createAccount === true } } : {}),
    ...(item.supersedes?.auditId ? { supersedes: item.supersedes } : {}),
    ...(item.supersededBy?.auditId ? { supersededBy: item.supersededBy } : {}),
    ...(Array.isArray(item.gradeCaps) && item.gradeCaps.length > 0 ? { gradeCaps: item.gradeCaps } : {}),
    ...(item.origin ? { origin: item.origin } : {}),
    ...(item.isPremium ? { isPremium: true, planType: item.planType, paymentSessionId: item.paymentSessionId, badgeEligibleUntil: item.badgeEligibleUntil } : {}),
    ...(item.updatedAt ? { updatedAt: item.updatedAt } : {}),
    // Only the current purchase's re-scan counts as used: a later Pro purchase (a new session) has its own.
    ...(item.freeRescanUsedAt && item.freeRescanSessionId === item.paymentSessionId ? { freeRescanUsedAt: item.freeRescanUsedAt } : {}),
  };
}

function toSiteScan(item: Record<string, unknown>): SiteScan {
  return {
    auditId: String(item.id),
    ...(typeof item.ownerId === 'string' ? { ownerId: item.ownerId } : {}),
    score: Number(item.score),
    grade: item.grade as SiteScan['grade'],
    completedAt: String(item.completedAt),
    ...(typeof item.badgeEligibleUntil === 'string' ? { badgeEligibleUntil: item.badgeEligibleUntil } : {}),
  };
}

function toCheck(item: CheckItem): CheckResult {
  return {
    name: item.name,
    status: item.status,
    durationMs: item.durationMs,
    reason: item.reason,
    // DECISIONS "Blocked is a result": without it a check the site kept out reads back as an error.
    ...(item.cause ? { cause: item.cause } : {}),
    findings: item.findings ?? [],
    data: item.data,
  };
}
