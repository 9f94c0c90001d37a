import { CfnOutput, Lazy, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Config } from '../lambdas/config.js';
import type { RouteDefinition } from '../lambdas/routes.js';
import { Alarms } from './alarms/alarms.js';
import { OperationsDashboard } from './alarms/dashboard.js';
import { Api } from './api/api.js';
import { Auth } from './auth/auth.js';
import { Bindings } from './constructs/bindings.js';
import { bindParameterSecret } from './constructs/parameter-secrets.js';
import type { FunctionDefaults } from './constructs/project-function.js';
import { Data } from './data/data.js';
import { Notify } from './notify/notify.js';
import { ScannerEgress } from './scanning/scanner-egress.js';
import { SCAN_WORKER_TIMEOUT, Scanning } from './scanning/scanning.js';
import { MonitoringFanout } from './schedule/monitoring-fanout.js';
import { Schedule } from './schedule/schedule.js';
import { Site } from './site/site.js';
import type { StackConfig } from './stack-config.js';
import { Storage } from './storage/storage.js';

export interface ProductStackProps extends StackProps {
  readonly config: StackConfig;
  /** The route manifest (lambdas/routes.ts). */
  readonly routes: readonly RouteDefinition[];
  /** The built frontend to deploy, when there is one. */
  readonly frontendDist?: string;
}

/** The configuration key (lambdas/config.ts) the public scanner page's route reads the fixed addresses from. */
export const SCANNER_EGRESS_KEY = 'SCANNER_EGRESS_ADDRESSES' satisfies keyof Config;
/** The route that publishes them (lambdas/routes.ts): GET /api/scanner, for the /scanner page. */
export const SCANNER_INFO_PATH = '/api/scanner';

/** The whole product on AWS: one stack, one construct per concern. */
export class ProductStack extends Stack {
  readonly data: Data;
  readonly auth: Auth;
  readonly storage: Storage;
  readonly notify: Notify;
  readonly scanning: Scanning;
  /** Only with `scannerEgress=fixed`. */
  readonly scannerEgress?: ScannerEgress;
  readonly api: Api;
  readonly site: Site;
  readonly schedule: Schedule;
  /** The monitoring-fanout queue and its worker (issue 30 item 3). */
  readonly monitoringFanout: MonitoringFanout;
  readonly alarms: Alarms;
  readonly dashboard: OperationsDashboard;

  constructor(scope: Construct, id: string, props: ProductStackProps) {
    super(scope, id, props);
    const { config } = props;
    // Not on the dashboard: CloudFormation's AWS::CloudWatch::Dashboard takes no Tags in us-east-1 (cfn-lint
    // E3002 there; test/infra/cfn-lint.test.ts lints every deploy region), and a dashboard costs nothing to allocate.
    Tags.of(this).add('product', config.slug, { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] });
    if (config.stage) Tags.of(this).add('stage', config.stage, { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] });

    // SITE_URL is the CloudFront address, known only once the site exists (the site needs the API).
    let site: Site | undefined;
    const defaults: FunctionDefaults = {
      productName: config.productName,
      serviceName: config.stackName,
      logLevel: config.logLevel,
      environment: config.environment,
      siteUrl: Lazy.string({
        produce: () => {
          if (!site) throw new Error('SITE_URL read before the site was built');
          return site.url;
        },
      }),
    };

    this.data = new Data(this, 'Data');
    this.notify = new Notify(this, 'Notify', { mailFrom: config.mailFrom, mailDomain: config.mailDomain, slug: config.stackName });
    this.auth = new Auth(this, 'Auth', {
      productName: config.productName,
      mailer: config.userPoolEmail === 'ses' ? { ...this.notify.mailer, mailDomain: config.mailDomain } : undefined,
    });
    this.storage = new Storage(this, 'Storage');
    if (config.scannerEgress === 'fixed') {
      this.scannerEgress = new ScannerEgress(this, 'ScannerEgress', { natGateways: config.scannerNatGateways });
    }
    this.scanning = new Scanning(this, 'Scanning', {
      defaults,
      egress: this.scannerEgress,
      concurrency: { free: config.scanConcurrencyFree, paid: config.scanConcurrencyPaid, monitoring: config.scanConcurrencyMonitoring },
      memorySize: config.scanWorkerMemory,
    });

    this.monitoringFanout = new MonitoringFanout(this, 'MonitoringFanout', { defaults });
    const bindings = new Bindings({
      table: this.data.table,
      scanQueues: this.scanning.queues,
      fanoutQueue: this.monitoringFanout.queue,
      mailer: this.notify.mailer,
      reports: this.storage.reports,
      userPool: { pool: this.auth.userPool, client: this.auth.client },
      payments: config.stripeParameterPath
        ? { secretKeyParameter: `${config.stripeParameterPath}/secret-key`, webhookSecretParameter: `${config.stripeParameterPath}/webhook-secret` }
        : undefined,
    });
    const scanWorker = this.scanning.addWorker(bindings);
    if (config.hibpParameter) bindParameterSecret(scanWorker, 'HIBP_API_KEY', config.hibpParameter);

    this.api = new Api(this, 'Api', {
      routes: props.routes,
      userPool: this.auth.userPool,
      userPoolClient: this.auth.client,
      bindings,
      defaults,
      originVerifyVersion: config.originVerifyVersion,
      canary: config.canary === 'on',
    });
    if (this.scannerEgress) {
      const publishers = new Set(props.routes.filter((route) => route.method === 'GET' && route.path === SCANNER_INFO_PATH).map((route) => route.fn));
      if (publishers.size === 0) throw new Error(`scannerEgress=fixed: no route serves GET ${SCANNER_INFO_PATH}, where the addresses are published`);
      for (const name of publishers) this.api.functions.get(name)!.addEnvironment(SCANNER_EGRESS_KEY, this.scannerEgress.addressList);
    }
    this.site = site = new Site(this, 'Site', {
      apiDomainName: this.api.domainName,
      apiOriginVerifyValue: this.api.originVerifyValue,
      logBucket: this.storage.logs,
      frontendDist: props.frontendDist,
      // On AWS the browser signs in with SRP straight to Cognito; no demo credentials are published.
      runtimeConfig: {
        auth: { userPoolId: this.auth.userPool.userPoolId, userPoolClientId: this.auth.client.userPoolClientId, authFlowType: 'USER_SRP_AUTH' },
      },
      webAcl: config.waf === 'on',
      customDomain:
        config.siteDomain && config.certificateArn
          ? { domainName: config.siteDomain, certificateArn: config.certificateArn }
          : undefined,
    });
    // The API functions require the origin header once updated: update them only after CloudFront
    // sends it (CloudFormation waits for the distribution to deploy), so switching the check on never
    // refuses the site's own requests.
    for (const fn of this.api.functions.values()) fn.node.addDependency(this.site.distribution);
    this.schedule = new Schedule(this, 'Schedule', { bindings, defaults });
    this.monitoringFanout.addWorker(bindings);
    // Last: the alarms and the dashboard cover every function the stack has built by now.
    this.alarms = new Alarms(this, 'Alarms', {
      serviceName: config.stackName,
      httpApi: this.api.httpApi,
      throttledRequests: this.api.throttledRequests,
      scanQueues: Object.values(this.scanning.queues),
      deadLetterQueues: [...Object.values(this.scanning.deadLetterQueues), this.monitoringFanout.deadLetters],
      scanWorker: { fn: scanWorker, timeout: SCAN_WORKER_TIMEOUT },
      // The site's daily asset cleanup too, when there is a build to deploy.
      scheduledRules: [...this.schedule.rules, ...(this.site.assetRetention ? [this.site.assetRetention.rule] : [])],
      alarmEmail: config.alarmEmail,
    });
    // A canary of an API function's new version rolls back when the function's error alarm fires.
    for (const fn of this.api.functions.values()) this.api.releases.rollbackOn(fn, this.alarms.errorAlarms.get(fn)!);
    this.dashboard = new OperationsDashboard(this, 'Operations', {
      serviceName: config.stackName,
      httpApi: this.api.httpApi,
      scanQueue: this.scanning.queue,
      deadLetterQueues: Object.values(this.scanning.deadLetterQueues),
      configurationSetName: this.notify.mailer.configurationSet.configurationSetName,
      alarms: this.alarms.all,
    });

    // What the frontend build and operators need (see README: deploying).
    new CfnOutput(this, 'UserPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.auth.client.userPoolClientId });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'ScanQueueUrl', { value: this.scanning.queue.queueUrl });
    new CfnOutput(this, 'PaidScanQueueUrl', { value: this.scanning.queues.paid.queueUrl });
    new CfnOutput(this, 'MonitoringScanQueueUrl', { value: this.scanning.queues.monitoring.queueUrl });
    new CfnOutput(this, 'ReportsBucketName', { value: this.storage.reports.bucketName });
    new CfnOutput(this, 'DistributionDomainName', {
      description: "CloudFront's domain: the CNAME target for siteDomain (README: a custom domain for the site)",
      value: this.site.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'AlarmTopicArn', { description: 'Operator alarms: subscribe to this SNS topic (README)', value: this.alarms.topic.topicArn });
    if (this.scannerEgress) {
      new CfnOutput(this, 'ScannerEgressAddresses', {
        description: 'The fixed addresses scans come from (scannerEgress=fixed), comma-separated; also on the /scanner page',
        value: this.scannerEgress.addressList,
      });
    }
    new CfnOutput(this, 'DashboardName', { description: 'The operations dashboard in CloudWatch', value: this.dashboard.dashboard.dashboardName });
  }
}
