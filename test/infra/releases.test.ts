/* eslint-disable @typescript-eslint/no-explicit-any -- a synthesized template is untyped JSON; the assertions below check its shape */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFunctions, workerFunctions } from '../../lambdas/routes.js';
import { createApp } from '../../lib/app.js';
import { LIVE_ALIAS } from '../../lib/api/releases.js';
import { ASSET_CLEANUP_SOURCE, ASSET_MANIFEST_KEY, RETIRED_STATE_KEY } from '../../lib/site/asset-retention.js';
import { fakeFrontendBuild, nagFindings, removeTempDirs, synthProduct, type Synthesized, TEST_DEPLOY_ENV } from './synth.js';

/**
 * Issue 30 item 7 in the template: tracing on every function, a `stage` that names the stack and its
 * named resources so staging and production share an account, and the API functions served through
 * their alias `live` with a CodeDeploy canary that rolls back on the function's error alarm.
 */
type Resource = { Type: string; Properties: Record<string, any>; UpdatePolicy?: Record<string, any> };
type Resources = Record<string, Resource>;

let production: Synthesized;
let staging: Synthesized;
const resourcesOf = (s: Synthesized) => s.template.toJSON().Resources as Resources;
const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

/** The project's functions by their handler's name (`{name}.handler`), as test/infra/deployed-functions.ts finds them. */
function functionsByName(resources: Resources): Map<string, string> {
  const found = new Map<string, string>();
  for (const [id, r] of ofType(resources, 'AWS::Lambda::Function')) {
    const handler = String(r.Properties.Handler ?? '');
    const name = handler.slice(0, handler.lastIndexOf('.'));
    if (name in apiFunctions || name in workerFunctions) found.set(name, id);
  }
  return found;
}

/** The alias of a function, by its logical id. */
function aliasesOf(resources: Resources, fnId: string): [string, Resource][] {
  return ofType(resources, 'AWS::Lambda::Alias').filter(([, a]) => a.Properties.FunctionName?.Ref === fnId);
}

beforeAll(() => {
  production = synthProduct({ frontendDist: fakeFrontendBuild() });
  staging = synthProduct({ frontendDist: fakeFrontendBuild(), context: { stage: 'staging', canary: 'off' } });
}, 300_000);

afterAll(() => removeTempDirs());

describe('tracing', () => {
  it('is active on every function, and nothing turns the SDK tracing off', () => {
    const resources = resourcesOf(production);
    const functions = functionsByName(resources);
    expect(functions.size).toBe(Object.keys(apiFunctions).length + Object.keys(workerFunctions).length);
    for (const [name, id] of functions) {
      const props = resources[id]!.Properties;
      expect(props.TracingConfig, name).toEqual({ Mode: 'Active' });
      expect(props.Environment.Variables.POWERTOOLS_TRACE_ENABLED, name).toBeUndefined();
      expect(props.Environment.Variables.POWERTOOLS_SERVICE_NAME, name).toBe('rampart');
    }
  });
});

describe('the API functions on a canary (the default)', () => {
  it('each serve API Gateway through their alias live, at the version this deploy published', () => {
    const resources = resourcesOf(production);
    const functions = functionsByName(resources);
    const integrations = ofType(resources, 'AWS::ApiGatewayV2::Integration');
    expect(integrations).toHaveLength(Object.keys(apiFunctions).length);
    for (const name of Object.keys(apiFunctions)) {
      const fnId = functions.get(name)!;
      const aliases = aliasesOf(resources, fnId);
      expect(aliases, name).toHaveLength(1);
      const [aliasId, alias] = aliases[0]!;
      expect(alias.Properties.Name).toBe(LIVE_ALIAS);
      const versionId = alias.Properties.FunctionVersion['Fn::GetAtt'][0] as string;
      expect(resources[versionId]!.Type).toBe('AWS::Lambda::Version');
      expect(resources[versionId]!.Properties.FunctionName).toEqual({ Ref: fnId });
      // Its integration invokes the alias, and API Gateway may invoke the alias (not only $LATEST).
      expect(integrations.filter(([, i]) => i.Properties.IntegrationUri?.Ref === aliasId), name).toHaveLength(1);
      const permissions = ofType(resources, 'AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com' && p.Properties.FunctionName?.Ref === aliasId);
      expect(permissions, name).toHaveLength(1);
    }
    // Workers are invoked by their queues and rules, not through an alias.
    for (const name of Object.keys(workerFunctions)) expect(aliasesOf(resources, functions.get(name)!), name).toHaveLength(0);
  });

  it('shift 10% of the requests for 5 minutes through CodeDeploy and roll back on the function’s error alarm', () => {
    const resources = resourcesOf(production);
    const functions = functionsByName(resources);
    const groups = ofType(resources, 'AWS::CodeDeploy::DeploymentGroup');
    expect(groups).toHaveLength(Object.keys(apiFunctions).length);
    expect(ofType(resources, 'AWS::CodeDeploy::Application')).toHaveLength(1);
    const roles = new Set(groups.map(([, g]) => JSON.stringify(g.Properties.ServiceRoleArn)));
    expect(roles.size).toBe(1);
    for (const name of Object.keys(apiFunctions)) {
      const fnId = functions.get(name)!;
      const [aliasId, alias] = aliasesOf(resources, fnId)[0]!;
      // CloudFormation hands the alias's update to CodeDeploy, with the function's own deployment group.
      const update = alias.UpdatePolicy?.CodeDeployLambdaAliasUpdate;
      expect(update, name).toBeDefined();
      const [groupId, group] = groups.find(([id]) => update.DeploymentGroupName.Ref === id)!;
      expect(groupId).toBeDefined();
      expect(group.Properties.DeploymentConfigName).toBe('CodeDeployDefault.LambdaCanary10Percent5Minutes');
      expect(group.Properties.DeploymentStyle).toEqual({ DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' });
      expect(group.Properties.AutoRollbackConfiguration.Enabled).toBe(true);
      expect(group.Properties.AutoRollbackConfiguration.Events).toEqual(expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']));
      // The rollback alarm: the function's errors (every version's, the canary's included).
      const alarms = group.Properties.AlarmConfiguration.Alarms as { Name: { Ref: string } }[];
      expect(group.Properties.AlarmConfiguration.Enabled).toBe(true);
      expect(alarms, name).toHaveLength(1);
      const alarm = resources[alarms[0]!.Name.Ref]!;
      expect(alarm.Properties.MetricName).toBe('Errors');
      expect(alarm.Properties.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: fnId } }]);
      expect(aliasId).toBeDefined();
    }
  });

  it('adds no cdk-nag finding', () => {
    // CodeDeploy's service role holds AWS's AWSCodeDeployRoleForLambdaLimited, acknowledged with its reason; the asset cleanup's grants likewise.
    expect(nagFindings(production.app).filter((finding) => /Releases|AssetRetention/.test(finding))).toEqual([]);
  });
});

describe('a stage', () => {
  it('names the stack and its named resources, so staging and production live in one account', () => {
    expect(production.stack.stackName).toBe('rampart');
    expect(staging.stack.stackName).toBe('rampart-staging');
    const resources = resourcesOf(staging);
    const [[, configurationSet]] = ofType(resources, 'AWS::SES::ConfigurationSet') as [[string, Resource]];
    expect(configurationSet.Properties.Name).toBe('rampart-staging-mail');
    expect(ofType(resourcesOf(production), 'AWS::SES::ConfigurationSet')[0]![1].Properties.Name).toBe('rampart-mail');
    const [[, api]] = ofType(resources, 'AWS::ApiGatewayV2::Api') as [[string, Resource]];
    expect(api.Properties.Name).toBe('rampart-staging-api');
    // The business metrics' `service` dimension, and so the alarms on them, are the stage's own.
    for (const [name, id] of functionsByName(resources)) {
      expect(resources[id]!.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME, name).toBe('rampart-staging');
    }
    const serviceDimensions = ofType(resources, 'AWS::CloudWatch::Alarm')
      .flatMap(([, a]) => [...(a.Properties.Dimensions ?? []), ...((a.Properties.Metrics ?? []) as any[]).flatMap((m) => m.MetricStat?.Metric?.Dimensions ?? [])])
      .filter((d: { Name: string }) => d.Name === 'service');
    expect(serviceDimensions.length).toBeGreaterThan(0);
    for (const d of serviceDimensions) expect(d.Value).toBe('rampart-staging');
    // Every taggable resource says which stage it belongs to.
    const [[, table]] = ofType(resources, 'AWS::DynamoDB::GlobalTable').concat(ofType(resources, 'AWS::DynamoDB::Table')) as [[string, Resource]];
    expect(table.Properties.Tags ?? table.Properties.Replicas?.[0]?.Tags).toEqual(expect.arrayContaining([{ Key: 'stage', Value: 'staging' }]));
  });

  it('with canary=off keeps the alias live but moves it at once, without CodeDeploy', () => {
    const resources = resourcesOf(staging);
    expect(ofType(resources, 'AWS::Lambda::Alias')).toHaveLength(Object.keys(apiFunctions).length);
    expect(ofType(resources, 'AWS::CodeDeploy::DeploymentGroup')).toHaveLength(0);
    for (const [, alias] of ofType(resources, 'AWS::Lambda::Alias')) expect(alias.UpdatePolicy).toBeUndefined();
  });

  it('is refused when it is not a short lower-case name, and so is a canary that is neither on nor off', () => {
    const synth = (context: Record<string, string>) => () => createApp({ env: { ...TEST_DEPLOY_ENV }, frontendDist: null, context, nag: false });
    expect(synth({ stage: 'Staging' })).toThrow(/stage: a short lower-case name/);
    expect(synth({ stage: 'prod-2' })).toThrow(/stage: a short lower-case name/);
    expect(synth({ canary: 'yes' })).toThrow(/canary:/);
    // Under the variable's name too, as every setting (STAGE, CANARY), and never as an unknown key.
    expect(synth({ STAGE: 'staging' })).not.toThrow();
  });
});

describe('site assets after a deploy', () => {
  const deployments = () => ofType(resourcesOf(production), 'Custom::CDKBucketDeployment');

  it('keep the hashed assets (no prune) and prune the pages, never the cleanup’s list', () => {
    const resources = resourcesOf(production);
    const found = deployments();
    expect(found).toHaveLength(2);
    const assets = found.find(([id]) => id.includes('DeployAssets'))![1].Properties;
    const pages = found.find(([id]) => id.includes('DeployPages'))![1].Properties;
    expect(assets.Prune).toBe(false);
    expect(assets.Include).toEqual(['assets/*']);
    expect(pages.Prune ?? true).toBe(true);
    expect(pages.Exclude).toEqual(['assets/*', RETIRED_STATE_KEY]);
    // The pages' deployment writes the build's asset list with them (fakeFrontendBuild: one asset).
    expect(pages.SourceObjectKeys).toHaveLength(3);
    const manifests = readdirSync(production.app.outdir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith(ASSET_MANIFEST_KEY.split('/')[1]!));
    expect(manifests.map((file) => JSON.parse(readFileSync(path.join(production.app.outdir, file), 'utf8')) as unknown)).toContainEqual({
      prefix: 'assets/',
      assets: ['assets/app-0123abcd.js'],
    });
    expect(Object.keys(resources).length).toBeGreaterThan(0);
  });

  it('are cleaned up daily by the shipped cleanup, which may delete under assets/ only', () => {
    const resources = resourcesOf(production);
    const cleanups = ofType(resources, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Code?.ZipFile === ASSET_CLEANUP_SOURCE);
    expect(cleanups).toHaveLength(1);
    const [cleanupId, cleanup] = cleanups[0]!;
    const [[bucketId]] = ofType(resources, 'AWS::S3::Bucket').filter(([, b]) => b.Properties.LoggingConfiguration?.LogFilePrefix === 'site/') as [[string, Resource]];
    expect(cleanup.Properties.Environment.Variables.SITE_BUCKET).toEqual({ Ref: bucketId });
    const rules = ofType(resources, 'AWS::Events::Rule').filter(([, r]) => (r.Properties.Targets as any[]).some((t) => t.Arn?.['Fn::GetAtt']?.[0] === cleanupId));
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties.ScheduleExpression).toBe('rate(1 day)');
    const roleId = cleanup.Properties.Role['Fn::GetAtt'][0] as string;
    const statements = ofType(resources, 'AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as any[]).some((r) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as any[]);
    const deletes = statements.filter((st) => [st.Action].flat().some((a: string) => a.startsWith('s3:DeleteObject')));
    expect(deletes).toHaveLength(1);
    expect(JSON.stringify(deletes[0].Resource)).toContain('/assets/*');
    expect(JSON.stringify(deletes[0].Resource)).not.toMatch(/"\/\*"/);
    // Without a frontend build there is nothing to clean.
    expect(ofType(resourcesOf(synthProduct()), 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Code?.ZipFile === ASSET_CLEANUP_SOURCE)).toHaveLength(0);
  }, 120_000);
});
