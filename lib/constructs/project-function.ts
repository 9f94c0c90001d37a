import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ISecurityGroup, IVpc, SubnetSelection } from 'aws-cdk-lib/aws-ec2';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, type CfnFunction, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { LOG_RETENTION_DAYS } from '../../lambdas/domain/retention.js';
import { apiFunctions, workerFunctions } from '../../lambdas/routes.js';
import { type FunctionName, functionBundles } from './bundles.js';

/** What every function shares, set once by the stack. */
export interface FunctionDefaults {
  readonly productName: string;
  /** The site's public URL (may be a token resolved at deploy time). */
  readonly siteUrl: string;
  readonly logLevel: string;
  /** POWERTOOLS_SERVICE_NAME: the product slug. */
  readonly serviceName: string;
  /** Deploy-time settings (README configuration keys set with context) every function gets. */
  readonly environment?: Record<string, string>;
}

export interface ProjectFunctionProps {
  /** The function's bundle (lib/constructs/bundles.ts): an API function or a worker of lambdas/routes.ts. */
  readonly bundle: FunctionName;
  readonly defaults: FunctionDefaults;
  readonly description?: string;
  /** @default the function's definition in lambdas/routes.ts, else 512 */
  readonly memorySize?: number;
  /** @default the function's definition in lambdas/routes.ts */
  readonly timeout?: Duration;
  readonly environment?: Record<string, string>;
  /** Private subnets to run in (the scan worker behind fixed egress, lib/scanning/scanner-egress.ts). @default outside any VPC */
  readonly network?: FunctionNetwork;
}

export interface FunctionNetwork {
  readonly vpc: IVpc;
  readonly subnets: SubnetSelection;
  readonly securityGroup: ISecurityGroup;
}

/**
 * The single runtime all functions share. Node 22 rather than the newest Lambda runtime: it is
 * the runtime the team develops and tests against (Node 20/22 locally); move up deliberately.
 */
export const FUNCTION_RUNTIME = Runtime.NODEJS_22_X;

/** What active tracing needs; neither action supports resource-level permissions. */
export const XRAY_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'] as const;

/**
 * Every Lambda of the product goes through here: runtime, ARM64, memory, timeout, X-Ray, a log
 * group with retention, source maps and its bundle (one esbuild run for all functions, at synth).
 * Resources are attached with the bind helpers in `bindings.ts`, which grant and set the
 * environment together.
 */
export class ProjectFunction extends LambdaFunction {
  /** The function's own log group (LOG_RETENTION_DAYS.functionLogs: one month). */
  readonly logs: LogGroup;

  constructor(scope: Construct, id: string, props: ProjectFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: LOG_RETENTION_DAYS.functionLogs satisfies RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const definition: { description: string; memorySize?: number; timeoutSeconds: number } = { ...apiFunctions, ...workerFunctions }[props.bundle];
    // A stack left out of bundling (`cdk synth --exclusively`, `aws:cdk:bundling-stacks`) gets a stand-in, like NodejsFunction's.
    const bundle = Stack.of(scope).bundlingRequired ? functionBundles().get(props.bundle) : undefined;
    if (Stack.of(scope).bundlingRequired && !bundle) throw new Error(`No bundle for function ${props.bundle}`);
    super(scope, id, {
      code: bundle ? Code.fromAsset(bundle.dir) : Code.fromInline('exports.handler = async () => { throw new Error("not bundled"); };'),
      handler: bundle?.handler ?? 'index.handler',
      runtime: FUNCTION_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? definition.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(definition.timeoutSeconds),
      logGroup,
      description: props.description ?? definition.description,
      environment: {
        PRODUCT_NAME: props.defaults.productName,
        SITE_URL: props.defaults.siteUrl,
        LOG_LEVEL: props.defaults.logLevel,
        POWERTOOLS_SERVICE_NAME: props.defaults.serviceName,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.defaults.environment,
        ...props.environment,
      },
      ...(props.network && { vpc: props.network.vpc, vpcSubnets: props.network.subnets, securityGroups: [props.network.securityGroup] }),
    });
    this.logs = logGroup;

    // X-Ray (active tracing) with its two actions in a policy of their own, so that the acknowledgement of
    // their Resource "*" covers them and nothing else: any other wildcard in the function's policies is a finding.
    const cfnFunction = this.node.defaultChild as CfnFunction;
    cfnFunction.tracingConfig = { mode: 'Active' };
    const xray = new Policy(this, 'XRayTracing', {
      statements: [new PolicyStatement({ actions: [...XRAY_ACTIONS], resources: ['*'] })],
    });
    this.role!.attachInlinePolicy(xray);
    // Lambda refuses active tracing for a role that cannot put trace segments: the policy first.
    cfnFunction.node.addDependency(xray);
    Validations.of(xray).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords do not support resource-level permissions.',
    });

    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The basic execution role only lets the function write its own CloudWatch logs.',
      },
      ...(props.network
        ? [
            {
              id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole]',
              reason: "The VPC access role only lets the function create, describe and delete its own network interfaces in the VPC's subnets.",
            },
          ]
        : []),
      {
        id: 'AwsSolutions-L1',
        reason: `${FUNCTION_RUNTIME.name} is the project's chosen runtime (the one it is developed and tested on); upgrades are deliberate.`,
      },
    );
  }
}
