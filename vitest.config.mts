import { defineConfig } from 'vitest/config';

/**
 * One `vitest run` runs every project: unit (pure logic), integration (the whole local stack
 * in-process, driven over HTTP), infra (CDK assertions + cdk-nag), e2e (real Chromium against npm start).
 */
export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1' },
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], environment: 'node', testTimeout: 120_000, hookTimeout: 180_000 } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false } },
    ],
  },
});
