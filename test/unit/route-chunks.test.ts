import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 29 item 15, "Speed the owner feels", held on the build (the timings are the bench's:
 * `npm run bench:pages`). The results page's first load — index.html's scripts, the results route
 * and what they import statically — shows the score without zod, libphonenumber, Amplify or a
 * domain contract, in ≤ 150 KiB gzip; the rest of the report comes after. The dashboard is split by
 * section. Built from the current sources into a temporary folder (frontend/dist may be stale).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUDGET_GZIP = 150 * 1024;

const HEAVY = [
  { label: 'libphonenumber', source: /node_modules\/libphonenumber-js\// },
  { label: 'Amplify', source: /node_modules\/(@aws-amplify|aws-amplify)\// },
  { label: 'zod', source: /node_modules\/zod\// },
  { label: 'recharts', source: /node_modules\/recharts\// },
  { label: 'a domain contract', source: /lambdas\/domain\/[^/]+\.contract\.ts$/ },
];

interface Manifest {
  [key: string]: { file: string; imports?: string[]; isDynamicEntry?: boolean };
}

let dist = '';
let manifest: Manifest = {};

function build(outDir: string): void {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV' && key !== 'TEST' && !key.startsWith('VITEST')));
  const args = ['build', '--config', 'frontend/vite.config.ts', '--outDir', outDir, '--emptyOutDir', '--sourcemap', '--manifest', '--logLevel', 'warn'];
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), ...args], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`vite build failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

const served = (file: string) => readFileSync(path.join(dist, file), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '');

function staticClosure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`no chunk for ${key} in the build's manifest`);
    if (seen.has(chunk.file)) continue;
    seen.add(chunk.file);
    staticClosure(chunk.imports ?? [], seen);
  }
  return seen;
}

/** Which of HEAVY the chunks were built from (their source maps name every module). */
function heavyIn(files: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const file of files) {
    // Vite's own helpers (the preload helper) have no map: they carry none of these.
    if (!existsSync(path.join(dist, `${file}.map`))) continue;
    const sources = (JSON.parse(readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((source) =>
      path.resolve(path.dirname(path.join(dist, file)), source).split(path.sep).join('/'),
    );
    for (const { label, source } of HEAVY) if (sources.some((s) => source.test(s))) found.add(label);
  }
  return [...found].sort();
}

const gzipOf = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + gzipSync(served(file), { level: 9 }).length, 0);

describe('the chunks each page loads', () => {
  beforeAll(() => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'rampart-route-chunks-'));
    build(dist);
    manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  }, 180_000);

  afterAll(() => {
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('shows the results page’s score without zod, libphonenumber, Amplify or a contract, in at most 150 KiB gzip', () => {
    // Act
    const firstLoad = staticClosure(['index.html', 'src/app/routes/results.tsx']);

    // Assess
    expect(heavyIn(firstLoad)).toEqual([]);
    expect(gzipOf(firstLoad)).toBeGreaterThan(50 * 1024);
    expect(gzipOf(firstLoad)).toBeLessThanOrEqual(BUDGET_GZIP);
  });

  it('loads the rest of the report after the score, with the contracts its forms use', () => {
    // Act
    const details = staticClosure(['src/features/audits/components/report-details.tsx']);

    // Assess: the check can fail, the details do carry what the score leaves out.
    expect(manifest['src/features/audits/components/report-details.tsx']?.isDynamicEntry).toBe(true);
    expect(heavyIn(details)).toEqual(expect.arrayContaining(['a domain contract', 'zod']));
  });

  it('splits the dashboard by section: each is its own chunk, and the chart library comes with the overview’s chart only', () => {
    // Prepare
    const sections = ['agents/agents-section', 'badge/badge-section', 'essential-eight/essential-eight-section', 'history/history-section', 'overview/overview-section', 'scans/scans-section', 'settings/settings-section', 'subscription/subscription-section', 'support/support-section'];

    // Act
    const entries = sections.map((section) => manifest[`src/features/dashboard/${section}.tsx`]);
    const shell = staticClosure(['index.html', 'src/app/routes/dashboard.tsx']);
    const overview = staticClosure(['src/features/dashboard/overview/overview-section.tsx']);
    const chart = staticClosure(['src/features/dashboard/overview/score-chart.tsx']);

    // Assess
    expect(entries.map((entry) => entry?.isDynamicEntry)).toEqual(sections.map(() => true));
    expect(new Set(entries.map((entry) => entry?.file)).size).toBe(sections.length);
    expect(heavyIn(shell)).not.toContain('recharts');
    expect(heavyIn(overview)).not.toContain('recharts');
    expect(heavyIn(chart)).toContain('recharts');
  });
});
