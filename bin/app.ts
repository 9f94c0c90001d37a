/**
 * The CDK app: `npx cdk synth` / `npx cdk deploy`. Synth is offline: esbuild bundles the Lambdas
 * locally (no Docker) and cdk-nag's AwsSolutions checks run as a validation plugin, failing synth
 * on any unacknowledged finding.
 *
 * Settings: CDK context (`-c key=value`), else the environment variable, else the default.
 *   productName     PRODUCT_NAME          Rampart               names, stack name (its slug), PRODUCT_NAME on every Lambda
 *   siteDomain      SITE_DOMAIN           (none)                custom domain for the site; needs certificateArn
 *   certificateArn  SITE_CERTIFICATE_ARN  (none)                ACM certificate in us-east-1 covering siteDomain
 *   mailFrom        MAIL_FROM             no-reply@example.com  sender address; its domain becomes the SES identity
 *   userPoolEmail   USER_POOL_EMAIL       ses                   ses: Cognito's codes come from mailFrom through SES; cognito: Cognito's
 *                                                              default sender (first deploy, until the domain's DKIM records verify)
 *   alarmEmail      ALARM_EMAIL           (none)                subscribed to the operator alarm topic
 *   logLevel        LOG_LEVEL             INFO                  LOG_LEVEL on every Lambda
 *   stripeParameterPath STRIPE_PARAMETER_PATH (none)           SecureString parameters {path}/secret-key and {path}/webhook-secret
 *                                                              (Stripe); without it checkout answers 'Failed to create checkout session'
 * Account and region: CDK_DEFAULT_ACCOUNT / CDK_DEFAULT_REGION (set by the CLI from your profile).
 * frontend/dist is uploaded to the site bucket only when it exists (run `npm run build` first).
 */
import { createApp } from '../lib/app.js';

createApp();
