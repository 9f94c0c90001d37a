import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { fromRoot } from '../paths.js';

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
  /** The handler module, relative to the repository root, e.g. `lambdas/api/health.ts`. */
  readonly entry: string;
  readonly defaults: FunctionDefaults;
  readonly description?: string;
  /** @default 256 */
  readonly memorySize?: number;
  /** @default 10 seconds */
  readonly timeout?: Duration;
  readonly environment?: Record<string, string>;
}

/**
 * The single runtime all functions share. Node 22 rather than the newest Lambda runtime: it is
 * the runtime the team develops and tests against (Node 20/22 locally); move up deliberately.
 */
export const FUNCTION_RUNTIME = Runtime.NODEJS_22_X;

/**
 * esbuild settings for every handler. ESM matches the repository ("type": "module", `.js` import
 * suffixes, top-level await allowed); the banner gives bundled CommonJS dependencies a `require`
 * for Node built-ins. The AWS SDK is bundled, not taken from the runtime, so the code runs with
 * the SDK versions package-lock.json pins and the tests used.
 */
export const bundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  externalModules: [],
  // Warnings and errors only: the size summary of every bundle drowns synth and test output.
  logLevel: LogLevel.WARNING,
  banner: "import { createRequire as __rampartCreateRequire } from 'node:module'; const require = __rampartCreateRequire(import.meta.url);",
} as const satisfies NodejsFunctionProps['bundling'];

/**
 * Every Lambda of the product goes through here: runtime, ARM64, memory, timeout, X-Ray,
 * a log group with retention, source maps and esbuild bundling. Resources are attached with
 * the bind helpers in `bindings.ts`, which grant and set the environment together.
 */
export class ProjectFunction extends NodejsFunction {
  /** The function's own log group (one month retention). */
  readonly logs: LogGroup;

  constructor(scope: Construct, id: string, props: ProjectFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      entry: fromRoot(props.entry),
      handler: 'handler',
      runtime: FUNCTION_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      description: props.description,
      projectRoot: fromRoot(),
      depsLockFilePath: fromRoot('package-lock.json'),
      bundling: bundlingOptions,
      environment: {
        PRODUCT_NAME: props.defaults.productName,
        SITE_URL: props.defaults.siteUrl,
        LOG_LEVEL: props.defaults.logLevel,
        POWERTOOLS_SERVICE_NAME: props.defaults.serviceName,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.defaults.environment,
        ...props.environment,
      },
    });
    this.logs = logGroup;

    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The basic execution role only lets the function write its own CloudWatch logs.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords do not support resource-level permissions.',
      },
      {
        id: 'AwsSolutions-L1',
        reason: `${FUNCTION_RUNTIME.name} is the project's chosen runtime (the one it is developed and tested on); upgrades are deliberate.`,
      },
    );
  }
}
