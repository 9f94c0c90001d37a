import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import type { CheckoutSessionInput, Clock, PaymentProvider } from '../domain/ports.js';
import type { PlanId } from '../domain/plans.js';
import { expiresAt, keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

/** A local checkout session: what Stripe would keep about it. */
export interface LocalCheckoutSession {
  kind: 'session';
  id: string;
  mode: 'payment' | 'subscription';
  planId: Exclude<PlanId, 'trial'>;
  planName: string;
  amountCents: number;
  currency: string;
  customerId: string;
  userId: string;
  auditId?: string;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'complete';
  createdAt: string;
}

export interface LocalPortalSession {
  kind: 'portal';
  id: string;
  customerId: string;
  returnUrl: string;
}

export interface LocalSubscription {
  kind: 'subscription';
  id: string;
  customerId: string;
  userId: string;
  planId: 'monitor-lite' | 'monitor-plus';
  status: 'active' | 'canceled';
  /** Epoch seconds, as Stripe writes them. */
  periodStart: number;
  periodEnd: number;
}

/** The customer's current local subscription, so the portal can change it. */
export interface LocalCustomer {
  kind: 'customer';
  id: string;
  userId: string;
  subscriptionId?: string;
}

export type LocalPaymentRecord = LocalCheckoutSession | LocalPortalSession | LocalSubscription | LocalCustomer;

/** How long a local checkout or portal session can be opened, like Stripe's (24 hours; portal 1 hour would do, this is local). */
const SESSION_SECONDS = 24 * 3600;

const localId = (prefix: string) => `${prefix}_local_${randomBytes(18).toString('base64url').replace(/[-_]/g, '')}`;

/**
 * The stand-in for Stripe without a key (`npm start`, the tests): sessions are stored in the table and
 * the URLs lead to the local test checkout and portal pages (bin/local/test-payments.ts), which send
 * correctly signed Stripe-format events to the real webhook route. Nothing here takes money.
 */
export class LocalPayments implements PaymentProvider {
  readonly kind = 'local' as const;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly siteUrl: string,
    private readonly clock: Clock,
  ) {}

  async createCustomer(user: { userId: string }): Promise<{ customerId: string }> {
    const customer: LocalCustomer = { kind: 'customer', id: localId('cus'), userId: user.userId };
    await this.put(customer);
    return { customerId: customer.id };
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<{ sessionId: string; url: string }> {
    const id = localId('cs');
    const session: LocalCheckoutSession = {
      kind: 'session',
      id,
      mode: input.mode,
      planId: input.plan.id,
      planName: input.plan.name,
      amountCents: input.amountCents,
      currency: input.currency,
      customerId: input.customerId,
      userId: input.userId,
      ...(input.auditId ? { auditId: input.auditId } : {}),
      // Stripe fills the placeholder in when it redirects; so does the local checkout.
      successUrl: input.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
      cancelUrl: input.cancelUrl,
      status: 'open',
      createdAt: this.clock.now().toISOString(),
    };
    await this.put(session);
    return { sessionId: id, url: `${this.base()}/_local/checkout/${id}` };
  }

  async createBillingPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    const portal: LocalPortalSession = { kind: 'portal', id: localId('bps'), customerId: input.customerId, returnUrl: input.returnUrl };
    await this.put(portal);
    return { url: `${this.base()}/_local/billing-portal/${portal.id}` };
  }

  async get<K extends LocalPaymentRecord['kind']>(kind: K, id: string): Promise<Extract<LocalPaymentRecord, { kind: K }> | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.localPayment(id), ConsistentRead: true }));
    if (!Item || Item.kind !== kind) return undefined;
    if (typeof Item.expiresAt === 'number' && Item.expiresAt * 1000 <= this.clock.now().getTime()) return undefined;
    const { pk: _pk, sk: _sk, type: _type, expiresAt: _expires, ...record } = Item;
    return record as Extract<LocalPaymentRecord, { kind: K }>;
  }

  async put(record: LocalPaymentRecord): Promise<void> {
    const lives = record.kind === 'session' || record.kind === 'portal';
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.localPayment(record.id), type: 'local-payment', ...record, ...(lives ? { expiresAt: expiresAt(this.clock.now(), SESSION_SECONDS) } : {}) },
      }),
    );
  }

  /** open → complete, once: a second Pay on the same session pays nothing. */
  async completeSession(id: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.localPayment(id),
          UpdateExpression: 'SET #status = :complete',
          ConditionExpression: '#status = :open',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':complete': 'complete', ':open': 'open' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  newId(prefix: 'evt' | 'sub' | 'in' | 'pi'): string {
    return localId(prefix);
  }

  private base(): string {
    return this.siteUrl.replace(/\/+$/, '');
  }
}
