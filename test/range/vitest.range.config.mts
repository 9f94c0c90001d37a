import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:range`: the tests against the real servers of the scan range (root and Debian
 * packages needed, see test/range/README.md). Not part of `npm test`. The global setup brings the
 * range up once and down at the end; files run one after another on the one range.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'range',
    include: ['test/range/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/range/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
