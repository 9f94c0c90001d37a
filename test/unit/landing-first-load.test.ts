import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What the landing page loads before anything else runs — the script index.html names and the
 * modules it preloads, plus the stylesheet, measured as `npm run bench` does (gzip level 9) — and
 * what the lead form's chunk, fetched at once beside it, pulls in. Built from the current sources
 * into a temporary folder: frontend/dist may be stale, or in use by another run.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** 134.3 KiB when set (down from 201 KiB while the contracts barrel and zod were on it), plus ~10 %. */
const FIRST_LOAD_GZIP_BUDGET = 148 * 1024;

/** Code a visitor who has not started on the form, and holds no session, does not need yet. */
const DEFERRED = [
  { label: 'libphonenumber (the lead and account contracts)', source: /node_modules\/libphonenumber-js\// },
  { label: 'Amplify (loaded only when a session may exist)', source: /node_modules\/(@aws-amplify|aws-amplify)\// },
  { label: 'zod (the contracts; the frontend env is checked at build time)', source: /node_modules\/zod\// },
  { label: 'web-vitals (the performance score, loaded after the page has loaded)', source: /node_modules\/web-vitals\// },
  // The doors (frontend/src/lib/contracts.ts, lead-contract.ts) only re-export: they leave no code of their own to find.
  { label: 'a domain contract (its schemas)', source: /lambdas\/domain\/[^/]+\.contract\.ts$/ },
];

interface Manifest {
  [key: string]: { file: string; imports?: string[] };
}

let dist = '';

/** `npm run build` without the test runner's NODE_ENV=test (which would give React's development build). */
function build(outDir: string): void {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV' && key !== 'TEST' && !key.startsWith('VITEST')));
  const args = ['build', '--config', 'frontend/vite.config.ts', '--outDir', outDir, '--emptyOutDir', '--sourcemap', '--manifest', '--logLevel', 'warn'];
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), ...args], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`vite build failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

/** The file as served: the build here also writes source maps, whose one-line reference the real build has not. */
const served = (file: string) => readFileSync(path.join(dist, file), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '');

/** The modules (node_modules packages and our sources) a built chunk was made from. */
const sourcesOf = (file: string): string[] =>
  (JSON.parse(readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((source) => path.resolve(path.dirname(path.join(dist, file)), source));

/** index.html's own script and modulepreloads, and its stylesheet: what loads before the app runs. */
function firstLoad(): string[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
}

/** A chunk and everything it imports statically (the manifest's `imports`), by the manifest key of its source. */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

function deferredCodeIn(files: Iterable<string>): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (!file.endsWith('.js') || !existsSync(path.join(dist, `${file}.map`))) continue;
    const sources = sourcesOf(file);
    for (const { label, source } of DEFERRED) if (sources.some((s) => source.test(s.split(path.sep).join('/')))) found.push(`${file}: ${label}`);
  }
  return found;
}

describe('the landing page’s first load', () => {
  beforeAll(() => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'rampart-landing-'));
    build(dist);
  }, 180_000);

  afterAll(() => {
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('loads neither libphonenumber, Amplify, zod nor a domain contract before the page runs', () => {
    // Act
    const files = firstLoad();

    // Assess
    expect(files.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(0);
    expect(files.some((file) => file.endsWith('.css'))).toBe(true);
    expect(deferredCodeIn(files)).toEqual([]);
  });

  it(`stays under its budget of ${FIRST_LOAD_GZIP_BUDGET / 1024} KiB gzipped`, () => {
    // Act
    const gzipBytes = firstLoad().reduce((sum, file) => sum + gzipSync(served(file), { level: 9 }).length, 0);

    // Assess
    expect(gzipBytes).toBeGreaterThan(50 * 1024);
    expect(gzipBytes).toBeLessThanOrEqual(FIRST_LOAD_GZIP_BUDGET);
  });

  it('fetches the lead form at once without its contract: that comes on the form’s first focus', () => {
    // Prepare
    const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;

    // Act
    const leadForm = staticClosure(manifest, 'src/features/lead-form/index.ts');
    const onFocus = staticClosure(manifest, 'src/lib/lead-contract.ts');

    // Assess
    expect(leadForm.size).toBeGreaterThan(0);
    expect(deferredCodeIn(leadForm)).toEqual([]);
    // The check can fail: the contract loaded on focus does carry libphonenumber.
    expect(deferredCodeIn(onFocus).some((found) => found.includes('libphonenumber'))).toBe(true);
  });
});
