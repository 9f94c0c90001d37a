import { Duration, RemovalPolicy, SecretValue, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, LogGroup, MetricFilter, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Config } from '../../lambdas/config.js';
import { LOG_RETENTION_DAYS } from '../../lambdas/domain/retention.js';
import { type ApiFunctionName, apiFunctions, type RouteAuth, type RouteDefinition, tableAccessOf } from '../../lambdas/routes.js';
import { METRICS_NAMESPACE } from '../../lambdas/domain/metrics.port.js';
import type { Bindings } from '../constructs/bindings.js';
import { ROUTE_THROTTLES, routeSettingsOf } from './throttles.js';
import { Releases } from './releases.js';
import { type FunctionDefaults, ProjectFunction } from '../constructs/project-function.js';

/** The configuration key (lambdas/config.ts) every API function gets the origin secret in. */
export const ORIGIN_VERIFY_KEY = 'ORIGIN_VERIFY_SECRET' satisfies keyof Config;

/**
 * The stage's default route throttling (each route its own bucket at this rate); routes with their own
 * class (polling, agents, the webhook, public writes) get theirs as route settings (lib/api/throttles.ts).
 */
export const API_THROTTLE = ROUTE_THROTTLES.default;

/** The access logs' metric of requests answered 429 (API Gateway's throttles and the handlers' limits). */
export const API_THROTTLED_METRIC = 'ApiThrottledRequests';

/** Why a route has no API Gateway authorizer (cdk-nag APIG4 acknowledgement reasons). */
const UNAUTHORIZED_ROUTE_REASONS: Record<Exclude<RouteAuth, 'user'>, string> = {
  public: 'Public by design (the free scan, its results, health); the handler validates input and applies anti-abuse rate limits.',
  agent: 'Endpoint agents authenticate in the handler with their per-agent secret; API Gateway has no authorizer for it.',
  webhook: 'Payment webhooks authenticate in the handler by verifying the provider signature header.',
  'api-token': 'The public API (/api/v1) authenticates personal API tokens in the handler (SHA-256 lookup, per-token rate limit); a Cognito JWT is not what its callers hold.',
};

export interface ApiProps {
  readonly routes: readonly RouteDefinition[];
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;
  readonly bindings: Bindings;
  readonly defaults: FunctionDefaults;
  /** The origin secret's version to resolve (stack setting originVerifyVersion); none = its current one. */
  readonly originVerifyVersion?: string;
  /** Deploy setting `canary`: new code takes 10% of a function's requests for 5 minutes first (lib/api/releases.ts). @default true */
  readonly canary?: boolean;
}

const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/**
 * The HTTP API: one Lambda per area and one route per manifest entry (`lambdas/routes.ts`), a JWT
 * authorizer on the user pool for `user` routes (public `optionalAuth` routes verify an optional
 * token in the Lambda instead), JSON access logs and default throttling.
 * No CORS: the browser reaches the API through CloudFront on the site's own origin.
 */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  /** The API's functions, by area (lambdas/routes.ts `apiFunctions`). */
  readonly functions: ReadonlyMap<ApiFunctionName, ProjectFunction>;
  /** Each function's alias `live` (what API Gateway invokes) and, with the canary on, its CodeDeploy deployment group. */
  readonly releases: Releases;
  /** Generated at deploy time; CloudFront sends it in `x-origin-verify` and every API function requires it. */
  readonly originVerifySecret: Secret;
  /** Requests answered 429, a five-minute sum (from the access logs). */
  readonly throttledRequests: Metric;
  /** The `{{resolve:secretsmanager:…}}` reference to its value (pinned to originVerifyVersion when given): the distribution's header and the functions' ORIGIN_VERIFY_SECRET. */
  readonly originVerifyValue: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${Stack.of(this).stackName}-api`,
      createDefaultStage: false,
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: LOG_RETENTION_DAYS.apiAccessLogs satisfies RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            apiId: '$context.apiId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });

    // Every 429 the API answers, counted from the access logs (HTTP APIs publish 4xx, not 429, as a metric).
    new MetricFilter(this, 'ThrottledRequests', {
      logGroup: accessLogs,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: METRICS_NAMESPACE,
      metricName: API_THROTTLED_METRIC,
      metricValue: '1',
      // By API, as AWS/ApiGateway counts: stacks sharing an account (and a namespace) stay apart.
      dimensions: { ApiId: '$.apiId' },
    });
    this.throttledRequests = new Metric({
      namespace: METRICS_NAMESPACE,
      metricName: API_THROTTLED_METRIC,
      dimensionsMap: { ApiId: this.httpApi.apiId },
      period: Duration.minutes(5),
      statistic: 'Sum',
    });

    const authorizer = new HttpUserPoolAuthorizer('UserPoolAuthorizer', props.userPool, {
      userPoolClients: [props.userPoolClient],
    });

    const noAuthorizer = new HttpNoneAuthorizer();

    // The execute-api address answers anyone; only requests CloudFront forwards carry this value
    // (lambdas/api/http.ts requireOrigin). Secrets Manager generates it when the stack is created,
    // so it is in neither the repository nor the template.
    this.originVerifySecret = new Secret(this, 'OriginVerifySecret', {
      description: 'x-origin-verify: the header value CloudFront sends to the API',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.originVerifySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'CloudFront origin headers cannot read Secrets Manager: the value is resolved into the distribution and the functions at deploy time, so an automatic rotation would not reach them (README "The API only through CloudFront" says how to rotate).',
    });
    // unsafeUnwrap gives a `{{resolve:secretsmanager:…}}` dynamic reference, not the value: CloudFormation
    // resolves it at deploy time. The value then sits in the functions' configuration, as it must in the
    // distribution's (CloudFront keeps origin headers in plain text); reading it at cold start instead would
    // cost a Secrets Manager call per cold start and hide nothing CloudFront does not already show.
    // A version in the reference changes the template when the operator rotates the value, so CloudFormation
    // resolves it again for the distribution and every function (without one, a deploy re-reads nothing).
    const originVerifyValue = (
      props.originVerifyVersion
        ? SecretValue.secretsManager(this.originVerifySecret.secretArn, { versionId: props.originVerifyVersion })
        : this.originVerifySecret.secretValue
    ).unsafeUnwrap();
    this.originVerifyValue = originVerifyValue;

    // One function per area (lambdas/routes.ts `apiFunctions`), granted exactly the union of its routes'
    // `uses`, with one integration; API Gateway may invoke it on any of the API's routes (one permission
    // per function, not per route), so a new route adds one resource: its HttpRoute.
    const functions = new Map<ApiFunctionName, ProjectFunction>();
    const integrations = new Map<ApiFunctionName, HttpLambdaIntegration>();
    this.releases = new Releases(this, 'Releases', { canary: props.canary ?? true });
    for (const name of Object.keys(apiFunctions) as ApiFunctionName[]) {
      const served = props.routes.filter((route) => route.fn === name);
      if (served.length === 0) continue;
      const fn = new ProjectFunction(this, `${pascal(name)}Fn`, { bundle: name, defaults: props.defaults });
      // Read-only table access when every table route of the function only reads (lambdas/routes.ts tableAccess).
      props.bindings.bindAll(fn, [...new Set(served.flatMap((route) => route.uses))], { tableAccess: tableAccessOf(name, served) });
      fn.addEnvironment(ORIGIN_VERIFY_KEY, originVerifyValue);
      if (served.some((route) => route.optionalAuth)) props.bindings.bindTokenVerification(fn);
      functions.set(name, fn);
      // API Gateway invokes the alias, so a deploy's new version takes requests as the release moves it.
      integrations.set(name, new HttpLambdaIntegration(`${pascal(name)}Integration`, this.releases.live(pascal(name), fn), { scopePermissionToRoute: false }));
    }
    const httpRoutes: HttpRoute[] = [];
    for (const route of props.routes) {
      const httpRoute = new HttpRoute(this, `${pascal(route.name)}Route`, {
        httpApi: this.httpApi,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: integrations.get(route.fn)!,
        authorizer: route.auth === 'user' ? authorizer : noAuthorizer,
      });
      if (route.auth !== 'user') {
        Validations.of(httpRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason: UNAUTHORIZED_ROUTE_REASONS[route.auth] });
      }
      httpRoutes.push(httpRoute);
    }
    // Per-route throttles (lib/api/throttles.ts): a setting names a route key, which must exist first.
    const cfnStage = stage.node.defaultChild as CfnStage;
    cfnStage.routeSettings = routeSettingsOf(props.routes);
    for (const httpRoute of httpRoutes) cfnStage.node.addDependency(httpRoute);
    this.functions = functions;
  }

  /** The API's host name, for the CloudFront origin. */
  get domainName(): string {
    const stack = Stack.of(this);
    return `${this.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
  }
}
