import { isIP } from 'node:net';
import * as z from 'zod';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_DEFAULT_REQUESTS_PER_MINUTE, API_TOKEN_MAX_DAYS } from './domain/api-token.contract.js';
import { ConfigError } from './domain/errors.js';
import { productSlug as slugOf } from './domain/product.js';
import type { Resource } from './routes.js';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('0')
  .transform((v) => v === '1' || v === 'true');

const optionalUrl = z.url().optional();

const perHour = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000).default(fallback);

/**
 * Every configuration key, with its default. The README documents each. The CDK stack validates
 * the settings a deploy passes with this same schema (lib/deploy-settings.ts).
 */
export const configSchema = z.object({
  AWS_REGION: z.string().min(1).default('ap-southeast-2'),
  PRODUCT_NAME: z.string().trim().min(1).max(40).default('Rampart'),
  SITE_URL: z.url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),

  TABLE_NAME: z.string().min(3).optional(),
  /** The three scan queues (ScanLane): SCAN_QUEUE_URL takes free scans, PAID_ paid scans, MONITORING_ monitoring rescans. */
  SCAN_QUEUE_URL: z.url().optional(),
  PAID_SCAN_QUEUE_URL: z.url().optional(),
  MONITORING_SCAN_QUEUE_URL: z.url().optional(),
  /**
   * The monitoring-fanout queue (issue 30 item 3): the scheduler sends each subscriber's due domains
   * there for the monitoring-fanout worker. Unset: the scheduler queues the rescans itself, in its run.
   */
  MONITORING_FANOUT_QUEUE_URL: z.url().optional(),
  MAIL_FROM: z.email().optional(),
  /** The support mailbox the support form writes to; default support@ the MAIL_FROM domain (supportMailbox). */
  SUPPORT_EMAIL: z.email().optional(),
  /** DECISIONS "Scanner identity": the abuse address the public /scanner page gives; default abuse@ the MAIL_FROM domain (scannerAbuseMailbox). */
  SCANNER_ABUSE_EMAIL: z.email().optional(),
  /**
   * The fixed addresses the scanner connects from, comma-separated, published on /scanner; empty = not
   * fixed (AWS addresses that change). On AWS the stack sets it when the fixed egress is on.
   */
  SCANNER_EGRESS_ADDRESSES: z
    .string()
    .default('')
    .transform((list, ctx) => {
      const addresses = list.split(',').map((a) => a.trim()).filter(Boolean);
      if (addresses.some((a) => !isIP(a))) {
        ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of IP addresses' });
        return z.NEVER;
      }
      return addresses;
    }),
  SES_CONFIGURATION_SET: z.string().optional(),
  SMS_MODE: z.enum(['sns', 'outbox']).default('sns'),
  /**
   * The countries SMS may go to, comma-separated ISO 3166 codes (AU,NZ): a mobile number of any other
   * country gets no SMS (domain/phone.ts smsCountryAllowed: SMS pumping; SNS has no per-country IAM condition).
   */
  SMS_COUNTRIES: z
    .string()
    .default('AU')
    .transform((list, ctx) => {
      const countries = list.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
      if (countries.length === 0 || countries.some((c) => !/^[A-Z]{2}$/.test(c))) {
        ctx.addIssue({ code: 'custom', message: 'must be comma-separated two-letter country codes such as AU,NZ' });
        return z.NEVER;
      }
      return countries;
    }),
  REPORTS_BUCKET: z.string().min(3).optional(),
  USER_POOL_ID: z.string().min(1).optional(),
  USER_POOL_CLIENT_ID: z.string().min(1).optional(),

  /** Emulator endpoints: set by `npm start` and the tests, never on AWS. */
  DYNAMODB_ENDPOINT: optionalUrl,
  SQS_ENDPOINT: optionalUrl,
  SES_ENDPOINT: optionalUrl,
  S3_ENDPOINT: optionalUrl,
  COGNITO_ENDPOINT: optionalUrl,

  /** Comma-separated host:port DNS servers for the scanner; empty = the system's. */
  SCAN_RESOLVERS: z.string().default(''),
  SCAN_DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2500),
  SCAN_ALLOW_PRIVATE_TARGETS: flag,
  /** How many of nmap's most common TCP ports the free scan tries. */
  SCAN_TOP_PORTS: z.coerce.number().int().min(1).max(1000).default(100),
  /** Comma-separated ports the scanner never connects to. */
  SCAN_EXCLUDE_PORTS: z
    .string()
    .default('')
    .transform((list, ctx) => {
      const ports = list.split(',').map((p) => p.trim()).filter(Boolean).map(Number);
      if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
        ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of port numbers' });
        return z.NEVER;
      }
      return ports;
    }),
  /** A crt.sh-compatible certificate transparency search endpoint; empty = no CT lookup. */
  SCAN_CT_URL: optionalUrl,
  /** DNSSEC trust anchors, DS records in zone-file form separated by ';'; empty = the root zone's keys. */
  SCAN_DNSSEC_TRUST_ANCHORS: z
    .string()
    .default('')
    .transform((list, ctx) => {
      const anchors = list.split(';').map((a) => a.trim().replace(/\s+/g, ' ')).filter(Boolean);
      if (anchors.some((a) => !/^\S+ (\d+ )?(IN )?DS \d+ \d+ \d+ [0-9a-f ]+$/i.test(a))) {
        ctx.addIssue({ code: 'custom', message: 'must be DS records separated by ";" (". IN DS 20326 8 2 E06D…")' });
        return z.NEVER;
      }
      return anchors;
    }),

  /** Have I Been Pwned API v3 key; absent = the breaches check reports "not configured". */
  HIBP_API_KEY: z.string().trim().min(1).optional(),
  /** On AWS: the name of the SecureString parameter holding HIBP_API_KEY, read at cold start (lambdas/adapters/ssm-parameters.adapter.ts). */
  HIBP_API_KEY_PARAMETER: z.string().startsWith('/').optional(),
  HIBP_BASE_URL: z.url().default('https://haveibeenpwned.com/api/v3'),
  /** The HIBP plan's rate (Pwned 1 = 10/min): each process paces itself to it, and every scanner process shares it through the table (lambdas/composition/scanner.ts). */
  HIBP_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(12_000).default(10),
  PWNED_PASSWORDS_URL: z.url().default('https://api.pwnedpasswords.com'),

  /** Abuse limits per hour (README "Rate limits"): free scans and verification codes. */
  RATE_LIMIT_LEADS_PER_IP: perHour(10),
  RATE_LIMIT_LEADS_PER_EMAIL: perHour(5),
  RATE_LIMIT_LEADS_PER_SITE: perHour(5),
  RATE_LIMIT_CODES_PER_IP: perHour(10),
  RATE_LIMIT_CODES_PER_EMAIL: perHour(5),
  RATE_LIMIT_CODE_CHECKS_PER_IP: perHour(30),
  /** Reports: emails per audit, per recipient and per source address, share links per audit (README "Rate limits"). */
  RATE_LIMIT_REPORT_EMAILS_PER_AUDIT: perHour(5),
  RATE_LIMIT_REPORT_EMAILS_PER_RECIPIENT: perHour(10),
  RATE_LIMIT_REPORT_EMAILS_PER_IP: perHour(10),
  RATE_LIMIT_SHARES_PER_AUDIT: perHour(20),
  /**
   * Mail to addresses a stranger gives (verification codes, report emails) from the whole product per
   * hour, whatever the source: past it those routes answer 429 and MailCeilingReached alarms.
   */
  MAIL_SENDS_PER_HOUR_LIMIT: perHour(2000),
  /**
   * DECISIONS "Scan modes": active scans of one target (its registrable domain, or its address)
   * from the whole product per hour, whoever asked. Past it a scan runs passive and says why.
   */
  SCAN_ACTIVE_PER_TARGET_PER_HOUR: perHour(6),
  /** Endpoint agents (README "Local endpoint agents"): reports per agent, registrations and install messages per account. */
  RATE_LIMIT_AGENT_REPORTS_PER_AGENT: perHour(60),
  RATE_LIMIT_AGENT_REGISTRATIONS_PER_ACCOUNT: perHour(30),
  RATE_LIMIT_AGENT_TELEMETRY_PER_ACCOUNT: perHour(120),
  /** Support requests (`POST /api/me/support-requests`) per signed-in user per hour. */
  RATE_LIMIT_SUPPORT_REQUESTS_PER_USER: perHour(5),
  /** The public API (`/api/v1`, README "API access"): requests per minute per API token. */
  API_TOKEN_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(API_TOKEN_DEFAULT_REQUESTS_PER_MINUTE),
  // Issue 28: a token made without an expiry expires after this many days.
  API_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(API_TOKEN_MAX_DAYS).default(API_TOKEN_DEFAULT_DAYS),

  /** How many times a share link may be opened before it is used up (DECISIONS "Sharing": 100). */
  SHARE_MAX_USES: z.coerce.number().int().min(1).max(100_000).default(100),

  /** DECISIONS "Demo account": provisioning seeds the demo user and the login page shows its credentials. */
  DEMO_MODE: flag,

  /** Stripe's secret key (sk_test_…, sk_live_… or a restricted rk_…); absent = the local test checkout. */
  STRIPE_SECRET_KEY: z.string().trim().regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_…, sk_live_…, rk_…)').optional(),
  /**
   * Two-step sign-in (issue 28 item 12): `required` refuses the team and IT-provider routes to the
   * owner of an organisation with members or clients until TOTP is on; `off` only for test stacks
   * whose suites predate the rule (test/support/local-stack.ts, the e2e's `npm start`).
   */
  TWO_STEP_FOR_TEAMS: z.enum(['required', 'off']).default('required'),

  /** The webhook endpoint's signing secret; required with a key, else the fixed local secret. */
  STRIPE_WEBHOOK_SECRET: z.string().trim().regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)').optional(),
  /** On AWS: names of SecureString parameters holding the two values above, read at cold start. */
  STRIPE_SECRET_KEY_PARAMETER: z.string().startsWith('/').optional(),
  STRIPE_WEBHOOK_SECRET_PARAMETER: z.string().startsWith('/').optional(),
  /** stripe | local | off; default: stripe with a key, else local. The stack sets off when no Stripe keys are configured. */
  PAYMENTS_MODE: z.enum(['stripe', 'local', 'off']).optional(),

  /**
   * AWS only (set by the stack on every API function): the value CloudFront sends in `x-origin-verify`.
   * Set, the API refuses requests without it (403 `forbidden_origin`); unset (locally, in tests), no check.
   */
  ORIGIN_VERIFY_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
});

/**
 * The local test checkout's webhook signing secret (README "Plans and payments"): fixed and public,
 * because it signs only the local checkout's own events to the local server.
 */
export const LOCAL_WEBHOOK_SECRET = 'whsec_local_rampart_test_checkout_not_a_real_secret';

export type Config = z.output<typeof configSchema>;
/** A configuration key (`lambdas/config.ts` validates it; the README's table documents it). */
export type ConfigKey = keyof z.input<typeof configSchema>;

/** Which payments adapter composition builds, and the secret webhooks are verified with. */
export function paymentsSettings(config: Config): { mode: 'stripe' | 'local' | 'off'; webhookSecret: string | undefined } {
  const mode = config.PAYMENTS_MODE ?? (config.STRIPE_SECRET_KEY ? 'stripe' : 'local');
  if (mode === 'local') return { mode, webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? LOCAL_WEBHOOK_SECRET };
  return { mode, webhookSecret: config.STRIPE_WEBHOOK_SECRET };
}

/**
 * Where support requests go: SUPPORT_EMAIL, else `support@` the domain mail is sent from (MAIL_FROM),
 * else `support@{product-slug}.example` (the local default, a mailbox of SES local).
 */
export function supportMailbox(config: Config): string {
  if (config.SUPPORT_EMAIL) return config.SUPPORT_EMAIL;
  const domain = config.MAIL_FROM?.split('@')[1];
  return `support@${domain ?? `${slugOf(config.PRODUCT_NAME)}.example`}`;
}

/**
 * DECISIONS "Scanner identity": where site owners report the scanner: SCANNER_ABUSE_EMAIL, else
 * `abuse@` the domain mail is sent from (MAIL_FROM), else `abuse@{product-slug}.example` (local).
 */
export function scannerAbuseMailbox(config: Config): string {
  if (config.SCANNER_ABUSE_EMAIL) return config.SCANNER_ABUSE_EMAIL;
  const domain = config.MAIL_FROM?.split('@')[1];
  return `abuse@${domain ?? `${slugOf(config.PRODUCT_NAME)}.example`}`;
}

/** The keys each resource needs; the CDK stack's bind helpers set exactly these. */
export const resourceKeys = {
  table: ['TABLE_NAME'],
  scanQueue: ['SCAN_QUEUE_URL', 'PAID_SCAN_QUEUE_URL', 'MONITORING_SCAN_QUEUE_URL'],
  // Optional (MONITORING_FANOUT_QUEUE_URL): without the queue the scheduler queues the rescans itself.
  fanoutQueue: [],
  mailer: ['MAIL_FROM'],
  sms: [],
  reports: ['REPORTS_BUCKET'],
  userPool: ['USER_POOL_ID', 'USER_POOL_CLIENT_ID'],
  // Optional keys only: without Stripe keys the local test checkout (or, on AWS, PAYMENTS_MODE=off) stands in.
  payments: [],
} as const satisfies Record<Resource, readonly (keyof Config)[]>;

/** What verifying a signed-in user's token needs (a route's `optionalAuth`): the pool's ids, no grant. */
export const tokenVerificationKeys = ['USER_POOL_ID', 'USER_POOL_CLIENT_ID'] as const satisfies readonly (keyof Config)[];

/**
 * Reads and validates configuration once. Fails fast, naming every bad or missing key,
 * including the keys the given resources need and any other keys the caller requires.
 */
export function loadConfig(env: Record<string, string | undefined>, uses: readonly Resource[] = [], alsoRequired: readonly (keyof Config)[] = []): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const config = result.data;
  if (config.STRIPE_SECRET_KEY && !config.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError('Invalid configuration: STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set');
  }
  if (config.PAYMENTS_MODE === 'stripe' && !config.STRIPE_SECRET_KEY && uses.includes('payments')) {
    throw new ConfigError('Missing configuration: STRIPE_SECRET_KEY (PAYMENTS_MODE is stripe)');
  }
  const missing = [...uses.flatMap((r) => resourceKeys[r]), ...alsoRequired].filter((key) => config[key] === undefined);
  if (missing.length > 0) {
    throw new ConfigError(`Missing configuration: ${[...new Set(missing)].join(', ')}`);
  }
  return config;
}

/** Returns a key the caller needs, or throws naming it. */
export function required<K extends keyof Config>(config: Config, key: K): NonNullable<Config[K]> {
  const value = config[key];
  if (value === undefined || value === null) throw new ConfigError(`Missing configuration: ${key}`);
  return value as NonNullable<Config[K]>;
}

/** "host:port,host" → [{host, port}] */
export function parseResolvers(list: string): { host: string; port: number }[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(entry);
      if (!match) throw new ConfigError(`SCAN_RESOLVERS: cannot read "${entry}"`);
      return { host: match[1]!, port: match[2] ? Number(match[2]) : 53 };
    });
}

export { productSlug } from './domain/product.js';
