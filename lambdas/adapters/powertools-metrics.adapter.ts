import { MetricUnit, Metrics as Powertools } from '@aws-lambda-powertools/metrics';
import { BUSINESS_METRICS, type BusinessMetric, CHECK_DIMENSION, METRICS_NAMESPACE, type Metrics } from '../domain/metrics.port.js';

/**
 * Business metrics as CloudWatch Embedded Metric Format lines on stdout (Powertools Metrics): Lambda
 * ships them to the function's log group and CloudWatch extracts the metrics, with no API call and
 * no permission. The `service` dimension is POWERTOOLS_SERVICE_NAME (the product slug, one per
 * deployment). Counts and scan durations wait for `flush()`; each check's duration carries its own
 * dimension, so it goes out at once as a single-metric line.
 */
export class PowertoolsMetrics implements Metrics {
  constructor(private readonly metrics: Powertools = new Powertools({ namespace: METRICS_NAMESPACE })) {}

  scanStarted(): void {
    this.count(BUSINESS_METRICS.scansStarted);
  }

  scanCompleted(durationMs: number): void {
    this.count(BUSINESS_METRICS.scansCompleted);
    this.metrics.addMetric(BUSINESS_METRICS.scanDuration, MetricUnit.Milliseconds, durationMs);
  }

  scanFailed(): void {
    this.count(BUSINESS_METRICS.scansFailed);
  }

  checkTimed(checkId: string, durationMs: number): void {
    const single = this.metrics.singleMetric();
    single.addDimension(CHECK_DIMENSION, checkId);
    single.addMetric(BUSINESS_METRICS.checkDuration, MetricUnit.Milliseconds, durationMs);
  }

  emailSent(): void {
    this.count(BUSINESS_METRICS.emailsSent);
  }

  emailFailed(): void {
    this.count(BUSINESS_METRICS.emailsFailed);
  }

  notificationAbandoned(): void {
    this.count(BUSINESS_METRICS.notificationsAbandoned);
  }

  mailCeilingReached(): void {
    this.count(BUSINESS_METRICS.mailCeilingReached);
  }

  smsRefused(): void {
    this.count(BUSINESS_METRICS.smsRefused);
  }

  flush(): void {
    // Most API invocations record nothing: publishing an empty set would only log Powertools' warning.
    if (this.metrics.hasStoredMetrics()) this.metrics.publishStoredMetrics();
  }

  private count(name: BusinessMetric): void {
    this.metrics.addMetric(name, MetricUnit.Count, 1);
  }
}
