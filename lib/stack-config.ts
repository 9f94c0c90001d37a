import type { Node } from 'constructs';
import * as z from 'zod';
import { productSlug } from '../lambdas/config.js';
import { deployDecisions, readDeploySettings } from './deploy-settings.js';

/**
 * Domains that can never be a real sender: RFC 2606 / 6761 reserved names (example.com, .test,
 * localhost …) and the placeholders the docs and local runs use. SES can never verify them, and
 * Cognito then refuses the user pool halfway through the first deploy.
 */
const PLACEHOLDER_MAIL_DOMAIN = /(^|\.)(example\.(com|org|net)|example|test|invalid|localhost|local)$/i;

/** An SQS event source's maximum concurrency: 2 to 1000 (AWS's bounds). */
const scanConcurrency = z.coerce.number<string>().int().min(2, 'at least 2 (SQS event sources take 2 to 1000)').max(1000, 'at most 1000');

/**
 * The regions an operator may deploy to: each has every service of the stack (SES, HTTP APIs,
 * Cognito, SNS SMS …) and test/infra/cfn-lint.test.ts lints the template for each of them (and for
 * us-east-1, CloudFront's); README "Deploy to AWS" lists them. A region is added here with its lint.
 */
export const DEPLOY_REGIONS = [
  'ap-southeast-2',
  'ap-southeast-1',
  'ap-northeast-1',
  'ap-south-1',
  'ca-central-1',
  'eu-central-1',
  'eu-west-1',
  'eu-west-2',
  'us-east-1',
  'us-east-2',
  'us-west-2',
] as const;

const parameterName = (example: string) =>
  z.string().regex(/^(\/[A-Za-z0-9_.-]+)+$/, `an SSM parameter name such as ${example}`);

/**
 * The stack's settings. Each comes from CDK context (`-c key=value`), else the context or
 * environment variable under the name beside it. bin/app.ts documents them.
 */
const stackConfigSchema = z.object({
  /** The region to deploy to; explicit, never the CLI's fallback (see bin/app.ts). */
  region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'an AWS region such as ap-southeast-2')
    .refine((region) => (DEPLOY_REGIONS as readonly string[]).includes(region), {
      error: (issue) => `${String(issue.input)} is not a region this stack is checked for (cfn-lint, README "Deploy to AWS"): one of ${DEPLOY_REGIONS.join(', ')}`,
    }),
  productName: z.string().trim().min(1).max(40).default('Rampart'),
  /** Optional custom domain for the site; needs `certificateArn` (an ACM certificate in us-east-1). */
  siteDomain: z
    .string()
    .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'a host name such as app.example.com')
    .optional(),
  /**
   * CloudFront takes only a certificate in us-east-1, whatever the stack's region: one elsewhere would
   * pass synth and fail halfway through the deploy, so synth refuses it naming its region.
   */
  certificateArn: z
    .string()
    .regex(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/, 'an ACM certificate ARN (arn:aws:acm:us-east-1:<account>:certificate/<id>)')
    .refine((arn) => arn.split(':')[3] === 'us-east-1', {
      error: (issue) =>
        `CloudFront takes only an ACM certificate in us-east-1; this one is in ${String(issue.input).split(':')[3]} (request it with aws acm request-certificate --region us-east-1)`,
    })
    .optional(),
  mailFrom: z
    .email()
    .refine((address) => !PLACEHOLDER_MAIL_DOMAIN.test(address.split('@')[1] ?? ''), {
      message: 'a placeholder domain (example.com, *.example, *.test, localhost …) can never be verified in SES; give an address at a domain you own',
    }),
  /**
   * Who sends Cognito's emails (sign-up and reset codes): `ses` = from `mailFrom` through the SES
   * domain identity; `cognito` = Cognito's default sender, for a first deploy until the domain's DKIM
   * records are published and verified (Cognito refuses an unverified identity).
   */
  userPoolEmail: z.enum(['ses', 'cognito']).default('ses'),
  alarmEmail: z.email().optional(),
  logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
  /** Path of the SecureString parameters `{path}/secret-key` and `{path}/webhook-secret` (Stripe); none = payments off. */
  stripeParameterPath: parameterName('/rampart/stripe').optional(),
  /** Name of the SecureString parameter holding the HIBP API key; none = the breaches check says "not configured". */
  hibpParameter: parameterName('/rampart/hibp-api-key').optional(),
  /**
   * Where scans come from: `fixed` = the scan worker in private subnets behind NAT gateways with
   * Elastic IPs, published on /scanner and in the `ScannerEgressAddresses` output (costs money:
   * README "Deploy to AWS"); none = Lambda's own AWS addresses, which change and are shared.
   */
  scannerEgress: z.enum(['fixed']).optional(),
  /** With `scannerEgress=fixed`: NAT gateways, each one address: 2 (the default, one per AZ) or 1 (half the cost). */
  scannerNatGateways: z.coerce.number<string>().int().min(1).max(2, 'at most 2 (the VPC spans two Availability Zones)').optional(),
  /**
   * A label changed to make a secret rotation take effect (README "Deploy to AWS"): functions read their
   * SecureString parameters once per instance, and a deploy that changes nothing replaces no instance.
   * Given to every function as SECRETS_VERSION, so a new value is a configuration change that starts
   * new instances, which read the parameters afresh.
   */
  secretsVersion: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a label of letters, digits, ".", "_" or "-" such as 2026-12-07').optional(),
  /**
   * The Secrets Manager version of the origin secret (the VersionId `put-secret-value` prints): put in
   * the `{{resolve:secretsmanager:…}}` reference, so the distribution and the API functions change and
   * CloudFormation resolves the new value for both; none = the current version, resolved once.
   */
  originVerifyVersion: z.string().regex(/^[A-Za-z0-9-]{32,64}$/, 'a Secrets Manager VersionId (the one aws secretsmanager put-secret-value prints)').optional(),
  /**
   * Scan capacity (issue 30 item 4): how many scans of each queue run at once (each the SQS event
   * source's maximum concurrency, at least 2 as SQS requires); the worker reserves their sum. Defaults:
   * lib/scanning/scanning.ts SCAN_CONCURRENCY_DEFAULTS.
   */
  scanConcurrencyFree: scanConcurrency.optional(),
  scanConcurrencyPaid: scanConcurrency.optional(),
  scanConcurrencyMonitoring: scanConcurrency.optional(),
  /** The scan worker's memory in MB (Lambda's CPU share grows with it: 1,769 MB is one vCPU); default SCAN_WORKER_MEMORY_MB, measured by `npm run bench:scan-capacity`. */
  scanWorkerMemory: z.coerce.number<string>().int().min(1024, 'at least 1024 MB (a deep scan needs it)').max(10_240, 'at most 10240 MB (Lambda\'s maximum)').optional(),
  /**
   * A stage name (staging, prod …) so several stacks live in one account: the stack is `{slug}-{stage}`
   * and so are its named resources (the SES configuration set, the API's name, the metrics' `service`
   * dimension and the alarms on them); none = the stack `{slug}`, as before (an existing stack keeps its name).
   */
  stage: z.string().regex(/^[a-z][a-z0-9]{0,15}$/, 'a short lower-case name of letters and digits such as staging or prod').optional(),
  /**
   * `on` (the default): each API function serves through its alias `live`, and a deploy that changes
   * its code shifts 10% of the traffic for 5 minutes before the rest (CodeDeploy), rolling back when the
   * function's error alarm fires; `off`: the alias moves at once (faster deploys, for a staging stack).
   */
  canary: z.enum(['on', 'off']).default('on'),
  /**
   * `on` (the default): AWS WAF in front of CloudFront (lib/site/edge-firewall.ts: a rate rule per
   * address, AWS's common and known-bad-inputs rule groups), in a `{stack}-edge` stack in us-east-1
   * unless the stack deploys there; `off`: no web ACL (costs: README "Deploy to AWS").
   */
  waf: z.enum(['on', 'off']).default('on'),
});

export type StackConfig = z.output<typeof stackConfigSchema> & {
  /** Lower-case slug of the product name: the `product` tag. */
  readonly slug: string;
  /** The stack's name and its named resources' prefix: the slug, with `-{stage}` when a stage is given. */
  readonly stackName: string;
  /** The domain part of `mailFrom`: the SES identity. */
  readonly mailDomain: string;
  /** README configuration keys set for this deploy (lib/deploy-settings.ts), given to every function. */
  readonly environment: Record<string, string>;
};

/**
 * Where each setting is read besides its context key: the environment variable (or context key) of
 * that name. The region deliberately not from CDK_DEFAULT_REGION: the CDK CLI sets that from the
 * profile and falls back to us-east-1 when there is none, so a deploy could land in a region nobody
 * chose.
 */
const sources = {
  region: 'AWS_REGION',
  productName: 'PRODUCT_NAME',
  siteDomain: 'SITE_DOMAIN',
  certificateArn: 'SITE_CERTIFICATE_ARN',
  mailFrom: 'MAIL_FROM',
  userPoolEmail: 'USER_POOL_EMAIL',
  alarmEmail: 'ALARM_EMAIL',
  logLevel: 'LOG_LEVEL',
  stripeParameterPath: 'STRIPE_PARAMETER_PATH',
  hibpParameter: 'HIBP_PARAMETER',
  scannerEgress: 'SCANNER_EGRESS',
  scannerNatGateways: 'SCANNER_NAT_GATEWAYS',
  secretsVersion: 'SECRETS_VERSION',
  originVerifyVersion: 'ORIGIN_VERIFY_VERSION',
  scanConcurrencyFree: 'SCAN_CONCURRENCY_FREE',
  scanConcurrencyPaid: 'SCAN_CONCURRENCY_PAID',
  scanConcurrencyMonitoring: 'SCAN_CONCURRENCY_MONITORING',
  scanWorkerMemory: 'SCAN_WORKER_MEMORY',
  stage: 'STAGE',
  canary: 'CANARY',
  waf: 'WAF',
} as const satisfies Record<keyof z.input<typeof stackConfigSchema>, string>;

/** Each stack setting and the variable it is also read from (the schema's keys: `satisfies` holds them to it). */
export const stackSettingSources: Readonly<Record<string, string>> = sources;

/**
 * Context keys CDK and its CLI own besides the feature flags and lookups (which all hold a `:`):
 * cdk.json's telemetry switch and the issues `cdk acknowledge` records.
 */
const CDK_CONTEXT_KEYS = new Set(['cli-telemetry', 'acknowledged-issue-numbers']);

/**
 * Every context key a deploy may give: each stack setting under its own name and its variable's
 * (derived from the schema through `sources`, so a setting added there is known here), and each key
 * of the README configuration table (lib/deploy-settings.ts, whose refusals say why).
 */
export function knownContextKeys(): Set<string> {
  return new Set([...Object.keys(stackSettingSources), ...Object.values(stackSettingSources), ...Object.keys(deployDecisions)]);
}

/**
 * A misspelt key (`-c alarmemail=…`) would be ignored and the deploy would go on without the
 * setting: each context key that is neither a setting nor CDK's own is a problem, naming the
 * setting it most likely meant.
 */
function unknownContextKeys(node: Node): string[] {
  const known = knownContextKeys();
  const given = Object.keys(node.getAllContext() as Record<string, unknown>);
  return given
    .filter((key) => !key.includes(':') && !CDK_CONTEXT_KEYS.has(key) && !known.has(key))
    .map((key) => {
      const folded = key.replace(/[-_]/g, '').toLowerCase();
      const meant = [...known].find((k) => k.replace(/[-_]/g, '').toLowerCase() === folded);
      return `${key}: not a setting${meant ? ` (did you mean ${meant}?)` : ''}; the settings are in bin/app.ts and README "Configuration"`;
    });
}

/** Reads the settings once; fails naming every missing, placeholder, bad, refused or unknown key. */
export function readStackConfig(node: Node, env: Record<string, string | undefined> = process.env): StackConfig {
  const raw: Record<string, string> = {};
  for (const [key, envKey] of Object.entries(sources)) {
    const value: unknown = node.tryGetContext(key) ?? node.tryGetContext(envKey) ?? env[envKey];
    if (value !== undefined && value !== '') raw[key] = String(value);
  }
  const result = stackConfigSchema.safeParse(raw);
  const problems = result.success
    ? []
    : result.error.issues.map((i) => {
        const key = i.path.join('.');
        const source = sources[key as keyof typeof sources];
        return i.code === 'invalid_type' && raw[key] === undefined
          ? `${key}: required (-c ${key}=… or ${source})`
          : `${key}: ${i.message}`;
      });
  problems.push(...unknownContextKeys(node));
  const deploy = readDeploySettings(node, env);
  problems.push(...deploy.problems);
  if (!result.success || problems.length > 0) throw new Error(`Invalid stack configuration: ${problems.join('; ')}`);
  const config = result.data;
  if (config.siteDomain && !config.certificateArn) {
    throw new Error('Invalid stack configuration: siteDomain needs certificateArn (an ACM certificate in us-east-1)');
  }
  if (config.scannerNatGateways !== undefined && config.scannerEgress !== 'fixed') {
    throw new Error('Invalid stack configuration: scannerNatGateways needs scannerEgress=fixed (without it, scans leave from Lambda\'s own addresses)');
  }
  return {
    ...config,
    slug: productSlug(config.productName),
    stackName: config.stage ? `${productSlug(config.productName)}-${config.stage}` : productSlug(config.productName),
    mailDomain: config.mailFrom.split('@')[1]!,
    environment: config.secretsVersion ? { ...deploy.environment, SECRETS_VERSION: config.secretsVersion } : deploy.environment,
  };
}
