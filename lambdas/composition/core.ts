import { Logger } from '@aws-lambda-powertools/logger';
import { noMetrics } from '../adapters/recording-metrics.adapter.js';
import { type Config, parseResolvers, productSlug } from '../config.js';
import { scannerUserAgent } from '../domain/product.js';
import { ConfigError } from '../domain/errors.js';
import type { AgentRepository } from '../domain/agents.js';
import type { DestinationRepository } from '../domain/alert-destinations.js';
import type { ApiTokenRepository } from '../domain/api-tokens.js';
import type { DomainRepository } from '../domain/domains.js';
import type { Metrics } from '../domain/metrics.port.js';
import type { MonthlyReportLog } from '../domain/monthly-report.js';
import type { OrganisationRepository } from '../domain/organisations.js';
import type { AccessLogRepository } from '../domain/access-ends.js';
import type { ScannerOptOutRepository } from '../domain/scanner-opt-out.js';
import type { SetPasswordLinks } from '../domain/set-password-link.js';
import type { NotificationOutbox } from '../domain/notifications.js';
import type { SupportRequests } from '../domain/support.js';
import type { SecurityPolicyRepository } from '../domain/security-policy.js';
import type { IssueHistoryRepository } from '../domain/time-to-fix.js';
import type { UserTokens } from '../domain/user-tokens.js';
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
  RescanFanout,
  SmsSender,
  UserDirectory,
} from '../domain/ports.js';
import type { Resource } from '../routes.js';
import type { CheckDefinition, ScanSettings } from '../scanner/check.js';
import { fetchPasswordRange } from '../scanner/pwned-passwords.js';

/** Everything a handler or worker may use. Each adapter is built on first use, once. */
export interface Deps {
  readonly config: Config;
  readonly log: Logger;
  readonly clock: Clock;
  /** Business metrics (EMF on AWS, flushed by the Lambda entries; none locally). */
  readonly metrics: Metrics;
  readonly audits: AuditRepository;
  readonly accounts: AccountRepository;
  readonly scanJobs: ScanJobs;
  /** The monitoring-fanout queue: the scheduler's due rescans, one message per subscriber (only with MONITORING_FANOUT_QUEUE_URL). */
  readonly rescanFanout: RescanFanout;
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
  /** Each monitored domain's issues: first seen, fixed at (time-to-fix, issue 21). */
  readonly issueHistory: IssueHistoryRepository;
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
  /** Slack, Teams and webhook destinations of alerts, and their delivery logs (issue 22). */
  readonly alertDestinations: DestinationRepository;
  /** Teams: organisations' members and invitations (issue 22 item 2). */
  readonly organisations: OrganisationRepository;
  /** Each organisation's access log: tokens made and revoked, members removed, providers unlinked (issue 28). */
  readonly accessLog: AccessLogRepository;
  /** Domains whose owners opted out of every scan, and their requests waiting for proof (DECISIONS "Scanner identity"). */
  readonly scannerOptOuts: ScannerOptOutRepository;
  /** One-time links to set a lead-created account's password (issue 29 item 4). */
  readonly setPasswordLinks: SetPasswordLinks;
  readonly scanSettings: ScanSettings;
  /** The checks every scan runs, bound to this deployment's breach lookup. */
  readonly scanChecks: readonly CheckDefinition[];
}

export const systemClock: Clock = { now: () => new Date() };

/** The sign-up form waits for the breached-password check at most this long, then goes on without it. */
const PASSWORD_RANGE_TIMEOUT_MS = 5_000;

/**
 * What a provider module (lambdas/composition/*.ts) builds: a resource's adapters, or the token
 * verifier, or the scanner's checks. A Lambda loads only the providers its routes use, so its
 * bundle and its cold start carry only their code (DECISIONS "Production on AWS").
 */
export type ProviderName = Resource | 'userTokens' | 'scanner';

type Fixed = 'config' | 'log' | 'clock' | 'metrics' | 'scanSettings' | 'pwnedPasswords';
/** The parts of Deps a provider builds. */
export type Adapters = Omit<Deps, Fixed>;

/** A provider's adapters, each built on first use. */
export type AdapterFactories = { readonly [K in keyof Adapters]?: () => Adapters[K] };

export interface ProviderContext {
  readonly config: Config;
  readonly clock: Clock;
  /** @default no metrics (the local stack, tests) */
  readonly metrics?: Metrics;
}

export type Provider = (context: ProviderContext) => AdapterFactories;

/** Which provider builds each adapter: the one place that maps Deps to resources. */
export const providerOf = {
  audits: 'table',
  accounts: 'table',
  rateLimits: 'table',
  verifications: 'table',
  idempotency: 'table',
  shares: 'table',
  domains: 'table',
  policies: 'table',
  stats: 'table',
  billing: 'table',
  monitoring: 'table',
  issueHistory: 'table',
  alerts: 'table',
  signingKeys: 'table',
  agents: 'table',
  monthlyReports: 'table',
  supportRequests: 'table',
  apiTokens: 'table',
  notifications: 'table',
  alertDestinations: 'table',
  organisations: 'table',
  accessLog: 'table',
  scannerOptOuts: 'table',
  setPasswordLinks: 'table',
  scanJobs: 'scanQueue',
  rescanFanout: 'fanoutQueue',
  mailer: 'mailer',
  sms: 'sms',
  reports: 'reports',
  users: 'userPool',
  payments: 'payments',
  paymentEvents: 'payments',
  userTokens: 'userTokens',
  scanChecks: 'scanner',
} as const satisfies Record<keyof Adapters, ProviderName>;

/** The providers a process has loaded so far, each instantiated once. */
export class ProviderSet {
  private readonly built = new Map<ProviderName, AdapterFactories>();

  constructor(readonly context: ProviderContext) {}

  add(name: ProviderName, provider: Provider): void {
    if (!this.built.has(name)) this.built.set(name, memoized(provider(this.context)));
  }

  has(name: ProviderName): boolean {
    return this.built.has(name);
  }

  adapter<K extends keyof Adapters>(key: K): Adapters[K] {
    const name = providerOf[key];
    const make = this.built.get(name)?.[key];
    if (!make) {
      throw new ConfigError(`${key} needs the ${name} provider, which this function does not load (lambdas/routes.ts: add '${name}' to the route's uses)`);
    }
    return make() as Adapters[K];
  }
}

/**
 * The one composition place: Deps over the loaded providers. On AWS the endpoints are absent and
 * the SDK finds AWS; on one machine they point at the emulators. The adapters are the same either way.
 */
export function composeDeps(config: Config, providers: ProviderSet, overrides: Partial<Pick<Deps, 'log'>> = {}): Deps {
  const log = overrides.log ?? new Logger({ serviceName: 'rampart', logLevel: config.LOG_LEVEL });
  const deps = {
    config,
    log,
    clock: providers.context.clock,
    metrics: providers.context.metrics ?? noMetrics,
    pwnedPasswords: {
      range: (prefix: string) =>
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
      userAgent: scannerUserAgent(config.PRODUCT_NAME, config.SITE_URL),
      ...(config.SCAN_DNSSEC_TRUST_ANCHORS.length > 0 ? { dnssecTrustAnchors: config.SCAN_DNSSEC_TRUST_ANCHORS } : {}),
    },
  };
  for (const key of Object.keys(providerOf) as (keyof Adapters)[]) {
    Object.defineProperty(deps, key, { enumerable: true, get: () => providers.adapter(key) });
  }
  return deps as Deps;
}

function memoized(factories: AdapterFactories): AdapterFactories {
  const cache = new Map<string, unknown>();
  return Object.fromEntries(
    Object.entries(factories).map(([key, make]) => [
      key,
      () => {
        if (!cache.has(key)) cache.set(key, (make as () => unknown)());
        return cache.get(key);
      },
    ]),
  ) as AdapterFactories;
}
