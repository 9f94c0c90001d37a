import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredInvoice, StoredOrder } from '../domain/payments.js';
import type { BillingRepository, Clock, ScanUsage, StoredSubscription } from '../domain/ports.js';
import { queryPartition } from './dynamodb-partition.js';
import { activeSubscriptionIndex, expiresAt, GSI1, keys, retention } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

const ORDER_FIELDS = [
  'checkoutSessionId',
  'userId',
  'planId',
  'auditId',
  'amountTotal',
  'currency',
  'status',
  'createdAt',
  'orderDate',
  'customerId',
  'subscriptionId',
  'discountPercent',
] as const;
const INVOICE_FIELDS = ['invoiceId', 'userId', 'subscriptionId', 'planId', 'amountCents', 'currency', 'status', 'date', 'periodStart', 'periodEnd', 'hostedInvoiceUrl'] as const;

const pick = <T>(item: Record<string, unknown>, fields: readonly string[]): T =>
  Object.fromEntries(fields.filter((f) => item[f] !== undefined && item[f] !== null).map((f) => [f, item[f]])) as T;

/** Orders, invoices, processed webhook events, customers and the scan allowance (docs/data-model.md "Payments"). */
export class DynamoDbBilling implements BillingRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async claimEvent(eventId: string, type: string): Promise<boolean> {
    const now = this.clock.now();
    return this.conditional(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.paymentEvent(eventId), type: 'payment-event', eventType: type, receivedAt: now.toISOString(), expiresAt: expiresAt(now, retention.paymentEvents) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async releaseEvent(eventId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.paymentEvent(eventId) }));
  }

  async createOrder(order: StoredOrder): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: this.orderItem(order),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getOrder(checkoutSessionId: string): Promise<StoredOrder | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.order(checkoutSessionId), ConsistentRead: true }));
    return Item ? pick<StoredOrder>(Item, ORDER_FIELDS) : undefined;
  }

  async markOrderPaid(order: StoredOrder): Promise<StoredOrder | undefined> {
    const previous = await this.getOrder(order.checkoutSessionId);
    if (previous?.status === 'paid') return undefined;
    // The pending order's own facts (its discount, its creation) stay; what was paid comes from the provider.
    const paid: StoredOrder = { ...previous, ...order, status: 'paid', createdAt: previous?.createdAt ?? order.createdAt };
    const stored = await this.conditional(
      new PutCommand({
        TableName: this.tableName,
        Item: this.orderItem(paid),
        ConditionExpression: 'attribute_not_exists(pk) OR #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending' },
      }),
    );
    return stored ? paid : undefined;
  }

  async listOrders(userId: string): Promise<StoredOrder[]> {
    return (await this.billingItems(userId, 'ORDER#')).map((item) => pick<StoredOrder>(item, ORDER_FIELDS));
  }

  async saveInvoice(invoice: StoredInvoice): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.invoice(invoice.invoiceId),
          type: 'invoice',
          ...invoice,
          gsi1pk: keys.billingOf(invoice.userId),
          gsi1sk: `INVOICE#${invoice.date}`,
          expiresAt: expiresAt(new Date(invoice.date), retention.paymentRecords),
        },
      }),
    );
  }

  async listInvoices(userId: string): Promise<StoredInvoice[]> {
    return (await this.billingItems(userId, 'INVOICE#')).map((item) => pick<StoredInvoice>(item, INVOICE_FIELDS));
  }

  async linkCustomer(customerId: string, userId: string): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...keys.customer(customerId), type: 'customer', customerId, userId, createdAt: this.clock.now().toISOString() } }),
    );
  }

  async userOfCustomer(customerId: string): Promise<string | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.customer(customerId), ConsistentRead: true }));
    return typeof Item?.userId === 'string' ? Item.userId : undefined;
  }

  async applySubscription(userId: string, subscription: StoredSubscription): Promise<boolean> {
    return this.conditional(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.subscription(userId),
          type: 'subscription',
          userId,
          ...subscription,
          ...activeSubscriptionIndex(userId, subscription.status),
          updatedAt: this.clock.now().toISOString(),
        },
        // Stripe does not promise order: an event older than the one the stored state came from is ignored.
        ConditionExpression: 'attribute_not_exists(eventCreated) OR eventCreated <= :created',
        ExpressionAttributeValues: { ':created': subscription.eventCreated ?? 0 },
      }),
    );
  }

  async addExtraScans(userId: string, scans: number): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.scanCount(userId),
        UpdateExpression: 'ADD extraScans :scans SET #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':scans': scans, ':type': 'scan-count' },
      }),
    );
  }

  async startScanPeriod(userId: string, periodStart: string, planLimit: number): Promise<boolean> {
    // Read, compute, write on condition that nothing moved in between; a Quick Scan racing it retries it.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.scanCount(userId), ConsistentRead: true }));
      const used = typeof Item?.scansStarted === 'number' ? Item.scansStarted : 0;
      const extra = typeof Item?.extraScans === 'number' ? Item.extraScans : 0;
      const current = typeof Item?.periodStart === 'string' ? Item.periodStart : undefined;
      if (current !== undefined && current >= periodStart) return false;
      // Scans beyond the plan's limit came out of the packs; what is left of them carries over.
      const carried = Math.max(0, extra - Math.max(0, used - planLimit));
      const updated = await this.conditional(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.scanCount(userId),
          UpdateExpression: 'SET scansStarted = :zero, extraScans = :carried, periodStart = :period, #type = :type',
          ConditionExpression:
            '(attribute_not_exists(periodStart) OR periodStart < :period) AND (attribute_not_exists(scansStarted) OR scansStarted = :used)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':zero': 0, ':carried': carried, ':period': periodStart, ':used': used, ':type': 'scan-count' },
        }),
      );
      if (updated) return true;
    }
    return false;
  }

  async getScanUsage(userId: string): Promise<ScanUsage> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.scanCount(userId), ConsistentRead: true }));
    return {
      used: typeof Item?.scansStarted === 'number' ? Item.scansStarted : 0,
      extraScans: typeof Item?.extraScans === 'number' ? Item.extraScans : 0,
    };
  }

  private orderItem(order: StoredOrder) {
    return {
      ...keys.order(order.checkoutSessionId),
      type: 'order',
      ...order,
      gsi1pk: keys.billingOf(order.userId),
      gsi1sk: `ORDER#${order.createdAt}`,
      expiresAt: expiresAt(new Date(order.createdAt), retention.paymentRecords),
    };
  }

  /** Newest first. */
  private async billingItems(userId: string, prefix: string): Promise<Record<string, unknown>[]> {
    return queryPartition(this.db, this.tableName, keys.billingOf(userId), { indexName: GSI1, skPrefix: prefix, descending: true });
  }

  private async conditional(command: PutCommand | UpdateCommand): Promise<boolean> {
    try {
      if (command instanceof PutCommand) await this.db.send(command);
      else await this.db.send(command);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
