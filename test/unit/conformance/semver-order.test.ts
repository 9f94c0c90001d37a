/**
 * node-semver's comparison and equality fixtures (../shared/conformance/semver) through the
 * scanner's version comparator with the SemVer scheme, the one npm-ecosystem versions (JavaScript
 * libraries, retire.js data) are matched by (DECISIONS "Version order"). A pair `a > b` is two
 * checks (a above b, b below a); a pair `a == b` is one. The fixtures' `options` (loose or not)
 * need no mapping: the scheme reads every version loosely, as npm-ecosystem data is written, and
 * the strict fixtures are valid loose versions with the same order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareVersions } from '../../../lambdas/scanner/vulndb/version.js';
import { conformanceFolder } from './conformance-data.js';

interface Pair {
  a: string;
  b: string;
  options: unknown;
}

const folder = conformanceFolder('semver', 'node-semver ordering');
const read = (file: string): Pair[] => (folder ? (JSON.parse(readFileSync(join(folder, file), 'utf8')) as Pair[]) : []);
const comparisons = read('comparisons.json');
const equalities = read('equality.json');

const tally = { checks: 0, agree: 0 };
const check = (agrees: boolean) => {
  tally.checks++;
  if (agrees) tally.agree++;
  return agrees;
};

describe.skipIf(!folder)('node-semver fixtures through the SemVer scheme', () => {
  afterAll(() => {
    console.log(`node-semver: ${tally.agree}/${tally.checks} ordering checks agree (${comparisons.length} comparisons both ways, ${equalities.length} equalities)`);
  });

  it.each(comparisons.map((pair) => [`${pair.a} > ${pair.b}`, pair] as const))('%s', (_name, { a, b }) => {
    // Act
    const above = compareVersions(a, b, 'semver');
    const below = compareVersions(b, a, 'semver');

    // Assess
    const agree = [check(above === 1), check(below === -1)];
    expect(agree, `${a} above ${b}, ${b} below ${a}`).toEqual([true, true]);
  });

  it.each(equalities.map((pair) => [`${pair.a} == ${pair.b}`, pair] as const))('%s', (_name, { a, b }) => {
    expect(check(compareVersions(a, b, 'semver') === 0), `${a} equals ${b}`).toBe(true);
  });
});
