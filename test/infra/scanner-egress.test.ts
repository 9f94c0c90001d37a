/* eslint-disable @typescript-eslint/no-explicit-any -- a synthesized template is untyped JSON; the assertions below check its shape */
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteDefinition, routes } from '../../lambdas/routes.js';
import { SCANNER_EGRESS_KEY, SCANNER_INFO_PATH } from '../../lib/product-stack.js';
import { readStackConfig } from '../../lib/stack-config.js';
import { nagFindings, removeTempDirs, synthProduct, type Synthesized, TEST_DEPLOY_ENV } from './synth.js';

/**
 * Issue 27 item 5: an optional fixed egress for the scanner on AWS (`-c scannerEgress=fixed`). Three
 * synths without bundling (the construct tree is what matters here): off (the default), on (two
 * NAT gateways), and on with one.
 */

type Resources = Record<string, { Type: string; Properties: Record<string, any>; DependsOn?: string[] }>;
type Outputs = Record<string, { Value: unknown; Description?: string }>;

const noBundling = { 'aws:cdk:bundling-stacks': [] };
let off: { resources: Resources; outputs: Outputs };
let on: Synthesized & { resources: Resources; outputs: Outputs };
let onOneGateway: { resources: Resources };

const read = (synthesized: Synthesized) => {
  const json = synthesized.template.toJSON() as { Resources: Resources; Outputs: Outputs };
  return { resources: json.Resources, outputs: json.Outputs };
};
const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const functionsOf = (resources: Resources) => ofType(resources, 'AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME);
const functionIdOf = (resources: Resources, prefix: string) => {
  const found = functionsOf(resources).filter(([id]) => id.startsWith(prefix));
  expect(found, `one function ${prefix}*`).toHaveLength(1);
  return found[0]![0];
};
const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/** The manifest's route that publishes the addresses (lambdas/routes.ts). */
const scannerInfoRoutes = (routes as readonly RouteDefinition[]).filter((route) => route.method === 'GET' && route.path === SCANNER_INFO_PATH);

beforeAll(() => {
  off = read(synthProduct({ context: noBundling }));
  const synthesized = synthProduct({ context: { ...noBundling, scannerEgress: 'fixed' } });
  on = { ...synthesized, ...read(synthesized) };
  onOneGateway = read(synthProduct({ context: noBundling, env: { SCANNER_EGRESS: 'fixed', SCANNER_NAT_GATEWAYS: '1' } }));
});

afterAll(removeTempDirs);

describe('scanner egress: the setting', () => {
  const config = (context: Record<string, unknown>, env: Record<string, string> = {}) =>
    readStackConfig(new App({ context }).node, { ...TEST_DEPLOY_ENV, ...env });

  it('is off unless given, and reads scannerEgress and scannerNatGateways from context or SCANNER_EGRESS and SCANNER_NAT_GATEWAYS', () => {
    expect(config({})).not.toHaveProperty('scannerEgress');
    expect(config({ scannerEgress: 'fixed' })).toMatchObject({ scannerEgress: 'fixed' });
    expect(config({}, { SCANNER_EGRESS: 'fixed', SCANNER_NAT_GATEWAYS: '1' })).toMatchObject({ scannerEgress: 'fixed', scannerNatGateways: 1 });
    expect(config({ scannerEgress: 'fixed', scannerNatGateways: '2' }).scannerNatGateways).toBe(2);
  });

  it('refuses at synth a mode other than fixed, a gateway count other than 1 or 2, and a count without fixed egress, naming the key', () => {
    expect(() => config({ scannerEgress: 'static' })).toThrow(/scannerEgress: /);
    expect(() => config({ scannerEgress: 'fixed', scannerNatGateways: '3' })).toThrow(/scannerNatGateways: at most 2/);
    expect(() => config({ scannerEgress: 'fixed', scannerNatGateways: '0' })).toThrow(/scannerNatGateways: /);
    expect(() => config({ scannerEgress: 'fixed', scannerNatGateways: 'two' })).toThrow(/scannerNatGateways: /);
    expect(() => config({ scannerNatGateways: '1' })).toThrow(/scannerNatGateways needs scannerEgress=fixed/);
  });

  it(`refuses ${SCANNER_EGRESS_KEY} given for a deploy: the stack sets it from the addresses it allocates`, () => {
    expect(() => config({ [SCANNER_EGRESS_KEY]: '203.0.113.7' })).toThrow(`${SCANNER_EGRESS_KEY}: set by the stack`);
  });
});

describe('scanner egress off (the default)', () => {
  it('synthesizes no network at all: no VPC, subnet, NAT gateway, Elastic IP, endpoint, flow log or security group', () => {
    expect(Object.values(off.resources).filter((r) => r.Type.startsWith('AWS::EC2::')).map((r) => r.Type)).toEqual([]);
  });

  it('runs every function outside any VPC, publishes no addresses and has no ScannerEgressAddresses output', () => {
    for (const [id, fn] of functionsOf(off.resources)) {
      expect(fn.Properties.VpcConfig, id).toBeUndefined();
      expect(fn.Properties.Environment.Variables, id).not.toHaveProperty(SCANNER_EGRESS_KEY);
    }
    expect(off.outputs).not.toHaveProperty('ScannerEgressAddresses');
  });
});

describe('scanner egress fixed', () => {
  const eipIds = () => ofType(on.resources, 'AWS::EC2::EIP').map(([id]) => id);
  const privateSubnetIds = (resources: Resources) => {
    // A private subnet: its route table's default route goes to a NAT gateway.
    const natRouteTables = ofType(resources, 'AWS::EC2::Route')
      .filter(([, route]) => route.Properties.DestinationCidrBlock === '0.0.0.0/0' && route.Properties.NatGatewayId)
      .map(([, route]) => route.Properties.RouteTableId.Ref as string);
    return ofType(resources, 'AWS::EC2::SubnetRouteTableAssociation')
      .filter(([, a]) => natRouteTables.includes(a.Properties.RouteTableId.Ref))
      .map(([, a]) => a.Properties.SubnetId.Ref as string)
      .sort();
  };

  it('adds one VPC over two Availability Zones with two NAT gateways, each on its own Elastic IP allocated by the stack, in a public subnet', () => {
    // Assess
    expect(ofType(on.resources, 'AWS::EC2::VPC')).toHaveLength(1);
    expect(eipIds()).toHaveLength(2);
    for (const id of eipIds()) expect(on.resources[id]!.Properties.Domain).toBe('vpc');
    const gateways = ofType(on.resources, 'AWS::EC2::NatGateway').map(([, nat]) => nat.Properties);
    expect(gateways).toHaveLength(2);
    expect(gateways.map((nat) => nat.AllocationId['Fn::GetAtt']).sort()).toEqual(eipIds().map((id) => [id, 'AllocationId']).sort());
    const natSubnets = gateways.map((nat) => nat.SubnetId.Ref as string);
    expect(new Set(natSubnets).size).toBe(2);
    for (const subnet of natSubnets) expect(on.resources[subnet]!.Properties.MapPublicIpOnLaunch).toBe(false);
    const zones = natSubnets.map((subnet) => JSON.stringify(on.resources[subnet]!.Properties.AvailabilityZone));
    expect(new Set(zones).size).toBe(2);
    expect(privateSubnetIds(on.resources)).toHaveLength(2);
  });

  it('runs the scan worker, and only it, in the private subnets with a security group that lets everything out and nothing in', () => {
    // Prepare
    const worker = functionIdOf(on.resources, 'ScanningScanWorker');

    // Assess
    const vpcConfig = on.resources[worker]!.Properties.VpcConfig;
    expect(vpcConfig.SubnetIds.map((s: { Ref: string }) => s.Ref).sort()).toEqual(privateSubnetIds(on.resources));
    expect(vpcConfig.SecurityGroupIds).toHaveLength(1);
    const group = on.resources[vpcConfig.SecurityGroupIds[0]['Fn::GetAtt'][0]]!;
    expect(group.Type).toBe('AWS::EC2::SecurityGroup');
    expect(group.Properties.SecurityGroupIngress).toBeUndefined();
    expect(group.Properties.SecurityGroupEgress).toEqual([{ CidrIp: '0.0.0.0/0', Description: 'Allow all outbound traffic by default', IpProtocol: '-1' }]);
    expect(ofType(on.resources, 'AWS::EC2::SecurityGroupIngress')).toEqual([]);
    const inVpc = functionsOf(on.resources).filter(([, fn]) => fn.Properties.VpcConfig).map(([id]) => id);
    expect(inVpc).toEqual([worker]);
  });

  it("gives the worker's role the VPC access policy (its network interfaces), and no other function's", () => {
    const vpcPolicy = (roleId: string) =>
      JSON.stringify(on.resources[roleId]!.Properties.ManagedPolicyArns ?? []).includes('service-role/AWSLambdaVPCAccessExecutionRole');
    for (const [id, fn] of functionsOf(on.resources)) {
      expect(vpcPolicy(fn.Properties.Role['Fn::GetAtt'][0]), id).toBe(id.startsWith('ScanningScanWorker'));
    }
  });

  it('reaches DynamoDB and S3 from the private subnets through gateway endpoints (no NAT charge), the other AWS calls through the NAT', () => {
    const endpoints = ofType(on.resources, 'AWS::EC2::VPCEndpoint').map(([, e]) => e.Properties);
    expect(endpoints.map((e) => e.VpcEndpointType)).toEqual(['Gateway', 'Gateway']);
    expect(endpoints.map((e) => JSON.stringify(e.ServiceName)).sort()).toEqual([
      expect.stringContaining('.dynamodb'),
      expect.stringContaining('.s3'),
    ]);
    const privateRouteTables = ofType(on.resources, 'AWS::EC2::Route')
      .filter(([, route]) => route.Properties.NatGatewayId)
      .map(([, route]) => route.Properties.RouteTableId.Ref as string)
      .sort();
    for (const endpoint of endpoints) {
      expect(endpoint.RouteTableIds.map((t: { Ref: string }) => t.Ref).sort()).toEqual(expect.arrayContaining(privateRouteTables));
    }
  });

  it('logs every flow of the VPC to CloudWatch for three months (an abuse report can come weeks later)', () => {
    const flowLogs = ofType(on.resources, 'AWS::EC2::FlowLog').map(([, f]) => f.Properties);
    expect(flowLogs).toHaveLength(1);
    expect(flowLogs[0]).toMatchObject({ ResourceType: 'VPC', TrafficType: 'ALL', LogDestinationType: 'cloud-watch-logs' });
    expect(on.resources[flowLogs[0]!.LogGroupName.Ref]!.Properties.RetentionInDays).toBe(90);
  });

  it('publishes the Elastic IPs, comma-separated, in the ScannerEgressAddresses output and to the function serving GET /api/scanner only', () => {
    // Prepare
    const addresses = { 'Fn::Join': [',', eipIds().map((id) => ({ 'Fn::GetAtt': [id, 'PublicIp'] }))] };
    expect(scannerInfoRoutes, `the manifest has GET ${SCANNER_INFO_PATH}`).toHaveLength(1);
    const publisher = functionIdOf(on.resources, `Api${pascal(scannerInfoRoutes[0]!.fn)}Fn`);

    // Assess
    expect(on.outputs.ScannerEgressAddresses!.Value).toEqual(addresses);
    for (const [id, fn] of functionsOf(on.resources)) {
      const variables = fn.Properties.Environment.Variables;
      if (id === publisher) expect(variables[SCANNER_EGRESS_KEY]).toEqual(addresses);
      else expect(variables, id).not.toHaveProperty(SCANNER_EGRESS_KEY);
    }
  });

  it('changes nothing else: every resource of the default stack is still there, with the worker only gaining its VPC placement', () => {
    // A function's version is named after a hash of its configuration: the publisher's (its new
    // SCANNER_EGRESS variable) is a new version of the same function, so versions compare by function.
    const byFunction = (id: string) => id.replace(/CurrentVersion[0-9A-Fa-f]+$/, 'CurrentVersion');
    const offIds = new Set(Object.keys(off.resources).map(byFunction));
    const onIds = new Set(Object.keys(on.resources).map(byFunction));
    const added = Object.keys(on.resources).filter((id) => !offIds.has(byFunction(id)));
    const types = [...new Set(added.map((id) => on.resources[id]!.Type))].sort();
    expect(types.filter((t) => !t.startsWith('AWS::EC2::'))).toEqual([
      // The flow log's group and role, and CDK's custom resource that strips the default security group's rules.
      'AWS::IAM::Policy',
      'AWS::IAM::Role',
      'AWS::Lambda::Function',
      'AWS::Logs::LogGroup',
      'Custom::VpcRestrictDefaultSG',
    ]);
    expect(Object.keys(off.resources).filter((id) => !onIds.has(byFunction(id)))).toEqual([]);
    expect(functionsOf(on.resources).map(([id]) => id)).toEqual(functionsOf(off.resources).map(([id]) => id));
  });

  it('with scannerNatGateways=1, has one NAT gateway on one Elastic IP, which both private subnets route through', () => {
    const gateways = ofType(onOneGateway.resources, 'AWS::EC2::NatGateway');
    expect(gateways).toHaveLength(1);
    expect(ofType(onOneGateway.resources, 'AWS::EC2::EIP')).toHaveLength(1);
    const natRoutes = ofType(onOneGateway.resources, 'AWS::EC2::Route').filter(([, route]) => route.Properties.NatGatewayId);
    expect(natRoutes.map(([, route]) => route.Properties.NatGatewayId.Ref)).toEqual([gateways[0]![0], gateways[0]![0]]);
    expect(privateSubnetIds(onOneGateway.resources)).toHaveLength(2);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions finding', () => {
    const findings = nagFindings(on.app);
    expect(findings, findings.join('\n')).toEqual([]);
  });
});
