/**
 * Global setup of `npm run test:range`: brings the range up once for every range test file, and
 * stops it after them (unless someone else still holds a lease, e.g. `npm run range:up`).
 */
import { startRange, stopRange } from './range.js';

export default async function setup(): Promise<() => Promise<void>> {
  const range = await startRange();
  const what = range.started.length === 0 ? 'already up' : `started ${range.started.join(', ')} in ${range.timings.total} ms`;
  console.log(`range: ${what} (${range.dir})`);
  return async () => {
    const result = await stopRange();
    console.log(`range: ${result.reason.toLowerCase()}`);
  };
}
