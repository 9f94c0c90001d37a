import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS, CHECK_DIMENSION, METRICS_NAMESPACE } from '../../lambdas/domain/metrics.port.js';
import { MAIL_EVENT_DIMENSION, MAIL_EVENTS } from '../notify/notify.js';
import { businessMetric, SES_BOUNCE_RATE_LIMIT, SES_COMPLAINT_RATE_LIMIT, sesReputation } from './alarms.js';
import { functionKey, projectFunctions } from './project-functions.js';

const FIVE_MINUTES = Duration.minutes(5);
const WIDTH = 8;
const HEIGHT = 6;

export interface OperationsDashboardProps {
  /** The product slug: the `service` dimension of the business metrics. */
  readonly serviceName: string;
  readonly httpApi: IHttpApi;
  readonly scanQueue: Queue;
  readonly deadLetterQueues: readonly Queue[];
  /** The SES configuration set whose sending events are counted (lib/notify). */
  readonly configurationSetName: string;
  readonly alarms: readonly IAlarm[];
  /** @default every project function in the stack */
  readonly functions?: readonly LambdaFunction[];
}

/**
 * One CloudWatch dashboard for operators: the business metrics (scans, checks, emails), the API,
 * the scan queue, every function, SES, and the state of every alarm.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const business = (name: string, statistic: string, label = name) => businessMetric(name, props.serviceName, statistic).with({ label });
    const functions = props.functions ?? projectFunctions(this);
    const perFunction = (metric: (fn: LambdaFunction) => Metric) => functions.map((fn) => metric(fn).with({ label: functionKey(fn) }));
    const mailEvent = (metricName: keyof typeof MAIL_EVENTS) =>
      new Metric({
        namespace: 'AWS/SES',
        metricName,
        dimensionsMap: { [MAIL_EVENT_DIMENSION]: props.configurationSetName },
        period: FIVE_MINUTES,
        statistic: 'Sum',
        label: `SES ${metricName}`,
      });
    const graph = (title: string, left: IMetric[], more: Partial<ConstructorParameters<typeof GraphWidget>[0]> = {}) =>
      new GraphWidget({ title, left, width: WIDTH, height: HEIGHT, period: FIVE_MINUTES, ...more });

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(12) });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: `# ${props.serviceName}: operations\nBusiness metrics in namespace **${METRICS_NAMESPACE}** (dimension service=${props.serviceName}); alarms go to the AlarmTopicArn topic.`, width: 24, height: 2 }),
    );
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 4 }));
    this.dashboard.addWidgets(
      graph('Scans', [
        business(BUSINESS_METRICS.scansStarted, 'Sum', 'started'),
        business(BUSINESS_METRICS.scansCompleted, 'Sum', 'completed'),
        business(BUSINESS_METRICS.scansFailed, 'Sum', 'failed'),
      ]),
      graph('Scan duration (ms)', [
        business(BUSINESS_METRICS.scanDuration, 'p50', 'p50'),
        business(BUSINESS_METRICS.scanDuration, 'p90', 'p90'),
        business(BUSINESS_METRICS.scanDuration, 'Maximum', 'max'),
      ]),
      graph('Check duration p90 by check (ms)', [
        new MathExpression({
          expression: `SEARCH('{${METRICS_NAMESPACE},${CHECK_DIMENSION},service} MetricName="${BUSINESS_METRICS.checkDuration}" service="${props.serviceName}"', 'p90', ${FIVE_MINUTES.toSeconds()})`,
          label: '',
          period: FIVE_MINUTES,
        }),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Emails', [
        business(BUSINESS_METRICS.emailsSent, 'Sum', 'sent'),
        business(BUSINESS_METRICS.emailsFailed, 'Sum', 'failed'),
        business(BUSINESS_METRICS.notificationsAbandoned, 'Sum', 'notifications abandoned'),
        business(BUSINESS_METRICS.mailCeilingReached, 'Sum', 'refused by the mail ceiling'),
        business(BUSINESS_METRICS.smsRefused, 'Sum', 'SMS refused (country not in SMS_COUNTRIES)'),
      ]),
      graph('SES sending events', (Object.keys(MAIL_EVENTS) as (keyof typeof MAIL_EVENTS)[]).map(mailEvent)),
      graph('SES reputation (account)', [sesReputation('Reputation.BounceRate').with({ label: 'bounce rate' }), sesReputation('Reputation.ComplaintRate').with({ label: 'complaint rate' })], {
        leftAnnotations: [
          { value: SES_BOUNCE_RATE_LIMIT, label: 'bounce alarm' },
          { value: SES_COMPLAINT_RATE_LIMIT, label: 'complaint alarm' },
        ],
      }),
    );
    this.dashboard.addWidgets(
      graph('API requests and errors', [
        props.httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum', label: 'requests' }),
        props.httpApi.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum', label: '4xx' }),
        props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum', label: '5xx' }),
      ]),
      graph('API latency (ms)', ['p50', 'p90', 'p99'].map((statistic) => props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic, label: statistic }))),
      graph(
        'Scan queue',
        [
          props.scanQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum', label: 'waiting' }),
          props.scanQueue.metricApproximateNumberOfMessagesNotVisible({ period: FIVE_MINUTES, statistic: 'Maximum', label: 'in progress' }),
          ...props.deadLetterQueues.map((queue) =>
            queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum', label: `${queue.node.id} (dead letters)` }),
          ),
        ],
        { right: [props.scanQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum', label: 'oldest job age (s)' })] },
      ),
    );
    this.dashboard.addWidgets(
      graph('Function errors', perFunction((fn) => fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }))),
      graph('Function throttles', perFunction((fn) => fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }))),
      graph('Function duration p90 (ms)', perFunction((fn) => fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p90' }))),
    );
  }
}
