import type { Node } from 'constructs';
import { type ConfigKey, configSchema } from '../lambdas/config.js';

/**
 * What a deploy does with each configuration key of `lambdas/config.ts` (and the local server's
 * own keys), so that every key of the README's configuration table has a decision
 * (test/infra/deploy-settings.test.ts holds the README to this list):
 * - `setting`: the operator sets it for a deploy, under its own name, as CDK context
 *   (`-c SCAN_RESOLVERS=1.1.1.1`) or the same-named environment variable at synth; validated with
 *   lambdas/config.ts's schema and given to every function;
 * - `stack-setting`: the stack sets it from one of its own settings (lib/stack-config.ts), which
 *   also reads it under this name;
 * - `stack`: the stack sets it from the resources it creates; giving it is refused;
 * - `secret`: never in the template; a SecureString parameter the stack setting `parameter` names is
 *   read at cold start; giving the value itself is refused;
 * - `local`: only means something on one machine; refused for a deploy.
 */
export type DeployDecision =
  | { readonly kind: 'setting' }
  | { readonly kind: 'stack-setting'; readonly setting: string }
  | { readonly kind: 'stack'; readonly from: string }
  | { readonly kind: 'secret'; readonly parameter: string }
  | { readonly kind: 'local'; readonly reason: string };

/** Keys `npm start` reads itself (bin/local.ts), outside lambdas/config.ts. */
type LocalServerKey = 'PORT' | 'HOST' | 'DATA_DIR';

const setting = { kind: 'setting' } as const;
const emulator = { kind: 'local', reason: 'an emulator endpoint of `npm start` and the tests; on AWS the SDK uses the real service' } as const;

export const deployDecisions = {
  PORT: { kind: 'local', reason: "the local server's port (`npm start`)" },
  HOST: { kind: 'local', reason: 'the address the local server listens on (`npm start`)' },
  DATA_DIR: { kind: 'local', reason: "where the local emulators keep their data (`npm start`)" },
  AWS_REGION: { kind: 'stack-setting', setting: 'region' },
  PRODUCT_NAME: { kind: 'stack-setting', setting: 'productName' },
  SITE_URL: { kind: 'stack', from: 'the site: https:// and the CloudFront domain, or siteDomain' },
  LOG_LEVEL: { kind: 'stack-setting', setting: 'logLevel' },
  TABLE_NAME: { kind: 'stack', from: 'the table it creates' },
  SCAN_QUEUE_URL: { kind: 'stack', from: 'the free scan queue it creates' },
  PAID_SCAN_QUEUE_URL: { kind: 'stack', from: 'the paid scan queue it creates' },
  MONITORING_SCAN_QUEUE_URL: { kind: 'stack', from: 'the monitoring scan queue it creates' },
  MONITORING_FANOUT_QUEUE_URL: { kind: 'stack', from: 'the monitoring-fanout queue it creates' },
  MAIL_FROM: { kind: 'stack-setting', setting: 'mailFrom' },
  SUPPORT_EMAIL: setting,
  SCANNER_ABUSE_EMAIL: setting,
  SCANNER_EGRESS_ADDRESSES: { kind: 'stack', from: "the fixed egress's Elastic IPs when it is on (unset without it)" },
  SES_CONFIGURATION_SET: { kind: 'stack', from: 'the mail configuration set it creates' },
  SMS_MODE: { kind: 'stack', from: 'the SMS binding (sns)' },
  SMS_COUNTRIES: setting,
  REPORTS_BUCKET: { kind: 'stack', from: 'the reports bucket it creates' },
  USER_POOL_ID: { kind: 'stack', from: 'the user pool it creates' },
  USER_POOL_CLIENT_ID: { kind: 'stack', from: 'the user pool client it creates' },
  DYNAMODB_ENDPOINT: emulator,
  SQS_ENDPOINT: emulator,
  SES_ENDPOINT: emulator,
  S3_ENDPOINT: emulator,
  COGNITO_ENDPOINT: emulator,
  SCAN_RESOLVERS: setting,
  SCAN_DNS_TIMEOUT_MS: setting,
  SCAN_ALLOW_PRIVATE_TARGETS: {
    kind: 'local',
    reason: 'lets the scanner reach private, loopback, link-local and metadata addresses (local testing only); on AWS it would open the VPC and the metadata service to anyone who asks for a scan',
  },
  SCAN_TOP_PORTS: setting,
  SCAN_EXCLUDE_PORTS: setting,
  SCAN_CT_URL: setting,
  SCAN_DNSSEC_TRUST_ANCHORS: setting,
  HIBP_API_KEY: { kind: 'secret', parameter: 'hibpParameter' },
  HIBP_API_KEY_PARAMETER: { kind: 'stack', from: 'hibpParameter' },
  HIBP_BASE_URL: setting,
  HIBP_REQUESTS_PER_MINUTE: setting,
  PWNED_PASSWORDS_URL: setting,
  RATE_LIMIT_LEADS_PER_IP: setting,
  RATE_LIMIT_LEADS_PER_EMAIL: setting,
  RATE_LIMIT_LEADS_PER_SITE: setting,
  RATE_LIMIT_CODES_PER_IP: setting,
  RATE_LIMIT_CODES_PER_EMAIL: setting,
  RATE_LIMIT_CODE_CHECKS_PER_IP: setting,
  RATE_LIMIT_REPORT_EMAILS_PER_AUDIT: setting,
  RATE_LIMIT_REPORT_EMAILS_PER_RECIPIENT: setting,
  RATE_LIMIT_REPORT_EMAILS_PER_IP: setting,
  RATE_LIMIT_SHARES_PER_AUDIT: setting,
  MAIL_SENDS_PER_HOUR_LIMIT: setting,
  SCAN_ACTIVE_PER_TARGET_PER_HOUR: setting,
  RATE_LIMIT_AGENT_REPORTS_PER_AGENT: setting,
  RATE_LIMIT_AGENT_REGISTRATIONS_PER_ACCOUNT: setting,
  RATE_LIMIT_AGENT_TELEMETRY_PER_ACCOUNT: setting,
  RATE_LIMIT_SUPPORT_REQUESTS_PER_USER: setting,
  API_TOKEN_REQUESTS_PER_MINUTE: setting,
  API_TOKEN_TTL_DAYS: setting,
  SHARE_MAX_USES: setting,
  TWO_STEP_FOR_TEAMS: {
    kind: 'local',
    reason: "`off` only for the test stacks whose team suites predate two-step sign-in; AWS keeps the default, `required`",
  },
  DEMO_MODE: {
    kind: 'local',
    reason: 'seeds a demo account whose password the login page shows (`npm start`); never on AWS',
  },
  STRIPE_SECRET_KEY: { kind: 'secret', parameter: 'stripeParameterPath' },
  STRIPE_WEBHOOK_SECRET: { kind: 'secret', parameter: 'stripeParameterPath' },
  STRIPE_SECRET_KEY_PARAMETER: { kind: 'stack', from: 'stripeParameterPath' },
  STRIPE_WEBHOOK_SECRET_PARAMETER: { kind: 'stack', from: 'stripeParameterPath' },
  PAYMENTS_MODE: { kind: 'stack', from: 'stripeParameterPath (stripe with it, off without)' },
  ORIGIN_VERIFY_SECRET: { kind: 'stack', from: 'the origin secret it has Secrets Manager generate' },
} as const satisfies Record<ConfigKey | LocalServerKey, DeployDecision>;

export type DeployKey = keyof typeof deployDecisions;

/** Why a key given for a deploy is refused, or undefined when it may be given. */
function refusal(key: DeployKey): string | undefined {
  const decision: DeployDecision = deployDecisions[key];
  switch (decision.kind) {
    case 'setting':
    case 'stack-setting':
      return undefined;
    case 'stack':
      return `${key}: set by the stack from ${decision.from}; do not give it`;
    case 'secret':
      return `${key}: a secret never goes in the template; put it in an SSM SecureString parameter and give -c ${decision.parameter} (README "Deploy to AWS")`;
    case 'local':
      return `${key}: refused for a deploy, ${decision.reason}; unset it`;
  }
}

/**
 * The deploy-time settings every function gets (`FunctionDefaults.environment`): each `setting`
 * key from CDK context under its own name, else the same-named environment variable, validated with
 * lambdas/config.ts's schema. Returns the values as given, and one problem per refused or bad key.
 */
export function readDeploySettings(
  node: Node,
  env: Record<string, string | undefined>,
): { environment: Record<string, string>; problems: string[] } {
  const environment: Record<string, string> = {};
  const problems: string[] = [];
  for (const key of Object.keys(deployDecisions) as DeployKey[]) {
    const value: unknown = node.tryGetContext(key) ?? env[key];
    if (value === undefined || value === '') continue;
    const refused = refusal(key);
    if (refused) problems.push(refused);
    else if (deployDecisions[key].kind === 'setting') environment[key] = String(value);
  }
  const result = configSchema.safeParse(environment);
  if (!result.success) problems.push(...result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  return { environment, problems };
}
