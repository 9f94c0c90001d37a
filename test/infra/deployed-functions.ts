import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { type ApiFunctionName, apiFunctions, type WorkerFunctionName, workerFunctions } from '../../lambdas/routes.js';
import type { DeployedFunction } from '../support/lambda-process.js';

export type FunctionName = ApiFunctionName | WorkerFunctionName;

/** A function as the synthesized template declares it, before its environment is made local. */
export interface TemplateFunction {
  readonly name: FunctionName;
  readonly logicalId: string;
  readonly assetDir: string;
  readonly handler: string;
  /** The template's values: literals, or CloudFormation expressions (Ref, Fn::GetAtt, Fn::Join, `{{resolve:…}}`). */
  readonly environment: Record<string, unknown>;
  readonly timeoutSeconds: number;
  readonly memorySize: number;
}

interface LambdaResource {
  Properties: { Handler?: string; Timeout?: number; MemorySize?: number; Environment?: { Variables?: Record<string, unknown> } };
  Metadata?: Record<string, unknown>;
}

const projectFunctions = new Set<string>([...Object.keys(apiFunctions), ...Object.keys(workerFunctions)]);

/**
 * Every project function of the template (the manifest's API functions and workers, found by their
 * handler `{name}.handler`), with the asset directory `cdk synth` wrote its bundle to. Synthesize with
 * the `aws:cdk:enable-asset-metadata` context, as the CLI does, so each function names its asset.
 */
export function templateFunctions(template: Template, outdir: string): Map<FunctionName, TemplateFunction> {
  const found = new Map<FunctionName, TemplateFunction>();
  for (const [logicalId, resource] of Object.entries(template.findResources('AWS::Lambda::Function')) as [string, LambdaResource][]) {
    const handler = resource.Properties.Handler ?? '';
    const name = handler.slice(0, handler.lastIndexOf('.'));
    if (!projectFunctions.has(name)) continue;
    if (found.has(name as FunctionName)) throw new Error(`Two functions in the template have the handler ${handler}`);
    const assetPath = resource.Metadata?.['aws:asset:path'];
    if (typeof assetPath !== 'string') throw new Error(`${logicalId} names no asset path: synthesize with aws:cdk:enable-asset-metadata`);
    const assetDir = path.join(outdir, assetPath);
    if (!existsSync(path.join(assetDir, `${name}.mjs`))) throw new Error(`${logicalId}'s asset ${assetDir} holds no ${name}.mjs`);
    found.set(name as FunctionName, {
      name: name as FunctionName,
      logicalId,
      assetDir,
      handler,
      environment: resource.Properties.Environment?.Variables ?? {},
      timeoutSeconds: resource.Properties.Timeout ?? 3,
      memorySize: resource.Properties.MemorySize ?? 128,
    });
  }
  return found;
}

/** A value CloudFormation resolves at deploy time: an intrinsic function, or a dynamic reference to a secret or parameter. */
export function isDeployTimeValue(value: unknown): boolean {
  return (typeof value === 'object' && value !== null) || (typeof value === 'string' && value.includes('{{resolve:'));
}

/** What the local stack gives in place of each value the template resolves at deploy time. */
export type LocalValues = Readonly<Record<string, string>>;

/** Literal template values the local run must replace, each only from the exact value the stack sets. */
export type LiteralReplacements = Readonly<Record<string, { readonly from: string; readonly to: string }>>;

/**
 * The function's environment as Lambda would give it, on the local emulators: the template's
 * literals as they are (but for `literals`, each checked against the value it replaces), every
 * deploy-time value replaced by its local equivalent, and then the emulator keys (`extra`). A
 * deploy-time value this mapping does not know fails, so a new resource binding cannot go untested.
 */
export function localEnvironment(fn: TemplateFunction, local: LocalValues, literals: LiteralReplacements, extra: Record<string, string>): DeployedFunction {
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(fn.environment)) {
    if (isDeployTimeValue(value)) {
      const replacement = local[key];
      if (replacement === undefined) throw new Error(`${fn.name}: ${key} is resolved at deploy time (${JSON.stringify(value)}) and the test has no local value for it`);
      environment[key] = replacement;
    } else if (typeof value !== 'string') {
      throw new Error(`${fn.name}: ${key} is not a string in the template: ${JSON.stringify(value)}`);
    } else if (literals[key]) {
      const { from, to } = literals[key];
      if (value !== from) throw new Error(`${fn.name}: ${key} is ${value} in the template; the test replaces only ${from}`);
      environment[key] = to;
    } else {
      environment[key] = value;
    }
  }
  for (const [key, value] of Object.entries(extra)) {
    if (key in environment) throw new Error(`${fn.name}: the template sets ${key} already; the test would hide it`);
    environment[key] = value;
  }
  return { name: fn.name, assetDir: fn.assetDir, handler: fn.handler, environment, timeoutSeconds: fn.timeoutSeconds, memorySize: fn.memorySize };
}
