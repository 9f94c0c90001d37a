import type { BusinessMetric, Metrics } from '../domain/metrics.port.js';
import { BUSINESS_METRICS, CHECK_DIMENSION } from '../domain/metrics.port.js';

export interface RecordedMetric {
  readonly name: BusinessMetric;
  readonly value: number;
  readonly dimensions?: Readonly<Record<string, string>>;
}

/** Metrics kept in memory: what tests assert on. `npm start` uses {@link noMetrics}. */
export class RecordingMetrics implements Metrics {
  readonly recorded: RecordedMetric[] = [];
  flushes = 0;

  scanStarted(): void {
    this.record(BUSINESS_METRICS.scansStarted, 1);
  }

  scanCompleted(durationMs: number): void {
    this.record(BUSINESS_METRICS.scansCompleted, 1);
    this.record(BUSINESS_METRICS.scanDuration, durationMs);
  }

  scanFailed(): void {
    this.record(BUSINESS_METRICS.scansFailed, 1);
  }

  checkTimed(checkId: string, durationMs: number): void {
    this.record(BUSINESS_METRICS.checkDuration, durationMs, { [CHECK_DIMENSION]: checkId });
  }

  emailSent(): void {
    this.record(BUSINESS_METRICS.emailsSent, 1);
  }

  emailFailed(): void {
    this.record(BUSINESS_METRICS.emailsFailed, 1);
  }

  notificationAbandoned(): void {
    this.record(BUSINESS_METRICS.notificationsAbandoned, 1);
  }

  mailCeilingReached(): void {
    this.record(BUSINESS_METRICS.mailCeilingReached, 1);
  }

  smsRefused(): void {
    this.record(BUSINESS_METRICS.smsRefused, 1);
  }

  flush(): void {
    this.flushes += 1;
  }

  /** The sum of a metric's values (a count, for the counters). */
  total(name: BusinessMetric): number {
    return this.recorded.filter((m) => m.name === name).reduce((sum, m) => sum + m.value, 0);
  }

  private record(name: BusinessMetric, value: number, dimensions?: Record<string, string>): void {
    this.recorded.push(dimensions ? { name, value, dimensions } : { name, value });
  }
}

/** Metrics nobody reads: the local stack has no CloudWatch, and the logs stay readable. */
export const noMetrics: Metrics = {
  scanStarted: () => {},
  scanCompleted: () => {},
  scanFailed: () => {},
  checkTimed: () => {},
  emailSent: () => {},
  emailFailed: () => {},
  notificationAbandoned: () => {},
  mailCeilingReached: () => {},
  smsRefused: () => {},
  flush: () => {},
};
