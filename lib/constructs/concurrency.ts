import { CfnFunction, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * Reserves (and caps) a function's concurrency on its CloudFormation resource, so it works for any
 * Lambda construct whatever props it exposes. Why the product reserves what it does: SCAN_RESERVED_CONCURRENCY.
 */
export function reserveConcurrency(fn: LambdaFunction, executions: number): void {
  const resource = fn.node.defaultChild;
  if (!(resource instanceof CfnFunction)) throw new Error(`${fn.node.path} has no AWS::Lambda::Function resource to reserve concurrency on`);
  resource.reservedConcurrentExecutions = executions;
}
