import type { Node } from 'constructs';
import * as z from 'zod';
import { productSlug } from '../lambdas/config.js';

/**
 * The stack's settings. Each comes from CDK context (`-c key=value`), else the environment
 * variable beside it, else the default. bin/app.ts documents them.
 */
const stackConfigSchema = z.object({
  productName: z.string().trim().min(1).max(40).default('Rampart'),
  /** Optional custom domain for the site; needs `certificateArn` (an ACM certificate in us-east-1). */
  siteDomain: z
    .string()
    .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'a host name such as app.example.com')
    .optional(),
  certificateArn: z.string().startsWith('arn:').optional(),
  mailFrom: z.email().default('no-reply@example.com'),
  /**
   * Who sends Cognito's emails (sign-up and reset codes): `ses` = from `mailFrom` through the SES
   * domain identity; `cognito` = Cognito's default sender, for a first deploy until the domain's DKIM
   * records are published and verified (Cognito refuses an unverified identity).
   */
  userPoolEmail: z.enum(['ses', 'cognito']).default('ses'),
  alarmEmail: z.email().optional(),
  logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
  /** Path of the SecureString parameters `{path}/secret-key` and `{path}/webhook-secret` (Stripe); none = payments off. */
  stripeParameterPath: z
    .string()
    .regex(/^(\/[A-Za-z0-9_.-]+)+$/, 'an SSM parameter path such as /rampart/stripe')
    .optional(),
});

export type StackConfig = z.output<typeof stackConfigSchema> & {
  /** Lower-case slug of the product name: stack name, resource name prefixes. */
  readonly slug: string;
  /** The domain part of `mailFrom`: the SES identity. */
  readonly mailDomain: string;
};

const sources = {
  productName: 'PRODUCT_NAME',
  siteDomain: 'SITE_DOMAIN',
  certificateArn: 'SITE_CERTIFICATE_ARN',
  mailFrom: 'MAIL_FROM',
  userPoolEmail: 'USER_POOL_EMAIL',
  alarmEmail: 'ALARM_EMAIL',
  logLevel: 'LOG_LEVEL',
  stripeParameterPath: 'STRIPE_PARAMETER_PATH',
} as const satisfies Record<keyof z.input<typeof stackConfigSchema>, string>;

/** Reads the settings once; fails naming every bad key. */
export function readStackConfig(node: Node, env: Record<string, string | undefined> = process.env): StackConfig {
  const raw: Record<string, string> = {};
  for (const [key, envKey] of Object.entries(sources)) {
    const value: unknown = node.tryGetContext(key) ?? env[envKey];
    if (value !== undefined && value !== '') raw[key] = String(value);
  }
  const result = stackConfigSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid stack configuration: ${problems.join('; ')}`);
  }
  const config = result.data;
  if (config.siteDomain && !config.certificateArn) {
    throw new Error('Invalid stack configuration: siteDomain needs certificateArn (an ACM certificate in us-east-1)');
  }
  return { ...config, slug: productSlug(config.productName), mailDomain: config.mailFrom.split('@')[1]! };
}
