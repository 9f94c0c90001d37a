import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { type RouteDefinition, routes } from '../lambdas/routes.js';
import { frontendDist, hasFrontendBuild } from './paths.js';
import { ProductStack } from './product-stack.js';
import { attachEdgeFirewall, type EdgeStack } from './site/edge-firewall.js';
import { readStackConfig } from './stack-config.js';

export interface CreateAppOptions extends AppProps {
  /** Register cdk-nag's AwsSolutions pack as a validation plugin (fails synth on findings). @default true */
  readonly nag?: boolean;
  /** Built frontend to deploy. @default frontend/dist when it holds an index.html */
  readonly frontendDist?: string | null;
  /** The route manifest to deploy. @default lambdas/routes.ts (the figures test synthesizes one route fewer) */
  readonly routes?: readonly RouteDefinition[];
  /** Environment variables to read settings from. @default process.env */
  readonly env?: Record<string, string | undefined>;
}

/** Builds the CDK app: bin/app.ts and the infra tests both come through here. */
export function createApp(options: CreateAppOptions = {}): { app: App; stack: ProductStack; edge?: EdgeStack } {
  const { nag = true, frontendDist: dist, env = process.env, routes: manifest = routes, ...appProps } = options;
  const app = new App(appProps);
  const config = readStackConfig(app.node, env);
  const stack = new ProductStack(app, config.stackName, {
    description: `${config.productName}: website security assessments (site, API, scans)`,
    // The region is the operator's explicit choice (stack-config.ts); the account is the one the CLI's
    // credentials belong to (unset offline: the template then uses AWS::AccountId).
    env: { account: env.CDK_DEFAULT_ACCOUNT, region: config.region },
    config,
    routes: manifest,
    frontendDist: dist === null ? undefined : (dist ?? (hasFrontendBuild() ? frontendDist : undefined)),
    // The WAF web ACL's ARN comes from the us-east-1 edge stack (lib/site/edge-firewall.ts).
    crossRegionReferences: config.waf === 'on' && config.region !== 'us-east-1',
  });
  const edge = config.waf === 'on' ? attachEdgeFirewall(app, stack, stack.site.distribution, env.CDK_DEFAULT_ACCOUNT) : undefined;
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, edge };
}
