import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../lib/app.js';
import { WAF_RATE_LIMIT_PER_ADDRESS } from '../../lib/site/edge-firewall.js';
import { cdkJsonContext, nagFindings, removeTempDirs, TEST_DEPLOY_ENV } from './synth.js';

type Resource = { Type: string; Properties: Record<string, unknown>; Metadata?: Record<string, unknown> };

const workDir = mkdtempSync(path.join(tmpdir(), 'rampart-edge-'));
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  removeTempDirs();
});

/** The whole app as bin/app.ts builds it, cdk-nag included (every stack, the edge stack too). */
function synthApp(env: Record<string, string> = {}) {
  const { app, stack, edge } = createApp({
    nag: false,
    env: { ...TEST_DEPLOY_ENV, ...env },
    frontendDist: null,
    context: cdkJsonContext(),
    outdir: mkdtempSync(path.join(workDir, 'out-')),
  });
  return { app, stack, edge, product: Template.fromStack(stack), edgeTemplate: edge ? Template.fromStack(edge) : undefined };
}

const ofType = (template: Template, type: string) => Object.values(template.toJSON().Resources as Record<string, Resource>).filter((r) => r.Type === type);
const webAclOf = (template: Template) => ofType(template, 'AWS::WAFv2::WebACL').map((r) => r.Properties);
const distributionConfig = (template: Template) =>
  ofType(template, 'AWS::CloudFront::Distribution')[0]!.Properties.DistributionConfig as Record<string, unknown>;

interface Rule {
  Name: string;
  Priority: number;
  Action?: unknown;
  OverrideAction?: unknown;
  Statement: {
    RateBasedStatement?: { Limit: number; AggregateKeyType: string; EvaluationWindowSec: number };
    ManagedRuleGroupStatement?: { VendorName: string; Name: string; RuleActionOverrides?: { Name: string; ActionToUse: unknown }[] };
  };
  VisibilityConfig: { CloudWatchMetricsEnabled: boolean; SampledRequestsEnabled: boolean; MetricName: string };
}

function expectTheRules(acl: Record<string, unknown>) {
  expect(acl.Scope).toBe('CLOUDFRONT');
  expect(acl.DefaultAction).toEqual({ Allow: {} });
  const rules = acl.Rules as Rule[];
  expect(rules.map((r) => [r.Priority, r.Name])).toEqual([
    [0, 'RatePerAddress'],
    [1, 'AWSManagedRulesCommonRuleSet'],
    [2, 'AWSManagedRulesKnownBadInputsRuleSet'],
  ]);
  expect(rules[0]!.Action).toEqual({ Block: {} });
  expect(rules[0]!.Statement.RateBasedStatement).toEqual({ Limit: 3000, AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
  expect(WAF_RATE_LIMIT_PER_ADDRESS).toBe(3000);
  expect(rules[1]!.OverrideAction).toEqual({ None: {} });
  expect(rules[1]!.Statement.ManagedRuleGroupStatement).toEqual({
    VendorName: 'AWS',
    Name: 'AWSManagedRulesCommonRuleSet',
    RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
  });
  expect(rules[2]!.Statement.ManagedRuleGroupStatement).toEqual({ VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' });
  const visibility = [acl.VisibilityConfig, ...rules.map((r) => r.VisibilityConfig)] as Rule['VisibilityConfig'][];
  expect(visibility.every((v) => v.CloudWatchMetricsEnabled && v.SampledRequestsEnabled)).toBe(true);
  expect(new Set(visibility.map((v) => v.MetricName)).size).toBe(4);
}

describe('AWS WAF in front of CloudFront (setting waf)', () => {
  it('is on by default: a CLOUDFRONT web ACL in a us-east-1 edge stack with the rate rule and both managed groups, its ARN on the distribution, cdk-nag clean without the CFR2 acknowledgement', () => {
    // Prepare / Act: the product in ap-southeast-2, no waf setting.
    const { app, stack, edge, product, edgeTemplate } = synthApp();

    // Assess: the edge stack is in us-east-1 and holds the only web ACL.
    expect(edge?.region).toBe('us-east-1');
    expect(edge?.stackName).toBe(`${stack.stackName}-edge`);
    expect(webAclOf(product)).toEqual([]);
    const acls = webAclOf(edgeTemplate!);
    expect(acls).toHaveLength(1);
    expectTheRules(acls[0]!);
    // The distribution reads the ARN from the edge stack's output (cdk.json: weak cross-stack references,
    // Fn::GetStackOutput across regions), and that output is the web ACL's ARN.
    const reference = distributionConfig(product).WebACLId as { 'Fn::GetStackOutput': { StackName: string; Region: string; OutputName: string } };
    expect(reference['Fn::GetStackOutput']).toMatchObject({ StackName: edge!.stackName, Region: 'us-east-1' });
    const [aclId] = Object.keys(edgeTemplate!.findResources('AWS::WAFv2::WebACL'));
    const outputs = edgeTemplate!.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs[reference['Fn::GetStackOutput'].OutputName]?.Value).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(nagFindings(app)).toEqual([]);
    const acknowledged = JSON.stringify(app.node.findAll().map((c) => c.node.metadata.map((m) => m.data as unknown)));
    expect(acknowledged).not.toContain('AwsSolutions-CFR2');
  }, 300_000);

  it('puts the web ACL in the product stack itself when it deploys to us-east-1 (no edge stack)', () => {
    const { app, edge, product } = synthApp({ AWS_REGION: 'us-east-1' });
    expect(edge).toBeUndefined();
    expect(app.node.children.filter((c) => c.node.id.endsWith('-edge'))).toEqual([]);
    const acls = webAclOf(product);
    expect(acls).toHaveLength(1);
    expectTheRules(acls[0]!);
    const [aclId] = Object.entries(product.findResources('AWS::WAFv2::WebACL'))[0]!;
    expect(distributionConfig(product).WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(nagFindings(app)).toEqual([]);
  }, 300_000);

  it('waf=off: no web ACL anywhere, no WebACLId, and CFR2 acknowledged with its reason', () => {
    const { app, edge, product } = synthApp({ WAF: 'off' });
    expect(edge).toBeUndefined();
    expect(webAclOf(product)).toEqual([]);
    expect(distributionConfig(product).WebACLId).toBeUndefined();
    expect(nagFindings(app)).toEqual([]);
    const acknowledged = JSON.stringify(app.node.findAll().map((c) => c.node.metadata.map((m) => m.data as unknown)));
    expect(acknowledged).toMatch(/AwsSolutions-CFR2[^\]]*waf=off/);
  }, 300_000);

  const cfnLint = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  it.skipIf((cfnLint.error || cfnLint.status !== 0) && process.env.CFN_LINT_REQUIRED !== '1')('the edge stack\'s template passes cfn-lint in us-east-1', () => {
    const { edgeTemplate } = synthApp();
    const file = path.join(workDir, 'edge.json');
    writeFileSync(file, JSON.stringify(edgeTemplate!.toJSON()));
    const run = spawnSync('cfn-lint', ['--format', 'json', '--regions', 'us-east-1', '--', file], { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    const matches = JSON.parse(run.stdout || '[]') as { Level: string; Rule: { Id: string }; Message: string }[];
    expect(matches.filter((m) => m.Level === 'Error').map((m) => `${m.Rule.Id}: ${m.Message}`)).toEqual([]);
  }, 300_000);
});
