import { Stack } from 'aws-cdk-lib';
import { Function as LambdaFunction, SingletonFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';

/**
 * The product's own Lambda functions in a stack: every `aws-lambda` Function except those CDK makes
 * for itself through a SingletonFunction (the BucketDeployment handler that uploads the site).
 * Found in the construct tree rather than listed, so a function added or regrouped anywhere in the
 * stack is alarmed and graphed without touching lib/alarms.
 */
export function projectFunctions(scope: IConstruct): LambdaFunction[] {
  const all = Stack.of(scope).node.findAll();
  const cdkOwned = new Set(all.filter((c): c is SingletonFunction => c instanceof SingletonFunction).map((s) => s.functionArn));
  return all.filter((c): c is LambdaFunction => c instanceof LambdaFunction && !cdkOwned.has(c.functionArn));
}

/** A function's place in the stack, as a construct id: `Scanning/ScanWorker` → `ScanningScanWorker`. */
export function functionKey(fn: LambdaFunction): string {
  const stack = Stack.of(fn);
  return fn.node.path.slice(stack.node.path.length + 1).replace(/[^A-Za-z0-9]/g, '');
}
