import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run test:mutation` runs against each mutant of the modules stryker.config.mjs
 * names: the unit tests of those modules and the integration tests that drive them over the local
 * stack. One flat project (Stryker's runner reads no projects), the integration project's timeouts.
 */
export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1' },
    include: [
      'test/unit/scan-authorization.test.ts',
      'test/unit/bad-ports.test.ts',
      'test/unit/single-line-text.test.ts',
      'test/unit/client-address.test.ts',
      'test/unit/scanner/exposure-analysis.test.ts',
      'test/integration/address-rotation.test.ts',
      'test/integration/lead-abuse.test.ts',
      'test/integration/payments.test.ts',
      'test/integration/api-tokens.test.ts',
      'test/integration/passive-restricted-ports.test.ts',
    ],
    setupFiles: ['test/support/loopback-only.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
