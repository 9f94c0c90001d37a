/**
 * Where the public conformance suites live: `../shared/conformance`, beside the repository (see
 * its README). A checkout without that folder (CI clones the repository alone) skips the suites
 * with one printed line each, as the vulndb rebuild test does; the product never reads them.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The suite's folder, or undefined (after printing one line) when the data is not there. */
export function conformanceFolder(folder: string, suite: string): string | undefined {
  const path = resolve(repositoryRoot, '../shared/conformance', folder);
  if (existsSync(path)) return path;
  console.log(`${suite}: skipped, ${path} is absent`);
  return undefined;
}
