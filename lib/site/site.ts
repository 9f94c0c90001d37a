import { type CfnElement, CfnOutput, DefaultStackSynthesizer, Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { RUNTIME_CONFIG_PATH, type RuntimeConfig } from '../../lambdas/domain/runtime-config.js';
import { BOT_MARKERS } from '../../lambdas/domain/bots.js';
import { ORIGIN_VERIFY_HEADER } from '../../lambdas/api/origin-verify.js';
import { ASSET_MANIFEST_KEY, AssetRetention, buildAssetKeys, RETIRED_STATE_KEY } from './asset-retention.js';
import { responseHeadersFrom } from './response-headers.js';
import { HSTS_MAX_AGE_SECONDS, siteSecurityHeaders, WAZUH_TEST_PAGE_PATHS, wazuhTestSecurityHeaders } from './security-headers.js';
import { API_PATH_PREFIXES, renderReportPdfRewriteFunction, renderViewerRequestFunction, REPORT_PDF_PATH_PATTERN } from './viewer-request-function.js';

/** Badges are cached at the edge as long as the API says (`max-age=300`): a fresh scan shows within five minutes. */
export const BADGE_CACHE_SECONDS = 300;
/** The only query parameters a badge varies by (badgeQuerySchema): anything else, a cache-buster, shares the cached copy. */
export const BADGE_QUERY_KEYS = ['theme', 'size', 'style'] as const;

/** The /verify page's data, cached at the edge like the badge (before `/api/*`, which is never cached). */
export const BADGE_STATUS_PATH_PATTERN = '/api/badges/*';

/** Vite's output folder for content-hashed files. */
export const HASHED_ASSETS_PREFIX = 'assets/';

export interface SiteProps {
  /** Host name of the HTTP API (`{apiId}.execute-api.{region}.amazonaws.com`). */
  readonly apiDomainName: string;
  /**
   * Sent in `x-origin-verify` on every request to the API origin, which refuses requests without it
   * (lambdas/api/http.ts requireOrigin). A deploy-time reference, never a literal.
   */
  readonly apiOriginVerifyValue: string;
  readonly logBucket: IBucket;
  /** The built frontend to upload; absent = no upload (synth without a frontend build). */
  readonly frontendDist?: string;
  readonly customDomain?: { readonly domainName: string; readonly certificateArn: string };
  /** Written as `/runtime-config.json` beside index.html: what the browser signs in with. */
  readonly runtimeConfig: RuntimeConfig;
  /** An AWS WAF web ACL is attached to the distribution (setting `waf`, lib/site/edge-firewall.ts). */
  readonly webAcl: boolean;
}

/**
 * The site: a private S3 bucket behind CloudFront (origin access control), the security
 * headers from lib/site/security-headers.ts, `/api/*`, `/badge/*` and `/agents/*` to the HTTP API
 * (with the `x-origin-verify` header the API requires), and a viewer-request function for bots and SPA routes.
 */
export class Site extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly viewerRequest: CloudFrontFunction;
  readonly url: string;
  /** The daily cleanup of retired hashed assets; only with a frontend build to deploy. */
  readonly assetRetention?: AssetRetention;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'site/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const siteHeaders = new ResponseHeadersPolicy(this, 'SiteHeaders', {
      comment: 'Site security headers (lib/site/security-headers.ts)',
      ...responseHeadersFrom(siteSecurityHeaders),
    });
    // The Wazuh tester alone may call any https origin (the user's own manager, SPEC §7).
    const wazuhTestHeaders = new ResponseHeadersPolicy(this, 'WazuhTestHeaders', {
      comment: 'Wazuh tester page: the site headers, connect-src https:',
      ...responseHeadersFrom(wazuhTestSecurityHeaders),
    });
    // API answers and badges set their own content headers; CORP/CSP from the site would stop the
    // badge from being embedded on customers' pages, so the API gets transport headers only.
    const apiHeaders = new ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: 'API and badge: HSTS and nosniff only',
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
      },
    });

    this.viewerRequest = new CloudFrontFunction(this, 'ViewerRequest', {
      comment: 'Bots get /crawler.html; SPA routes get /index.html',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(renderViewerRequestFunction(BOT_MARKERS)),
    });

    const reportPdfRewrite = new CloudFrontFunction(this, 'ReportPdfRewrite', {
      comment: '/reports/{id}.pdf -> /api/audits/{id}/report.pdf',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(renderReportPdfRewriteFunction()),
    });

    // One origin for /api/*, /badge/*, /agents/* and the PDF rewrite: all of them carry the header.
    // CloudFront replaces a viewer's own x-origin-verify with this value.
    const apiOrigin = new HttpOrigin(props.apiDomainName, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      customHeaders: { [ORIGIN_VERIFY_HEADER]: props.apiOriginVerifyValue },
    });
    const apiBehavior: BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // With caching disabled this forwards Authorization too (the JWT for `user` routes).
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: apiHeaders,
      compress: true,
    };

    // Badges are embedded on customers' pages and fetched by every visitor: cached briefly at the edge,
    // one copy per theme, size and style.
    const badgeCache = new CachePolicy(this, 'BadgeCache', {
      comment: 'Badges: the API’s max-age (5 minutes), keyed by theme, size and style',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(BADGE_CACHE_SECONDS),
      maxTtl: Duration.seconds(BADGE_CACHE_SECONDS),
      queryStringBehavior: CacheQueryStringBehavior.allowList(...BADGE_QUERY_KEYS),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const badgeBehavior: BehaviorOptions = {
      ...apiBehavior,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: badgeCache,
      // The badge varies by nothing a viewer sends but its query: no headers, cookies or tokens reach the origin.
      originRequestPolicy: undefined,
    };

    // The /verify page's data (GET /api/badges/{domain}) is public and the same for every viewer: cached
    // like the badge (the handler's max-age), one copy per domain, so a burst of requests reaches the
    // table once per edge and five minutes. Ahead of /api/* (CloudFront takes the first pattern that matches).
    const badgeStatusCache = new CachePolicy(this, 'BadgeStatusCache', {
      comment: 'Badge status (/api/badges/*): the API’s max-age (5 minutes), keyed by path only',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(BADGE_CACHE_SECONDS),
      maxTtl: Duration.seconds(BADGE_CACHE_SECONDS),
      queryStringBehavior: CacheQueryStringBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const badgeStatusBehavior: BehaviorOptions = { ...badgeBehavior, cachePolicy: badgeStatusCache };

    const siteBehavior: BehaviorOptions = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: siteHeaders,
      compress: true,
      functionAssociations: [{ function: this.viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }],
    };

    const custom = props.customDomain;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Site and API',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      // Customers are in Australia first: the cheaper price classes leave out its edge locations.
      priceClass: PriceClass.PRICE_CLASS_ALL,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'cloudfront/',
      ...(custom
        ? {
            domainNames: [custom.domainName],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', custom.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: siteBehavior,
      additionalBehaviors: {
        ...Object.fromEntries(WAZUH_TEST_PAGE_PATHS.map((path) => [path, { ...siteBehavior, responseHeadersPolicy: wazuhTestHeaders }])),
        [BADGE_STATUS_PATH_PATTERN]: badgeStatusBehavior,
        ...Object.fromEntries(API_PATH_PREFIXES.map((prefix) => [`${prefix}*`, prefix === '/badge/' ? badgeBehavior : apiBehavior])),
        [REPORT_PDF_PATH_PATTERN]: {
          ...apiBehavior,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          functionAssociations: [{ function: reportPdfRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
      },
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'No geo restriction: the free scan and the reports are offered to any country.',
    });
    if (!props.webAcl) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'waf=off: the operator chose no web ACL (its cost: README). Left: the API stage and per-route throttles (lib/api/throttles.ts) and the handlers\' rate limits per IP, email and target; no per-address limit at the edge and no managed rules.',
      });
    }
    if (!custom) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose policy CloudFront fixes; configure siteDomain + certificateArn to enforce TLSv1.2_2021.',
      });
    }

    this.url = `https://${custom ? custom.domainName : this.distribution.distributionDomainName}`;

    if (props.frontendDist) {
      // Same caching as the local server: hashed build assets are immutable, everything else
      // (index.html, crawler.html, favicon) is revalidated. Each deployment excludes the other's
      // files, so pruning one never deletes the other's. The hashed assets are never pruned: an open
      // browser still lazy-loads the previous build's chunks; the daily cleanup deletes them a week
      // after this deploy retired them (lib/site/asset-retention.ts says why not a lifecycle rule).
      const immutable = new BucketDeployment(this, 'DeployAssets', {
        sources: [Source.asset(props.frontendDist)],
        destinationBucket: this.bucket,
        exclude: ['*'],
        include: [`${HASHED_ASSETS_PREFIX}*`],
        cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
        prune: false,
        memoryLimit: 512,
      });
      const pages = new BucketDeployment(this, 'DeployPages', {
        // Tokens (pool and client ids) are resolved at deploy time by the deployment's handler.
        sources: [
          Source.asset(props.frontendDist),
          Source.jsonData(RUNTIME_CONFIG_PATH.slice(1), props.runtimeConfig),
          // This build's assets: what the cleanup keeps.
          Source.jsonData(ASSET_MANIFEST_KEY, { prefix: HASHED_ASSETS_PREFIX, assets: buildAssetKeys(props.frontendDist, HASHED_ASSETS_PREFIX) }),
        ],
        destinationBucket: this.bucket,
        // The cleanup's own list of retired assets survives the pruning of the pages.
        exclude: [`${HASHED_ASSETS_PREFIX}*`, RETIRED_STATE_KEY],
        cacheControl: [CacheControl.noCache()],
        prune: true,
        memoryLimit: 512,
        distribution: this.distribution,
        distributionPaths: ['/*'],
      });
      // Pages reference assets: upload those first.
      pages.node.addDependency(immutable);
      acknowledgeBucketDeployment(pages, this.bucket);
      this.assetRetention = new AssetRetention(this, 'AssetRetention', { bucket: this.bucket, prefix: HASHED_ASSETS_PREFIX });
    }

    // Stack-level outputs, so their names stay plain (SiteUrl, not SiteSiteUrlE861AA01).
    const stack = Stack.of(this);
    new CfnOutput(stack, 'SiteUrl', { value: this.url, description: 'The site' });
    new CfnOutput(stack, 'DistributionId', { value: this.distribution.distributionId });
    new CfnOutput(stack, 'SiteBucketName', { value: this.bucket.bucketName });
  }
}

/**
 * BucketDeployment's handler is a CDK-provided singleton at stack level, not under the construct,
 * so its findings are acknowledged on the handler itself, one by one.
 */
function acknowledgeBucketDeployment(deployment: BucketDeployment, siteBucket: Bucket): void {
  const handler = deployment.handlerRole.node.scope;
  if (!handler) throw new Error('BucketDeployment handler not found');
  const stack = Stack.of(deployment);
  const siteBucketArn = `<${stack.getLogicalId(siteBucket.node.defaultChild as CfnElement)}.Arn>`;
  const readAssets = 'It reads the uploaded build from the CDK asset bucket';
  const writeSite = 'it replaces and prunes objects in the site bucket';
  const findings: Record<string, string> = {
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
      'The basic execution role only writes the handler’s own logs.',
    'AwsSolutions-L1': 'The handler’s runtime is chosen and maintained by aws-cdk-lib.',
    'AwsSolutions-IAM5[Action::s3:GetObject*]': `${readAssets} and ${writeSite}.`,
    'AwsSolutions-IAM5[Action::s3:GetBucket*]': `${readAssets} and ${writeSite}.`,
    'AwsSolutions-IAM5[Action::s3:List*]': `${readAssets} and ${writeSite}.`,
    'AwsSolutions-IAM5[Action::s3:DeleteObject*]': `Pruning: ${writeSite}.`,
    'AwsSolutions-IAM5[Action::s3:Abort*]': `Multipart uploads: ${writeSite}.`,
    [`AwsSolutions-IAM5[Resource::${siteBucketArn}/*]`]: `Scoped to the site bucket: ${writeSite}.`,
    [`AwsSolutions-IAM5[Resource::${assetBucketArn(stack)}/*]`]: `${readAssets}.`,
    'AwsSolutions-IAM5[Resource::*]': 'CloudFront invalidations (cloudfront:CreateInvalidation) after upload.',
  };
  Validations.of(handler).acknowledge(...Object.entries(findings).map(([id, reason]) => ({ id, reason: `CDK BucketDeployment: ${reason}` })));
}

/** The bootstrap asset bucket's ARN as cdk-nag prints it (unresolved values as `<AWS::…>`). */
function assetBucketArn(stack: Stack): string {
  const qualifier =
    (stack.synthesizer instanceof DefaultStackSynthesizer ? stack.synthesizer.bootstrapQualifier : undefined) ??
    DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
  const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
  const partition = Token.isUnresolved(stack.partition) ? '<AWS::Partition>' : stack.partition;
  return `arn:${partition}:s3:::cdk-${qualifier}-assets-${account}-${region}`;
}
