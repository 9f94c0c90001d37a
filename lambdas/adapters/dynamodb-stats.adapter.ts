import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CompletedAuditFacts, PlatformStats, PlatformStatsTotals } from '../domain/ports.js';
import { keys } from './table-keys.js';

/** One attribute per whole second of scan time, so the median comes from counters (no list of durations kept). */
const SECONDS_PREFIX = 'scanSeconds_';
/** Longer scans share the last bucket (the deep scan's deadline is well inside it). */
const MAX_BUCKET_SECONDS = 3600;

/**
 * Rampart's running totals in one item, changed only with atomic ADDs (numbers, and a string set for
 * the countries), so concurrent scan workers never overwrite each other's counts.
 */
export class DynamoDbPlatformStats implements PlatformStats {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async recordCompletedAudit(facts: CompletedAuditFacts): Promise<void> {
    const ms = Math.max(0, Math.round(facts.durationMs));
    const bucket = Math.min(MAX_BUCKET_SECONDS, Math.round(ms / 1000));
    const country = facts.leadCountry && /^[A-Z]{2}$/.test(facts.leadCountry) ? facts.leadCountry : undefined;
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.platformStats,
        UpdateExpression: `ADD auditsCompleted :one, scanDurationMsTotal :ms, #bucket :one, criticalIssuesTotal :critical, criticalIssuesAudits :one${country ? ', leadCountries :country' : ''} SET #type = :type`,
        ExpressionAttributeNames: { '#type': 'type', '#bucket': `${SECONDS_PREFIX}${bucket}` },
        ExpressionAttributeValues: {
          ':one': 1,
          ':ms': ms,
          ':critical': Math.max(0, Math.round(facts.criticalIssues)),
          ':type': 'platform-stats',
          ...(country ? { ':country': new Set([country]) } : {}),
        },
      }),
    );
  }

  async read(): Promise<PlatformStatsTotals> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.platformStats }));
    const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
    const scanSeconds: Record<number, number> = {};
    for (const [name, value] of Object.entries(Item ?? {})) {
      if (name.startsWith(SECONDS_PREFIX)) scanSeconds[Number(name.slice(SECONDS_PREFIX.length))] = count(value);
    }
    const countries = Item?.leadCountries instanceof Set ? [...(Item.leadCountries as Set<unknown>)].filter((c): c is string => typeof c === 'string').sort() : [];
    return {
      auditsCompleted: count(Item?.auditsCompleted),
      scanDurationMsTotal: count(Item?.scanDurationMsTotal),
      scanSeconds,
      criticalIssuesTotal: count(Item?.criticalIssuesTotal),
      criticalIssuesAudits: count(Item?.criticalIssuesAudits),
      leadCountries: countries,
    };
  }
}
