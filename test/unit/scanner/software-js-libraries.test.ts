import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import data from '../../../lambdas/scanner/data/js-libraries.json' with { type: 'json' };
import { librariesInContent, librariesInUrl, libraryNamedBy, NAMED_FILE_PRODUCTS } from '../../../lambdas/scanner/checks/software/js-libraries.js';
import { knownProducts } from '../../../lambdas/scanner/vulndb/index.js';

const libraries = (data as { libraries: { product: string; name: string; filename?: string[]; uri?: string[]; filecontent?: string[] }[] }).libraries;

describe('js-libraries.json (retire.js extractors)', () => {
  it('holds only JavaScript libraries of the knowledge base, each pattern compiling, without retire.js placeholders', () => {
    const javascript = new Set(knownProducts().filter((p) => p.kind === 'javascript-library').map((p) => p.id));

    expect(libraries.length).toBe(73);
    expect(libraries.filter((l) => !javascript.has(l.product))).toEqual([]);
    const patterns = libraries.flatMap((l) => [...(l.filename ?? []), ...(l.uri ?? []), ...(l.filecontent ?? [])]);
    expect(patterns.filter((p) => p.includes('§§'))).toEqual([]);
    for (const pattern of patterns) expect(() => new RegExp(pattern)).not.toThrow();
  });

  it('names only knowledge-base products in the file-name table', () => {
    const ids = new Set(knownProducts().map((p) => p.id));

    expect(NAMED_FILE_PRODUCTS.filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('JavaScript libraries in URLs and files', () => {
  it.each([
    ['https://example.test/js/jquery-1.8.3.min.js', [['jquery', '1.8.3', 'script-filename']]],
    ['https://code.jquery.com/jquery-3.4.1.js', [['jquery', '3.4.1', 'script-filename']]],
    ['https://code.jquery.com/jquery-3.6.0.slim.min.js', [['jquery', '3.6.0', 'script-filename']]],
    ['https://ajax.googleapis.com/ajax/libs/jquery/1.12.4/jquery.min.js', [['jquery', '1.12.4', 'script-uri']]],
    ['https://cdnjs.cloudflare.com/ajax/libs/twitter-bootstrap/3.3.7/js/bootstrap.min.js', [['bootstrap', '3.3.7', 'script-uri']]],
    ['https://example.test/js/bootstrap.min.js', []],
    ['https://example.test/js/app.js?ver=1.2.3', []],
  ])('reads %s', (url, expected) => {
    expect(librariesInUrl(url).map((l) => [l.product, l.version, l.source])).toEqual(expected);
  });

  it('reads versions from file headers as retire.js does', () => {
    expect(librariesInContent('/*! jQuery v1.8.3 jquery.com | jquery.org/license */\n(function(e,t){var n,r').map((l) => [l.product, l.version, l.matched])).toEqual([
      ['jquery', '1.8.3', '/*! jQuery v1.8.3'],
    ]);
    expect(librariesInContent('/*!\n * Bootstrap v3.3.7 (http://getbootstrap.com)\n */').map((l) => [l.product, l.version])).toEqual([['bootstrap', '3.3.7']]);
    expect(librariesInContent('console.log("hello")')).toEqual([]);
  });

  it('knows library file names that carry no version', () => {
    expect(['jquery.min.js', 'jquery.js', 'bootstrap.bundle.min.js', 'jquery-migrate.min.js', 'site.js'].map((name) => libraryNamedBy(name)?.product ?? null)).toEqual([
      'jquery',
      'jquery',
      'bootstrap',
      'jquery-migrate',
      null,
    ]);
  });
});

const sharedData = resolve('../shared/data/vulndb');

describe('npm run build:vulndb (JavaScript library extractors)', () => {
  it.skipIf(!existsSync(sharedData))('rebuilds js-libraries.json and JS-PROVENANCE.md byte for byte', () => {
    // Prepare
    const out = mkdtempSync(join(tmpdir(), 'js-libraries-'));
    try {
      // Act
      execFileSync(resolve('node_modules/.bin/tsx'), ['bin/build-vulndb.ts', '--source', sharedData, '--out', out], { stdio: 'pipe' });

      // Assess
      for (const file of ['js-libraries.json', 'JS-PROVENANCE.md']) {
        expect(readFileSync(join(out, file)).equals(readFileSync(resolve('lambdas/scanner/data', file))), `${file} differs from the committed one`).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
