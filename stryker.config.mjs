// @ts-check
/**
 * Mutation testing of the security-critical modules (issue 28): Stryker makes small realistic
 * changes to each module (a comparison flipped, a limit changed, a string emptied) and runs the
 * tests that cover it; a change no test notices ("survived") is a place where a bug would ship.
 * `npm run test:mutation` (not part of `npm test`: it reruns the covering tests once per mutant).
 * The modules and the tests that guard them are listed in vitest.mutation.config.mts.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.mts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'lambdas/domain/scan-authorization.ts',
    'lambdas/domain/bad-ports.ts',
    'lambdas/domain/single-line-text.ts',
    'lambdas/api/client-address.ts',
    'lambdas/api/stripe-webhook.ts',
    'lambdas/scanner/checks/exposure/soft-404.ts',
    'lambdas/adapters/dynamodb-rate-limits.adapter.ts',
    'lambdas/use-cases/rate-limits.ts',
    'lambdas/use-cases/submit-lead.ts',
    // The per-hour limits, not the whole settings file.
    'lambdas/config.ts:100-125',
    // The API-token routes' roles.
    'lambdas/routes.ts:181-183',
  ],
  coverageAnalysis: 'perTest',
  // Two cores: one test process at a time keeps the local stacks from racing each other.
  concurrency: 1,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  thresholds: { high: 90, low: 80, break: null },
};
