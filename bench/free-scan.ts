/**
 * The free scan of one range host, `--runs` times in a row, in its own process, for `bench/run.ts`:
 * `tsx bench/free-scan.ts --root DIR --target URL [--runs N]`. The engine is the one in `--root`
 * (this checkout, or a worktree of an earlier revision, so today's scan and a baseline run the same
 * way on the same range), with the free scan's settings: active mode (the requester proved
 * control), the top 100 ports, the free scan's 40 s deadline. Prints one JSON line:
 * `{ runs: [{ totalMs, checks: { name: durationMs } }] }`.
 *
 * Each process loads the engine once; the first run pays the lazy imports (knowledge base files)
 * as a cold Lambda does, the later ones run warm. Only range hosts, under the range-only resolver.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The free scan's whole-scan deadline (lambdas/use-cases/run-scan.ts SCAN_DEADLINE_MS). */
const FREE_SCAN_DEADLINE_MS = 40_000;
/** The free scan's ports (README SCAN_TOP_PORTS default). */
const FREE_SCAN_TOP_PORTS = 100;

interface RangeEngine {
  scanRangeHost(target: string, options?: Record<string, unknown>, settings?: Record<string, unknown>): Promise<{ checks: { name: string; durationMs?: number; status: string }[] }>;
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<number> {
  const root = path.resolve(argument('--root') ?? process.cwd());
  const target = argument('--target');
  const runs = Number(argument('--runs') ?? '5');
  if (!target || !/^https?:\/\/[a-z0-9.-]*example\.test\b/.test(target)) throw new Error('--target must be a range URL (https://…example.test)');
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) throw new Error('--runs takes a number from 1 to 50');
  const engine = (await import(pathToFileURL(path.join(root, 'test/range/engine.ts')).href)) as RangeEngine;
  const results: { totalMs: number; checks: Record<string, number>; statuses: Record<string, string> }[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const report = await engine.scanRangeHost(target, { deadlineMs: FREE_SCAN_DEADLINE_MS, mode: 'active' }, { topPorts: FREE_SCAN_TOP_PORTS });
    const totalMs = Math.round(performance.now() - started);
    results.push({
      totalMs,
      checks: Object.fromEntries(report.checks.map((c) => [c.name, Math.round(c.durationMs ?? 0)])),
      statuses: Object.fromEntries(report.checks.map((c) => [c.name, c.status])),
    });
  }
  console.log(JSON.stringify({ runs: results }));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`free-scan: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
