import { type App, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/**
 * Requests one client address may send in five minutes before the web ACL blocks it (for the rest of
 * the window). The busiest honest client is a browser polling a running audit (lib/api/throttles.ts:
 * back-off from 2 s) plus its page loads: well under 10 a second; a customer's office behind one NAT
 * address with a few people on the dashboard stays under it too.
 */
export const WAF_RATE_LIMIT_PER_ADDRESS = 3_000;
export const WAF_RATE_WINDOW_SECONDS = 300;

/**
 * Rules of AWS's common rule set switched to Count: SizeRestrictions_BODY blocks bodies over 8 KB,
 * and agent reports (up to 1 MB) and provider branding (logo up to 128 KB) are larger; the routes
 * hold their own limits (lambdas/routes.ts maxBodyBytes).
 */
export const WAF_COMMON_RULES_COUNTED = ['SizeRestrictions_BODY'] as const;

/** The AWS managed rule groups the web ACL runs, after the rate rule. */
export const WAF_MANAGED_RULE_GROUPS = ['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet'] as const;

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/**
 * AWS WAF in front of CloudFront (setting `waf`, on by default): a per-address rate rule, AWS's
 * common rule set and its known-bad-inputs group. A CloudFront web ACL must be created in us-east-1,
 * so it lives in that region's stack (EdgeStack, or the product stack itself when it deploys there).
 * Metrics are in CloudWatch in us-east-1 (namespace AWS/WAFV2, dimension WebACL = `metricPrefix`).
 */
export class EdgeFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: { readonly metricPrefix: string }) {
    super(scope, id);
    const prefix = props.metricPrefix;
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Site and API: per-address rate limit, AWS common and known-bad-inputs rules',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(prefix),
      rules: [
        {
          name: 'RatePerAddress',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: { limit: WAF_RATE_LIMIT_PER_ADDRESS, aggregateKeyType: 'IP', evaluationWindowSec: WAF_RATE_WINDOW_SECONDS },
          },
          visibilityConfig: visibility(`${prefix}-rate-per-address`),
        },
        ...WAF_MANAGED_RULE_GROUPS.map((name, index) => ({
          name,
          priority: index + 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name,
              ...(name === 'AWSManagedRulesCommonRuleSet'
                ? { ruleActionOverrides: WAF_COMMON_RULES_COUNTED.map((rule) => ({ name: rule, actionToUse: { count: {} } })) }
                : {}),
            },
          },
          visibilityConfig: visibility(`${prefix}-${name}`),
        })),
      ],
    });
    this.webAclArn = this.webAcl.attrArn;
  }
}

/** The small us-east-1 stack holding the web ACL when the product deploys to another region. */
export class EdgeStack extends Stack {
  readonly firewall: EdgeFirewall;

  constructor(scope: Construct, id: string, props: StackProps & { readonly metricPrefix: string }) {
    super(scope, id, { ...props, crossRegionReferences: true });
    this.firewall = new EdgeFirewall(this, 'Firewall', { metricPrefix: props.metricPrefix });
    new CfnOutput(this, 'WebAclArn', { value: this.firewall.webAclArn, description: 'The CloudFront web ACL (AWS WAF)' });
  }
}

/**
 * Puts the web ACL in front of the distribution: in the product stack when it deploys to us-east-1,
 * else in `{stack}-edge` in us-east-1, whose ARN reaches the product stack through CDK's cross-region
 * references (an SSM parameter written in the product's region; both stacks need
 * crossRegionReferences and an explicit region). `cdk deploy --all` deploys the edge stack first.
 */
export function attachEdgeFirewall(app: App, product: Stack, distribution: Distribution, account?: string): EdgeStack | undefined {
  const metricPrefix = `${product.stackName}-edge`;
  if (product.region === 'us-east-1') {
    distribution.attachWebAclId(new EdgeFirewall(product, 'EdgeFirewall', { metricPrefix }).webAclArn);
    return undefined;
  }
  const edge = new EdgeStack(app, `${product.stackName}-edge`, {
    description: `${product.stackName}: AWS WAF web ACL for the CloudFront distribution (us-east-1)`,
    env: { account, region: 'us-east-1' },
    metricPrefix,
  });
  distribution.attachWebAclId(edge.firewall.webAclArn);
  return edge;
}
