/**
 * The CDK app: `npx cdk synth` / `npx cdk deploy`. Synth is offline: esbuild bundles the Lambdas
 * locally (no Docker) and cdk-nag's AwsSolutions checks run as a validation plugin, failing synth
 * on any unacknowledged finding.
 *
 * Settings: CDK context (`-c key=value`), else the environment variable (or context key) beside it,
 * else the default. Synth fails naming every missing, placeholder or bad one.
 *   region          AWS_REGION            (required)            the region to deploy to, e.g. ap-southeast-2. Not CDK_DEFAULT_REGION:
 *                                                              the CLI falls back to us-east-1 when the profile names none
 *   mailFrom        MAIL_FROM             (required)            sender address; its domain becomes the SES identity; a placeholder
 *                                                              domain (example.com/.org/.net, *.example, *.test, localhost …) is refused
 *   productName     PRODUCT_NAME          Rampart               names, stack name (its slug), PRODUCT_NAME on every Lambda
 *   siteDomain      SITE_DOMAIN           (none)                custom domain for the site; needs certificateArn
 *   certificateArn  SITE_CERTIFICATE_ARN  (none)                ACM certificate in us-east-1 covering siteDomain
 *   userPoolEmail   USER_POOL_EMAIL       ses                   ses: Cognito's codes come from mailFrom through SES; cognito: Cognito's
 *                                                              default sender (first deploy, until the domain's DKIM records verify)
 *   alarmEmail      ALARM_EMAIL           (none)                subscribed to the operator alarm topic
 *   logLevel        LOG_LEVEL             INFO                  LOG_LEVEL on every Lambda
 *   stripeParameterPath STRIPE_PARAMETER_PATH (none)           SecureString parameters {path}/secret-key and {path}/webhook-secret
 *                                                              (Stripe); without it checkout answers 'Failed to create checkout session'
 *   hibpParameter   HIBP_PARAMETER        (none)                SecureString parameter holding the HIBP API key (the scan worker
 *                                                              reads it at cold start); without it the breaches check says "not configured"
 *   scannerEgress   SCANNER_EGRESS        (none)                fixed: the scan worker in a VPC behind NAT gateways on Elastic IPs, published
 *                                                              on /scanner and in the ScannerEgressAddresses output (costs money: README)
 *   scannerNatGateways SCANNER_NAT_GATEWAYS 2                   with scannerEgress=fixed: 2 (one per AZ) or 1 (half the cost, one address)
 *   secretsVersion  SECRETS_VERSION       (none)                a label given to every function as SECRETS_VERSION: a new one starts new
 *                                                              instances, which read the SSM parameters afresh (rotation, README step 8)
 *   originVerifyVersion ORIGIN_VERIFY_VERSION (none)           the origin secret's Secrets Manager VersionId, pinned in its reference so the
 *                                                              distribution and the API functions re-read a rotated value
 *   stage           STAGE                 (none)                staging, prod …: the stack {slug}-{stage} and its named resources, so stages
 *                                                              share an account (each needs its own mailFrom domain: one SES identity a region)
 *   canary          CANARY                on                    on: API functions behind their alias live, a new version takes 10% for 5 min
 *                                                              (CodeDeploy), rolled back on the function's error alarm; off: at once
 * Unknown context keys (a misspelt -c alarmemail=…) are refused, naming the setting meant; the region
 * must be one of lib/stack-config.ts DEPLOY_REGIONS (the regions the template is linted for).
 * README configuration keys (README "Configuration"): each plain setting under its own name, as
 * context or environment variable (`-c SCAN_RESOLVERS=1.1.1.1,8.8.8.8`), validated like the Lambdas
 * validate it and given to every function; secrets and local-only keys are refused
 * (lib/deploy-settings.ts says which and why).
 * Account: CDK_DEFAULT_ACCOUNT (set by the CLI from your credentials; offline, AWS::AccountId).
 * frontend/dist is uploaded to the site bucket only when it exists (run `npm run build` first).
 */
import { createApp } from '../lib/app.js';

createApp();
