import { defineConfig } from 'vitest/config';

/**
 * One `vitest run` runs every project: unit (pure logic), integration (the whole local stack
 * in-process, driven over HTTP), infra (CDK assertions + cdk-nag), components (React
 * components in jsdom), hardening (the local stack under abuse: test/hardening/README.md), e2e
 * (real Chromium against npm start).
 */
// Loopback only, never port 2024, never the system resolver: enforced in every project, not hoped for.
const setupFiles = ['test/support/loopback-only.ts'];

export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1' },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles,
          // The Observatory differential runs MDN's own scan() on captured responses: its retriever is
          // replaced (vi.mock), which reaches a dependency's inner imports only when Vite loads it.
          server: { deps: { inline: ['@mdn/mdn-http-observatory'] } },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          setupFiles,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], environment: 'node', setupFiles, testTimeout: 120_000, hookTimeout: 180_000 } },
      {
        test: {
          name: 'components',
          include: ['frontend/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: [...setupFiles, 'frontend/src/testing/setup-tests.ts'],
        },
      },
      {
        test: {
          // test/hardening/README.md: bad input, SSRF corpus, tenancy, replay and concurrency over the local stack.
          name: 'hardening',
          include: ['test/hardening/**/*.test.ts'],
          // The slow suites (kill -9 ten times, a 500-lead burst, 50 scans) run with `npm run test:hardening` (.ci/run), not in `npm test`.
          exclude: process.env.HARDENING_FULL ? [] : ['test/hardening/**/*.slow.test.ts'],
          // In full, one file at a time: the crash suite's scans must not race 59,000 bad inputs for the two cores.
          fileParallelism: !process.env.HARDENING_FULL,
          setupFiles,
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', setupFiles, testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false } },
    ],
  },
});
