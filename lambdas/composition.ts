import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import { CognitoTokens, cognitoIssuer } from './adapters/cognito-tokens.adapter.js';
import { CognitoUsers } from './adapters/cognito-users.adapter.js';
import { DynamoDbAgents } from './adapters/dynamodb-agents.adapter.js';
import { DynamoDbAccounts } from './adapters/dynamodb-accounts.adapter.js';
import { DynamoDbApiTokens } from './adapters/dynamodb-api-tokens.adapter.js';
import { DynamoDbAlertLog } from './adapters/dynamodb-alerts.adapter.js';
import { DynamoDbAuditRepository } from './adapters/dynamodb-audits.adapter.js';
import { DynamoDbBilling } from './adapters/dynamodb-billing.adapter.js';
import { DynamoDbDomains } from './adapters/dynamodb-domains.adapter.js';
import { DynamoDbIdempotencyStore } from './adapters/dynamodb-idempotency.adapter.js';
import { DynamoDbMonitoring } from './adapters/dynamodb-monitoring.adapter.js';
import { DynamoDbMonthlyReports } from './adapters/dynamodb-monthly-reports.adapter.js';
import { DynamoDbNotificationOutbox } from './adapters/dynamodb-notifications.adapter.js';
import { DynamoDbRateLimiter } from './adapters/dynamodb-rate-limits.adapter.js';
import { DynamoDbShareLinks } from './adapters/dynamodb-shares.adapter.js';
import { DynamoDbSigningKeys } from './adapters/dynamodb-signing-keys.adapter.js';
import { DynamoDbSecurityPolicies } from './adapters/dynamodb-policies.adapter.js';
import { DynamoDbPlatformStats } from './adapters/dynamodb-stats.adapter.js';
import { DynamoDbSupportRequests } from './adapters/dynamodb-support-requests.adapter.js';
import { DynamoDbEmailVerifications } from './adapters/dynamodb-verifications.adapter.js';
import { S3Blobs } from './adapters/s3-blobs.adapter.js';
import { SesMailer } from './adapters/ses-mailer.adapter.js';
import { OutboxSms, SnsSms } from './adapters/sms.adapter.js';
import { SqsScanJobs } from './adapters/sqs-scan-jobs.adapter.js';
import { LocalPayments } from './adapters/local-payments.adapter.js';
import { createStripeClient, StripePayments, stripeWebhookEvents } from './adapters/stripe-payments.adapter.js';
import { type Config, parseResolvers, paymentsSettings, productSlug, required } from './config.js';
import { UpstreamUnavailableError } from './domain/errors.js';
import { paymentMessages } from './domain/payments.contract.js';
import type { AgentRepository } from './domain/agents.js';
import type { ApiTokenRepository } from './domain/api-tokens.js';
import type { DomainRepository } from './domain/domains.js';
import type { MonthlyReportLog } from './domain/monthly-report.js';
import type { NotificationOutbox } from './domain/notifications.js';
import type { SupportRequests } from './domain/support.js';
import type { SecurityPolicyRepository } from './domain/security-policy.js';
import type { UserTokens } from './domain/user-tokens.js';
import type {
  AccountRepository,
  AlertLog,
  AuditRepository,
  BillingRepository,
  BlobStore,
  Clock,
  EmailVerifications,
  IdempotencyStore,
  Mailer,
  MonitoringRepository,
  PasswordBreachRanges,
  PaymentEvents,
  PaymentProvider,
  PlatformStats,
  RateLimiter,
  ScanJobs,
  ShareLinks,
  SigningKeys,
  SmsSender,
  UserDirectory,
} from './domain/ports.js';
import type { CheckDefinition, ScanSettings } from './scanner/check.js';
import { checksWith } from './scanner/checks/index.js';
import { createHibpClient } from './scanner/net/hibp-client.js';
import { fetchPasswordRange } from './scanner/pwned-passwords.js';

/** Everything a handler or worker may use. Each adapter is built on first use, once. */
export interface Deps {
  readonly config: Config;
  readonly log: Logger;
  readonly clock: Clock;
  readonly audits: AuditRepository;
  readonly accounts: AccountRepository;
  readonly scanJobs: ScanJobs;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  readonly reports: BlobStore;
  readonly users: UserDirectory;
  /** Signed-in users' tokens (Cognito JWTs), for `user` routes locally and the public routes that read an optional token. */
  readonly userTokens: UserTokens;
  readonly rateLimits: RateLimiter;
  readonly verifications: EmailVerifications;
  readonly idempotency: IdempotencyStore;
  readonly shares: ShareLinks;
  /** The customer's domains and started-scan count (Settings → Domains, Quick Scan). */
  readonly domains: DomainRepository;
  /** Custom security policies: findings a customer accepted or muted (Monitor Plus). */
  readonly policies: SecurityPolicyRepository;
  /** Rampart's own totals (GET /api/stats). */
  readonly stats: PlatformStats;
  /** Pwned Passwords range lookups for the sign-up form's breached-password check. */
  readonly pwnedPasswords: PasswordBreachRanges;
  /** Stripe, or the local test checkout without a key (README "Plans and payments"). */
  readonly payments: PaymentProvider;
  /** Webhook signature verification (Stripe's library, the configured or local signing secret). */
  readonly paymentEvents: PaymentEvents;
  /** Orders, invoices, processed events, customers and the scan allowance. */
  readonly billing: BillingRepository;
  /** Subscribers' rescan schedule (issue 8 "Monitoring"). */
  readonly monitoring: MonitoringRepository;
  /** Alerted changes (sent once), sent alerts and changes waiting for the next alert. */
  readonly alerts: AlertLog;
  /** The unsubscribe links' HMAC key. */
  readonly signingKeys: SigningKeys;
  /** Endpoint agents: enrollment secrets, agents and their scored reports (issue 10). */
  readonly agents: AgentRepository;
  /** Each subscriber's monthly reports: the scheduler's claim per month, then where the PDF is. */
  readonly monthlyReports: MonthlyReportLog;
  /** Support requests sent from the dashboard's Support page. */
  readonly supportRequests: SupportRequests;
  /** Personal API tokens (Settings → API, the `/api/v1` routes). */
  readonly apiTokens: ApiTokenRepository;
  /** Notifications waiting to be sent (again): the outbox the sweeper retries. */
  readonly notifications: NotificationOutbox;
  readonly scanSettings: ScanSettings;
  /** The checks every scan runs, bound to this deployment's breach lookup. */
  readonly scanChecks: readonly CheckDefinition[];
}

export const systemClock: Clock = { now: () => new Date() };

/** The sign-up form waits for the breached-password check at most this long, then goes on without it. */
const PASSWORD_RANGE_TIMEOUT_MS = 5_000;

/** Credentials for the emulators: s3rver accepts only this pair; the others accept any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * The one composition place. On AWS the endpoints are absent and the SDK finds AWS; on one
 * machine they point at the emulators. The adapters are the same either way.
 */
export function buildDeps(config: Config, overrides: Partial<Pick<Deps, 'clock' | 'log'>> = {}): Deps {
  const clientConfig = (endpoint: string | undefined) => ({
    region: config.AWS_REGION,
    ...(endpoint ? { endpoint, credentials: LOCAL_CREDENTIALS } : {}),
  });
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? new Logger({ serviceName: 'rampart', logLevel: config.LOG_LEVEL });
  const documentClient = once(() =>
    DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig(config.DYNAMODB_ENDPOINT)), {
      marshallOptions: { removeUndefinedValues: true },
    }),
  );

  // One client per process, so its pacing covers every scan here (HIBP limits per key).
  const hibp = once(() =>
    config.HIBP_API_KEY
      ? createHibpClient({
          apiKey: config.HIBP_API_KEY,
          baseUrl: config.HIBP_BASE_URL,
          passwordsBaseUrl: config.PWNED_PASSWORDS_URL,
          userAgent: `${productSlug(config.PRODUCT_NAME)}-security-scanner`,
          rateLimit: { requests: config.HIBP_REQUESTS_PER_MINUTE, windowMs: 60_000 },
        })
      : undefined,
  );

  const lazy = {
    audits: once(() => new DynamoDbAuditRepository(documentClient(), required(config, 'TABLE_NAME'), clock)),
    accounts: once(() => new DynamoDbAccounts(documentClient(), required(config, 'TABLE_NAME'), clock)),
    scanJobs: once(() => new SqsScanJobs(new SQSClient(clientConfig(config.SQS_ENDPOINT)), required(config, 'SCAN_QUEUE_URL'))),
    mailer: once(
      () => new SesMailer(new SESv2Client(clientConfig(config.SES_ENDPOINT)), required(config, 'MAIL_FROM'), config.SES_CONFIGURATION_SET),
    ),
    sms: once((): SmsSender =>
      config.SMS_MODE === 'outbox'
        ? new OutboxSms(documentClient(), required(config, 'TABLE_NAME'), clock)
        : new SnsSms(new SNSClient(clientConfig(undefined))),
    ),
    reports: once(
      () =>
        new S3Blobs(
          new S3Client({
            ...clientConfig(config.S3_ENDPOINT),
            forcePathStyle: Boolean(config.S3_ENDPOINT),
            requestChecksumCalculation: 'WHEN_REQUIRED',
          }),
          required(config, 'REPORTS_BUCKET'),
        ),
    ),
    scanChecks: once((): readonly CheckDefinition[] => checksWith({ breaches: hibp() })),
    rateLimits: once(() => new DynamoDbRateLimiter(documentClient(), required(config, 'TABLE_NAME'), clock)),
    verifications: once(() => new DynamoDbEmailVerifications(documentClient(), required(config, 'TABLE_NAME'), clock)),
    idempotency: once(() => new DynamoDbIdempotencyStore(documentClient(), required(config, 'TABLE_NAME'), clock)),
    shares: once(() => new DynamoDbShareLinks(documentClient(), required(config, 'TABLE_NAME'), clock)),
    domains: once(() => new DynamoDbDomains(documentClient(), required(config, 'TABLE_NAME'))),
    policies: once(() => new DynamoDbSecurityPolicies(documentClient(), required(config, 'TABLE_NAME'), clock)),
    stats: once(() => new DynamoDbPlatformStats(documentClient(), required(config, 'TABLE_NAME'))),
    billing: once(() => new DynamoDbBilling(documentClient(), required(config, 'TABLE_NAME'), clock)),
    monitoring: once(() => new DynamoDbMonitoring(documentClient(), required(config, 'TABLE_NAME'))),
    alerts: once(() => new DynamoDbAlertLog(documentClient(), required(config, 'TABLE_NAME'), clock)),
    signingKeys: once(() => new DynamoDbSigningKeys(documentClient(), required(config, 'TABLE_NAME'))),
    agents: once(() => new DynamoDbAgents(documentClient(), required(config, 'TABLE_NAME'), clock)),
    monthlyReports: once(() => new DynamoDbMonthlyReports(documentClient(), required(config, 'TABLE_NAME'), clock)),
    supportRequests: once(() => new DynamoDbSupportRequests(documentClient(), required(config, 'TABLE_NAME'), clock)),
    apiTokens: once(() => new DynamoDbApiTokens(documentClient(), required(config, 'TABLE_NAME'), clock)),
    notifications: once(() => new DynamoDbNotificationOutbox(documentClient(), required(config, 'TABLE_NAME'))),
    payments: once((): PaymentProvider => {
      switch (paymentsSettings(config).mode) {
        case 'stripe':
          return new StripePayments(createStripeClient(required(config, 'STRIPE_SECRET_KEY')));
        case 'local':
          return new LocalPayments(documentClient(), required(config, 'TABLE_NAME'), config.SITE_URL, clock);
        case 'off':
          return paymentsOff;
      }
    }),
    users: once(
      () =>
        new CognitoUsers(new CognitoIdentityProviderClient(clientConfig(config.COGNITO_ENDPOINT)), required(config, 'USER_POOL_ID')),
    ),
    userTokens: once(
      () =>
        new CognitoTokens(
          cognitoIssuer(required(config, 'USER_POOL_ID'), config.AWS_REGION, config.COGNITO_ENDPOINT),
          required(config, 'USER_POOL_CLIENT_ID'),
        ),
    ),
  };

  return {
    config,
    log,
    clock,
    get audits() { return lazy.audits(); },
    get accounts() { return lazy.accounts(); },
    get scanJobs() { return lazy.scanJobs(); },
    get mailer() { return lazy.mailer(); },
    get sms() { return lazy.sms(); },
    get reports() { return lazy.reports(); },
    get users() { return lazy.users(); },
    get userTokens() { return lazy.userTokens(); },
    get scanChecks() { return lazy.scanChecks(); },
    get rateLimits() { return lazy.rateLimits(); },
    get verifications() { return lazy.verifications(); },
    get idempotency() { return lazy.idempotency(); },
    get shares() { return lazy.shares(); },
    get domains() { return lazy.domains(); },
    get policies() { return lazy.policies(); },
    get stats() { return lazy.stats(); },
    get billing() { return lazy.billing(); },
    get monitoring() { return lazy.monitoring(); },
    get alerts() { return lazy.alerts(); },
    get signingKeys() { return lazy.signingKeys(); },
    get agents() { return lazy.agents(); },
    get monthlyReports() { return lazy.monthlyReports(); },
    get supportRequests() { return lazy.supportRequests(); },
    get apiTokens() { return lazy.apiTokens(); },
    get notifications() { return lazy.notifications(); },
    get payments() { return lazy.payments(); },
    paymentEvents: stripeWebhookEvents(paymentsSettings(config).webhookSecret),
    pwnedPasswords: {
      range: (prefix) =>
        fetchPasswordRange(prefix, {
          baseUrl: config.PWNED_PASSWORDS_URL,
          userAgent: `${productSlug(config.PRODUCT_NAME)}-signup`,
          timeoutMs: PASSWORD_RANGE_TIMEOUT_MS,
        }),
    },
    scanSettings: {
      resolvers: parseResolvers(config.SCAN_RESOLVERS),
      dnsTimeoutMs: config.SCAN_DNS_TIMEOUT_MS,
      allowPrivateTargets: config.SCAN_ALLOW_PRIVATE_TARGETS,
      topPorts: config.SCAN_TOP_PORTS,
      excludePorts: config.SCAN_EXCLUDE_PORTS,
      certificateTransparencyUrl: config.SCAN_CT_URL,
    },
  };
}

/** A deployment without Stripe keys (PAYMENTS_MODE=off): checkout answers the spec's failure message. */
const paymentsOff: PaymentProvider = {
  kind: 'stripe',
  createCustomer: () => Promise.reject(notConfigured()),
  createCheckoutSession: () => Promise.reject(notConfigured()),
  createBillingPortalSession: () => Promise.reject(notConfigured()),
};

function notConfigured() {
  return new UpstreamUnavailableError('checkout_failed', paymentMessages.checkoutFailed, { reason: 'No Stripe keys are configured (PAYMENTS_MODE=off)' });
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
