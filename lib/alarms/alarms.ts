import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IRule } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS, METRICS_NAMESPACE } from '../../lambdas/domain/metrics.port.js';
import { SCAN_DURATION_ALARM_SHARE, SCAN_QUEUE_VISIBILITY_TIMEOUT } from '../scanning/scanning.js';
import { functionKey, projectFunctions } from './project-functions.js';

const FIVE_MINUTES = Duration.minutes(5);

/** The API's 5xx share (percent of requests, over five minutes, twice running) that alarms. */
export const API_5XX_RATE_PERCENT = 5;
/** Below this many requests in five minutes a rate says little (one 5xx in three requests): the alarm waits for volume. */
export const API_5XX_MIN_REQUESTS = 20;
/**
 * The API's 4xx share that alarms (over five minutes, twice running, from 100 requests): the site's own
 * traffic answers 4xx rarely (a wrong code, an expired link), so a quarter of all answers is a scraper,
 * a flood the handlers refuse, or a release that broke a request.
 */
export const API_4XX_RATE_PERCENT = 25;
export const API_4XX_MIN_REQUESTS = 100;
/** The share of requests answered 429 (throttled or rate-limited) that alarms: customers are being turned away. */
export const API_429_RATE_PERCENT = 2;
/**
 * A job normally starts within seconds. One older than two visibility timeouts is waiting behind a
 * backlog the capped workers cannot clear, or has failed twice: either way someone should look
 * before the sweeper ends its audit as failed.
 */
export const SCAN_QUEUE_AGE_LIMIT = Duration.seconds(2 * SCAN_QUEUE_VISIBILITY_TIMEOUT.toSeconds());
/**
 * SES puts an account under review from a 5% bounce rate and may pause its sending from 10%; for
 * complaints, from 0.1% and 0.5%. The metrics are ratios (0.05 is 5%). The alarms sit at the review
 * thresholds, well below a pause.
 */
export const SES_BOUNCE_RATE_LIMIT = 0.05;
export const SES_COMPLAINT_RATE_LIMIT = 0.001;

export interface AlarmsProps {
  /** The product slug: the `service` dimension of the business metrics (POWERTOOLS_SERVICE_NAME). */
  readonly serviceName: string;
  readonly httpApi: IHttpApi;
  /** Requests the API answered 429, a five-minute sum (lib/api/api.ts throttledRequests). */
  readonly throttledRequests?: IMetric;
  /** The scan queues (one per lane): each one's oldest message alarms. */
  readonly scanQueues: readonly Queue[];
  /** The scan worker and its timeout: its p99 duration near the timeout alarms (scans about to be cut off). */
  readonly scanWorker?: { readonly fn: LambdaFunction; readonly timeout: Duration };
  /** Every dead-letter queue: a message in any of them gave up after all its retries. */
  readonly deadLetterQueues: readonly Queue[];
  /** EventBridge schedules whose failed deliveries alarm (their functions' errors alarm as every function's do). */
  readonly scheduledRules: readonly IRule[];
  /** Who hears about alarms; without it the alarms still show in CloudWatch (README: subscribing to alarms). */
  readonly alarmEmail?: string;
  /** @default every project function in the stack (projectFunctions), checked again at synth */
  readonly functions?: readonly LambdaFunction[];
}

/**
 * Operator alarms, all published to one SNS topic (output AlarmTopicArn): each function's errors and
 * throttles, the API's 5xx rate, the scan queue's oldest message, every dead-letter queue, SES
 * bounce and complaint rates, failed scheduled runs, notifications given up and the mail ceiling reached.
 */
export class Alarms extends Construct {
  readonly topic: Topic;
  /** Every alarm, for the dashboard's status widget. */
  readonly all: Alarm[] = [];
  /** Each function's error alarm (a canary deployment of an API function rolls back on it: lib/api/releases.ts). */
  readonly errorAlarms = new Map<LambdaFunction, Alarm>();
  readonly deadLetterAlarm: Alarm;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Operator alarms', enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm notifications carry only alarm names and states; CloudWatch cannot publish to a topic under the AWS-managed SNS key, and a customer key is not warranted for this content.',
    });
    // A topic policy replaces SNS's default one, and enforceSSL makes one: without this Allow no alarm
    // could publish ("no resource-based policy allows the SNS:Publish action" in the alarm's history).
    // Only this account's alarms, by source account and alarm ARN (the confused-deputy conditions).
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudWatchAlarmsToPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }) },
        },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    this.action = new SnsAction(this.topic);

    // Functions: any unhandled error or timeout (an API handler maps its own failures to replies, so
    // one here is a bug or an outage; a scheduled run's error is a failed run), and any throttle.
    const functions = props.functions ?? projectFunctions(this);
    for (const fn of functions) {
      const key = functionKey(fn);
      this.errorAlarms.set(fn, this.alarm(`${key}Errors`, `${fn.node.path}: the function failed (unhandled error or timeout)`, fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }), 1));
      this.alarm(`${key}Throttles`, `${fn.node.path}: invocations were throttled (concurrency exhausted)`, fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }), 1);
    }
    if (!props.functions) {
      // A function added to the stack after this construct would otherwise go unwatched.
      const alarmed = new Set(functions);
      this.node.addValidation({
        validate: () =>
          projectFunctions(this)
            .filter((fn) => !alarmed.has(fn))
            .map((fn) => `${fn.node.path} was added after the alarms were built and has no error or throttle alarm: build Alarms last`),
      });
    }

    this.alarm(
      'Api5xxRate',
      `The API answered ${API_5XX_RATE_PERCENT}% or more of its requests with a 5xx, ten minutes running`,
      new MathExpression({
        expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
        usingMetrics: {
          errors: props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
          requests: props.httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
        },
        label: 'API 5xx (% of requests)',
        period: FIVE_MINUTES,
      }),
      API_5XX_RATE_PERCENT,
      2,
    );

    const requests = props.httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    this.alarm(
      'Api4xxRate',
      `The API answered ${API_4XX_RATE_PERCENT}% or more of its requests with a 4xx, ten minutes running (a flood, a scraper or a broken release)`,
      new MathExpression({
        expression: `IF(requests >= ${API_4XX_MIN_REQUESTS}, 100 * clientErrors / requests, 0)`,
        usingMetrics: { clientErrors: props.httpApi.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' }), requests },
        label: 'API 4xx (% of requests)',
        period: FIVE_MINUTES,
      }),
      API_4XX_RATE_PERCENT,
      2,
    );
    if (props.throttledRequests) {
      this.alarm(
        'Api429Rate',
        `The API answered ${API_429_RATE_PERCENT}% or more of its requests with 429 (throttled or rate-limited), ten minutes running`,
        new MathExpression({
          expression: `IF(requests >= ${API_4XX_MIN_REQUESTS}, 100 * FILL(throttled, 0) / requests, 0)`,
          usingMetrics: { throttled: props.throttledRequests, requests },
          label: 'API 429 (% of requests)',
          period: FIVE_MINUTES,
        }),
        API_429_RATE_PERCENT,
        2,
      );
    }

    for (const [index, queue] of props.scanQueues.entries()) {
      // The first queue keeps the alarm's original id (a deployed stack's alarm is not replaced).
      this.alarm(
        index === 0 ? 'ScanQueueAge' : `${queue.node.id}Age`,
        `${queue.node.path}: a scan job has waited ${SCAN_QUEUE_AGE_LIMIT.toMinutes()} minutes or more (a backlog, or a job failing its retries)`,
        queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        SCAN_QUEUE_AGE_LIMIT.toSeconds(),
      );
    }

    if (props.scanWorker) {
      const { fn, timeout } = props.scanWorker;
      const limitMs = Math.round(timeout.toMilliseconds() * SCAN_DURATION_ALARM_SHARE);
      this.alarm(
        'ScanDurationNearTimeout',
        `${fn.node.path}: the slowest 1% of scans took ${limitMs / 1000} s or more, ${SCAN_DURATION_ALARM_SHARE * 100}% of the ${timeout.toSeconds()} s timeout (scans are close to being cut off: more memory, or fewer checks per scan)`,
        fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' }),
        limitMs,
      );
    }

    const deadLetterAlarms = props.deadLetterQueues.map((queue) =>
      this.alarm(
        `${queue.node.id}Alarm`,
        `${queue.node.path}: a message failed all its retries and waits in the dead-letter queue`,
        queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        1,
      ),
    );
    if (!deadLetterAlarms[0]) throw new Error('Alarms needs the scan dead-letter queue');
    this.deadLetterAlarm = deadLetterAlarms[0];

    // Account-wide, as SES judges the account (the configuration set's own rates are on the dashboard).
    this.alarm('SesBounceRate', `SES bounce rate at ${SES_BOUNCE_RATE_LIMIT * 100}% or more (SES may pause sending from 10%)`, sesReputation('Reputation.BounceRate'), SES_BOUNCE_RATE_LIMIT);
    this.alarm('SesComplaintRate', `SES complaint rate at ${SES_COMPLAINT_RATE_LIMIT * 100}% or more (SES may pause sending from 0.5%)`, sesReputation('Reputation.ComplaintRate'), SES_COMPLAINT_RATE_LIMIT);

    for (const rule of props.scheduledRules) {
      this.alarm(
        `${rule.node.id}FailedInvocations`,
        `${rule.node.path}: EventBridge could not invoke the scheduled function`,
        new Metric({ namespace: 'AWS/Events', metricName: 'FailedInvocations', dimensionsMap: { RuleName: rule.ruleName }, period: FIVE_MINUTES, statistic: 'Sum' }),
        1,
      );
    }

    this.alarm(
      'NotificationsAbandoned',
      'A notification (email or SMS) was given up after its bounded retries',
      businessMetric(BUSINESS_METRICS.notificationsAbandoned, props.serviceName, 'Sum'),
      1,
    );

    // The product-wide ceiling on mail to addresses strangers give (MAIL_SENDS_PER_HOUR_LIMIT): reached
    // means someone is using the public routes to send mail from our domain, or the ceiling is too low.
    this.alarm(
      'MailCeilingReached',
      'A verification code or report email was refused by the product-wide hourly mail ceiling (MAIL_SENDS_PER_HOUR_LIMIT)',
      businessMetric(BUSINESS_METRICS.mailCeilingReached, props.serviceName, 'Sum'),
      1,
    );
  }

  /** An alarm at or above `threshold`, no data counting as fine, its action on the operator topic. */
  private alarm(id: string, description: string, metric: IMetric, threshold: number, evaluationPeriods = 1): Alarm {
    const alarm = new Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods,
      datapointsToAlarm: evaluationPeriods,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    this.all.push(alarm);
    return alarm;
  }
}

/** SES's account reputation (a ratio); published a few times an hour, so the largest value in a quarter. */
export function sesReputation(metricName: 'Reputation.BounceRate' | 'Reputation.ComplaintRate'): Metric {
  return new Metric({ namespace: 'AWS/SES', metricName, period: Duration.minutes(15), statistic: 'Maximum' });
}

/** A business metric (lambdas/domain/metrics.port.ts) of this deployment. */
export function businessMetric(metricName: string, serviceName: string, statistic: string, dimensions: Record<string, string> = {}): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service: serviceName, ...dimensions },
    period: FIVE_MINUTES,
    statistic,
  });
}
