import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';

/** Configuration keys a deploy passes by SecureString parameter name (lambdas/adapters/ssm-parameters.adapter.ts). */
export type ParameterSecretKey = 'HIBP_API_KEY';

/**
 * Gives a function one secret by name: `{KEY}_PARAMETER` in its environment and `ssm:GetParameters`
 * on that one parameter, read (and decrypted with the account's aws/ssm key) at cold start, so the
 * value is never in the template or the function's configuration. The operator creates the
 * parameter (README "Deploy to AWS").
 */
export function bindParameterSecret(fn: LambdaFunction, key: ParameterSecretKey, parameterName: string): void {
  const arn = Stack.of(fn).formatArn({ service: 'ssm', resource: 'parameter', resourceName: parameterName.replace(/^\//, '') });
  fn.addToRolePolicy(new PolicyStatement({ actions: ['ssm:GetParameters'], resources: [arn] }));
  fn.addEnvironment(`${key}_PARAMETER`, parameterName);
}
