import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHstsPreload } from '../../../bin/build-hsts-preload.js';
import { loadHstsPreload, preloadLookup, type StoredPreloadList } from '../../../lambdas/scanner/hsts-preload.js';

const dataDir = resolve('lambdas/scanner/data');
const shared = resolve('../shared/data/hsts-preload');
const stored = () => JSON.parse(readFileSync(join(dataDir, 'hsts-preload.json'), 'utf8')) as StoredPreloadList;

describe('the HSTS preload list in the knowledge base', () => {
  it('finds a host by its own entry, or by a parent entry only when that covers subdomains', async () => {
    // Prepare
    const preloaded = await loadHstsPreload();

    // Act / Assess: values as Chromium's list of 2026-06-01 has them (HSTS-PROVENANCE.md).
    expect(preloaded('aclu.org')).toEqual({ name: 'aclu.org', includeSubDomains: false });
    expect(preloaded('mail.aclu.org')).toBeNull();
    expect(preloaded('docs.github.com')).toEqual({ name: 'github.com', includeSubDomains: true });
    expect(preloaded('get.app')).toEqual({ name: 'app', includeSubDomains: true });
    expect(preloaded('a.b.c.dev')).toEqual({ name: 'dev', includeSubDomains: true });
    expect(preloaded('1.0.0.1')).toEqual({ name: '1.0.0.1', includeSubDomains: false });
    expect(preloaded('shop.example')).toBeNull();
    expect(preloaded('example.com')).toBeNull();
    expect(preloaded('google.com')).toBeNull(); // pinned only, no force-https: not in the list
    expect(preloaded('')).toBeNull();
  });

  it('reads a host as browsers do: case-insensitively and without a trailing dot', async () => {
    const preloaded = await loadHstsPreload();
    expect(preloaded('ACLU.org.')).toEqual({ name: 'aclu.org', includeSubDomains: false });
  });

  it('is not read from ../shared at run time: the lookup imports only the bundled JSON', () => {
    const source = readFileSync(resolve('lambdas/scanner/hsts-preload.ts'), 'utf8');
    expect(source).not.toMatch(/shared\/data|node:fs|readFileSync/);
    expect(source).toMatch(/import\('\.\/data\/hsts-preload\.json'/);
  });

  it('stores every name once, sorted, in blocks of at most 64', () => {
    const list = stored();
    const names = list.blocks.flatMap((block) => block.split(' '));
    expect(names).toHaveLength(list.count);
    expect(list.blocks.every((block) => block.split(' ').length <= 64)).toBe(true);
  });
});

describe.skipIf(!existsSync(shared))('npm run build:vulndb: the HSTS preload list', () => {
  it('keeps every name and flag of the shared list: each reads back through the lookup', () => {
    // Prepare
    const source = JSON.parse(readFileSync(join(shared, 'hsts-preload.json'), 'utf8')) as { entries: Record<string, boolean> };
    const preloaded = preloadLookup(stored());

    // Act
    const wrong = Object.entries(source.entries).filter(([name, includeSubDomains]) => {
      const entry = preloaded(name);
      return entry?.name !== name || entry.includeSubDomains !== includeSubDomains;
    });

    // Assess
    expect(Object.keys(source.entries)).toHaveLength(94_600);
    expect(wrong).toEqual([]);
  });

  it('rebuilds byte-identical files from the same input', () => {
    const out = mkdtempSync(join(tmpdir(), 'hsts-preload-'));
    try {
      const built = buildHstsPreload(shared, out);
      expect(built).toMatchObject({ names: 94_600, withoutSubdomains: 250 });
      for (const file of ['hsts-preload.json', 'HSTS-PROVENANCE.md']) {
        expect(readFileSync(join(out, file)).equals(readFileSync(join(dataDir, file))), `${file} differs from the committed one`).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
