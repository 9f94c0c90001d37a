import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Dependencies point inward (STYLE.md habit 2): the scanner and the domain import no AWS SDK,
 * no adapter, no handler; the frontend imports only the domain's contracts and the route manifest.
 */
const inwardOnly = (patterns, message) => ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }];

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'frontend/dist/', '.data/', '.cognito/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['lambdas/domain/**/*.ts', 'lambdas/scanner/**/*.ts', 'lambdas/agents/**/*.ts'],
    rules: {
      'no-restricted-imports': inwardOnly(
        ['@aws-sdk/*', '@aws-lambda-powertools/*', 'aws-cdk-lib', 'aws-cdk-lib/*', '**/adapters/**', '**/api/**', '**/workers/**', '**/composition*', '**/bin/**', '**/lib/**'],
        'The domain, the scanner and the agents\' scoring and installers depend on nothing outside them (ports, not adapters).',
      ),
    },
  },
  {
    files: ['lambdas/**/*.ts'],
    ignores: ['lambdas/domain/**', 'lambdas/scanner/**', 'lambdas/agents/**'],
    rules: {
      'no-restricted-imports': inwardOnly(['**/bin/**', '**/lib/**', 'dynalite', 'cognito-local', 's3rver', 'aws-ses-v2-local', 'local-aws-sqs', 'aws-cdk-lib', 'aws-cdk-lib/*'], 'lambdas/ never imports an emulator, the local runtime or the CDK.'),
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': inwardOnly(
        ['**/lambdas/adapters/**', '**/lambdas/api/**', '**/lambdas/workers/**', '**/lambdas/scanner/**', '**/lambdas/use-cases/**', '**/lambdas/composition*', '**/lambdas/config*', '@aws-sdk/*'],
        'The frontend imports only lambdas/domain contracts and lambdas/routes.',
      ),
    },
  },
);
