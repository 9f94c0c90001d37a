/**
 * `npm run measure:detection`: writes docs/measurements/range-detection.json, the named measurement
 * behind the landing page's detection figure (DECISIONS "Marketing figures are measured"), from the
 * last `npm run bench` (bench/latest.json): the planted flaws of the test range (open ports, TLS
 * protocol versions, certificate faults) that Rampart's scan found, out of those planted and judged.
 * Run it after the bench; a unit test holds the committed file to bench/latest.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Measurement } from '../lambdas/domain/platform-figures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_FILE = path.join(ROOT, 'bench', 'latest.json');
export const MEASUREMENT_FILE = path.join(ROOT, 'docs', 'measurements', 'range-detection.json');

interface BenchLatest {
  at: string;
  range?: { recall?: { tool: string; ports?: string; protocols?: string; certFaults?: string }[] };
}

/** 'a/b' (with any '(+n not judged)' after it) → [a, b]. */
function fraction(text: string | undefined): [number, number] {
  const match = /^(\d+)\/(\d+)/.exec(text ?? '');
  if (!match) throw new Error(`Not a count of found/planted: ${text}`);
  return [Number(match[1]), Number(match[2])];
}

export function rangeDetection(bench: BenchLatest): Measurement {
  const row = bench.range?.recall?.find((r) => r.tool === 'rampart');
  if (!row) throw new Error('bench/latest.json has no range recall for rampart: run `npm run bench` with the range');
  const parts = [fraction(row.ports), fraction(row.protocols), fraction(row.certFaults)];
  const found = parts.reduce((n, [hit]) => n + hit, 0);
  const planted = parts.reduce((n, [, total]) => n + total, 0);
  return {
    name: 'Test range detection',
    value: `${found}/${planted}`,
    label: 'planted flaws found on our test range',
    measuredAt: bench.at.slice(0, 10),
    method: `npm run bench: Rampart's scan of the local test range against what the range planted — open ports ${row.ports}, TLS protocol versions ${row.protocols}, certificate faults ${row.certFaults}.`,
    source: 'bench/latest.json (range.recall)',
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const measurement = rangeDetection(JSON.parse(readFileSync(BENCH_FILE, 'utf8')) as BenchLatest);
  writeFileSync(MEASUREMENT_FILE, `${JSON.stringify(measurement, null, 2)}\n`);
  console.log(`${path.relative(ROOT, MEASUREMENT_FILE)}: ${measurement.value} ${measurement.label} (${measurement.measuredAt})`);
}
