import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryRecord, DestinationRecord, DestinationRepository } from '../domain/alert-destinations.js';
import { DELIVERY_LOG_DAYS } from '../domain/alert-destination.contract.js';
import type { Clock } from '../domain/ports.js';
import { isConditionFailure } from './dynamodb-errors.js';
import { queryPartition } from './dynamodb-partition.js';
import { expiresAt, isExpired, keys } from './table-keys.js';

type Item = Record<string, unknown>;

const SLOT_PREFIX = 'DEST#';
/** Receivers' errors can be long: enough to tell one from another. */
const MAX_ERROR_LENGTH = 300;

/**
 * Alert destinations in the user's partition: each in one of a fixed number of slots
 * (`DEST#00`–`DEST#09`), so that a conditional put can never exceed the maximum, as API tokens do;
 * the deliveries log under `DESTLOG#{destinationId}#{at}#{id}`, newest read first, each expiring after
 * DELIVERY_LOG_DAYS. Both go with the account (its partition is deleted whole).
 */
export class DynamoDbAlertDestinations implements DestinationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async list(userId: string): Promise<DestinationRecord[]> {
    return (await this.slotItems(userId)).map(toRecord).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async get(userId: string, id: string): Promise<DestinationRecord | undefined> {
    const item = (await this.slotItems(userId)).find((candidate) => candidate.destinationId === id);
    return item ? toRecord(item) : undefined;
  }

  async create(record: DestinationRecord, max: number): Promise<boolean> {
    const taken = new Set((await this.slotItems(record.userId)).map((item) => String(item.sk)));
    for (let slot = 0; slot < max; slot++) {
      const key = keys.alertDestination(record.userId, slot);
      if (taken.has(key.sk)) continue;
      try {
        await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...key, type: 'alert-destination', ...toItem(record) }, ConditionExpression: 'attribute_not_exists(pk)' }));
        return true;
      } catch (error) {
        // Another request took this slot meanwhile: try the next one.
        if (isConditionFailure(error)) continue;
        throw error;
      }
    }
    return false;
  }

  async update(userId: string, id: string, changes: Partial<Pick<DestinationRecord, 'name' | 'url' | 'events' | 'enabled'>>, at: string): Promise<DestinationRecord | undefined> {
    const item = (await this.slotItems(userId)).find((candidate) => candidate.destinationId === id);
    if (!item) return undefined;
    const sets = ['updatedAt = :at'];
    const removes: string[] = [];
    const values: Item = { ':at': at, ':id': id };
    const names: Record<string, string> = {};
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
    // Enabling again starts the count afresh.
    if (changes.enabled === true) {
      sets.push('consecutiveFailures = :zero');
      values[':zero'] = 0;
      removes.push('disabledReason', 'disabledAt');
    }
    return this.conditionalUpdate(item, `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`, values, names);
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const item = (await this.slotItems(userId)).find((candidate) => candidate.destinationId === id);
    if (!item) return false;
    try {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: item.pk, sk: item.sk }, ConditionExpression: 'destinationId = :id', ExpressionAttributeValues: { ':id': id } }));
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async recordDelivered(userId: string, id: string): Promise<void> {
    const item = (await this.slotItems(userId)).find((candidate) => candidate.destinationId === id);
    if (!item || Number(item.consecutiveFailures ?? 0) === 0) return;
    await this.conditionalUpdate(item, 'SET consecutiveFailures = :zero', { ':zero': 0, ':id': id }, {});
  }

  async recordAbandoned(userId: string, id: string, disableAt: number, at: string, reason: string): Promise<{ record?: DestinationRecord; disabledNow: boolean }> {
    const item = (await this.slotItems(userId)).find((candidate) => candidate.destinationId === id);
    if (!item) return { disabledNow: false };
    const counted = await this.conditionalUpdate(item, 'ADD consecutiveFailures :one', { ':one': 1, ':id': id }, {});
    if (!counted || counted.consecutiveFailures < disableAt || !counted.enabled) return { ...(counted ? { record: counted } : {}), disabledNow: false };
    try {
      // Only the run that turns it off says so: one email, however many alerts were given up at once.
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'SET enabled = :off, disabledAt = :at, disabledReason = :reason',
          ConditionExpression: 'destinationId = :id AND enabled = :on',
          ExpressionAttributeValues: { ':off': false, ':on': true, ':at': at, ':reason': reason, ':id': id },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { record: toRecord(Attributes!), disabledNow: true };
    } catch (error) {
      if (isConditionFailure(error)) return { record: counted, disabledNow: false };
      throw error;
    }
  }

  async logDelivery(delivery: DeliveryRecord): Promise<void> {
    const { userId, ...view } = delivery;
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.destinationDelivery(userId, delivery.destinationId, delivery.at, delivery.id),
          type: 'alert-delivery',
          userId,
          ...view,
          ...(view.error ? { error: view.error.slice(0, MAX_ERROR_LENGTH) } : {}),
          expiresAt: expiresAt(new Date(delivery.at), DELIVERY_LOG_DAYS * 86_400),
        },
      }),
    );
  }

  async listDeliveries(userId: string, destinationId: string, limit: number): Promise<DeliveryRecord[]> {
    const now = this.clock.now();
    const items = await queryPartition(this.db, this.tableName, keys.destinationDelivery(userId, destinationId, '', '').pk, {
      skPrefix: `DESTLOG#${destinationId}#`,
      descending: true,
      limit,
    });
    return items.filter((item) => !isExpired(item, now)).map((item) => ({
      id: String(item.id),
      userId,
      destinationId: String(item.destinationId),
      at: String(item.at),
      event: String(item.event),
      attempt: Number(item.attempt),
      outcome: item.outcome as DeliveryRecord['outcome'],
      ...(typeof item.statusCode === 'number' ? { statusCode: item.statusCode } : {}),
      ...(typeof item.error === 'string' ? { error: item.error } : {}),
      durationMs: Number(item.durationMs ?? 0),
    }));
  }

  private async slotItems(userId: string): Promise<Item[]> {
    return queryPartition(this.db, this.tableName, keys.alertDestination(userId, 0).pk, { skPrefix: SLOT_PREFIX });
  }

  /** An update of the slot while it still holds this destination; the record after it, or undefined. */
  private async conditionalUpdate(item: Item, expression: string, values: Item, names: Record<string, string>): Promise<DestinationRecord | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: expression,
          ConditionExpression: 'destinationId = :id',
          ExpressionAttributeValues: values,
          ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? toRecord(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }
}

function toItem(record: DestinationRecord): Item {
  const { id, ...rest } = record;
  return { destinationId: id, ...rest };
}

function toRecord(item: Item): DestinationRecord {
  return {
    id: String(item.destinationId),
    userId: String(item.userId),
    kind: item.kind as DestinationRecord['kind'],
    name: String(item.name),
    url: String(item.url),
    events: (item.events as DestinationRecord['events']) ?? [],
    ...(typeof item.secret === 'string' ? { secret: item.secret } : {}),
    enabled: item.enabled === true,
    ...(typeof item.disabledReason === 'string' ? { disabledReason: item.disabledReason } : {}),
    ...(typeof item.disabledAt === 'string' ? { disabledAt: item.disabledAt } : {}),
    consecutiveFailures: Number(item.consecutiveFailures ?? 0),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    ...(typeof item.createdBy === 'string' ? { createdBy: item.createdBy } : {}),
  };
}
